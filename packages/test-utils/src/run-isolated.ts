// Part of `@headway/test-utils`: runs input that may hang or abort a process
// away from the test runner.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What a child process printed and whether it ended in time. */
export interface IsolatedRun {
  status: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link runIsolated}. */
export interface RunIsolatedOptions {
  /** Folder `tsx` is resolved from and the child runs in: the calling package's (e.g. `import.meta.dirname`). */
  cwd: string;
  /** Time limit (default 120 s: a child that starts tsx on a loaded 2-core machine can take 20 s); past it the child is killed and `signal` says so. */
  timeoutMs?: number;
}

/**
 * Runs TypeScript `code` in a fresh Node process (via tsx, which the calling package has as a
 * dev dependency) with a time limit, for input that may hang or abort the process: a hang or a
 * crash then fails the test instead of taking the test runner down. `code` may import the
 * package's sources by their file URL.
 *
 * @example
 * ```ts
 * const run = runIsolated(`import { parse } from ${JSON.stringify(srcUrl)}; parse('{'.repeat(1e6));`, { cwd: import.meta.dirname });
 * expect(run.status).toBe(0);
 * ```
 */
export function runIsolated(code: string, options: RunIsolatedOptions): IsolatedRun {
  const dir = mkdtempSync(join(tmpdir(), 'headway-isolated-'));
  try {
    const file = join(dir, 'case.ts');
    writeFileSync(file, code);
    const result = spawnSync(process.execPath, ['--import', 'tsx', file], {
      encoding: 'utf8',
      timeout: options.timeoutMs ?? 120_000,
      cwd: options.cwd,
    });
    return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** {@link runIsolated} bound to one package's folder, with the file URLs of its sources. */
export interface IsolatedRunner {
  /** Runs `code` like {@link runIsolated}, from the package's folder. */
  readonly runIsolated: (code: string, timeoutMs?: number) => IsolatedRun;
  /** The file URL of a module in the package's folder (e.g. `srcUrl('parser.ts')`), for `code` to import. */
  readonly srcUrl: (file: string) => string;
}

/**
 * A {@link runIsolated} for the package whose folder is `dir` (pass `import.meta.dirname` of a
 * file beside the sources).
 */
export function createIsolatedRunner(dir: string): IsolatedRunner {
  return {
    runIsolated: (code, timeoutMs) => runIsolated(code, timeoutMs === undefined ? { cwd: dir } : { cwd: dir, timeoutMs }),
    srcUrl: (file) => pathToFileURL(join(dir, file)).href,
  };
}
