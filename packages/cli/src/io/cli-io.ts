import type { TerminalStream } from '@headway/reporter-cli';

/** Where a command reads and writes, and its clock: the process's own, or a test's. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: TerminalStream;
  env: Record<string, string | undefined>;
  now: () => number;
  /** Ends a follow or a replay early (Ctrl-C). */
  signal?: AbortSignal;
}

/** The process's streams, environment and clock. */
export function createProcessIo(signal?: AbortSignal): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, now: Date.now, ...(signal === undefined ? {} : { signal }) };
}

/**
 * @deprecated use {@link createProcessIo}; removed in the next minor.
 * @alias
 */
export const processIo: typeof createProcessIo = createProcessIo;
