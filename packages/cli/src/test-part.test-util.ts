// Programs the tests drive besides Node.js (a browser, a terminal): the root test command
// finds or installs them and passes their paths in HEADWAY_* variables (see the root README).
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where the program is: the value of `variable` as the test command set it (empty when it
 * found none); when the tests run on their own, the first of `names` on PATH. Undefined: the
 * tests that need it skip, after saying so with {@link skipNote}.
 */
export function findTestPart(variable: string, names: readonly string[], env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = env[variable];
  if (given !== undefined) return given === '' ? undefined : given;
  const dirs = (env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  return names.flatMap((name) => dirs.map((dir) => join(dir, name))).find(executable);
}

/** Prints why a file's tests skip: which program is missing and how to provide it. */
export function skipNote(variable: string, names: readonly string[]): void {
  console.warn(`skipped: no ${names.join(' or ')} found; run \`npm test\` at the repository root (it finds or installs it), set ${variable}, or put it on PATH`);
}
