import { systemClock, type Clock } from '@headway/protocol';
import type { TerminalStream } from '@headway/reporter-cli';

/** Where a command reads and writes, and its clock: the process's own, or a test's. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: TerminalStream;
  env: Record<string, string | undefined>;
  /** The time and the timers of follows, replays and the live view (default protocol's `systemClock`). */
  clock?: Clock;
  /** Ends a follow or a replay early (Ctrl-C). */
  signal?: AbortSignal;
}

/** The process's streams, environment and clock. */
export function createProcessIo(signal?: AbortSignal): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    clock: systemClock,
    ...(signal === undefined ? {} : { signal }),
  };
}

/** The clock `io` asks for: its `clock`, else its deprecated `now` on the system timers. */
export function ioClock(io: CliIo): Clock {
  return io.clock ?? systemClock;
}
