// Programs the tests drive besides Node.js (a browser, a terminal, a server): the root test
// command finds or installs them and passes their paths in HEADWAY_* variables (see the root
// README). One lookup for every package, so each test file only names its variable: naming it
// is also what tells the root test command which files skip when the part is missing.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The parts the root test command provides, by the variable it sets, with the programs looked for on PATH. */
const KNOWN_PARTS: Readonly<Record<string, readonly string[]>> = {
  HEADWAY_CHROMIUM_PATH: ['chromium', 'chromium-browser', 'google-chrome'],
  HEADWAY_TMUX: ['tmux'],
  HEADWAY_REDIS_SERVER: ['redis-server'],
};

/** Options of {@link findTestPart}. */
export interface FindTestPartOptions {
  /** Programs looked for on PATH when the variable is unset (default the known ones for the variable). */
  names?: readonly string[];
  /** Environment read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Print why the tests skip when the part is missing (default true). */
  warn?: boolean;
}

/** Whether `file` exists and may be executed. */
export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where a program the tests need is: the value of `variable` as the root test command set it
 * (empty when it found none); when the tests run on their own (`pnpm -F`), the first of the
 * part's programs on PATH. Undefined when it is missing, after printing which program and how
 * to provide it: the tests that need it skip (`describe.skipIf(path === undefined)`).
 *
 * @example
 * ```ts
 * const tmux = findTestPart('HEADWAY_TMUX');
 * describe.skipIf(tmux === undefined)('live terminal', () => { ... });
 * ```
 */
export function findTestPart(variable: string, options: FindTestPartOptions = {}): string | undefined {
  const env = options.env ?? process.env;
  const names = options.names ?? KNOWN_PARTS[variable] ?? [];
  const given = env[variable];
  const found =
    given !== undefined
      ? given === ''
        ? undefined
        : given
      : names
          .flatMap((name) =>
            (env.PATH ?? '')
              .split(delimiter)
              .filter((d) => d !== '')
              .map((dir) => join(dir, name)),
          )
          .find(isExecutable);
  if (found === undefined && options.warn !== false) {
    const what = names.length > 0 ? names.join(' or ') : variable;
    console.warn(
      `skipped: no ${what} found; run \`npm test\` at the repository root (it finds or installs it), set ${variable}, or put it on PATH`,
    );
  }
  return found;
}
