import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built bin, as a user's shell runs it (the test task builds first). */
export const BIN: string = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
/** The package's directory (fixtures live in `fixtures/`). */
export const PACKAGE_DIR: string = fileURLToPath(new URL('..', import.meta.url));
export const fixture = (name: string): string => `${PACKAGE_DIR}fixtures/${name}`;

/** What a finished `headway` process left. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link runCli}. */
export interface RunCliOptions {
  stdin?: string;
  env?: Record<string, string>;
  cwd?: string;
}

/** Starts `headway ARGS` with plain output (no TTY, CI set). */
export function startCli(args: readonly string[], options: RunCliOptions = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? PACKAGE_DIR,
    env: { ...process.env, CI: '1', NO_COLOR: '1', ...options.env },
  });
}

/** Runs `headway ARGS` to its end. */
export function runCli(args: readonly string[], options: RunCliOptions = {}): Promise<CliResult> {
  const child = startCli(args, options);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin.end(options.stdin ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}
