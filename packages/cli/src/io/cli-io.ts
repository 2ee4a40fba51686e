import { systemClock, type Clock } from '@headway/protocol';
import { resolveClock } from '@headway/protocol/internal';
import type { TerminalStream } from '@headway/reporter-cli';

/** Where a command reads and writes, and its clock: the process's own, or a test's. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: TerminalStream;
  env: Record<string, string | undefined>;
  /** The time and the timers of follows, replays and the live view (default protocol's `systemClock`). */
  clock?: Clock;
  /** @deprecated use `clock`; removed in the next minor. */
  now?: () => number;
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
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- honoured until it is removed
  return resolveClock(io.clock, io.now);
}

/**
 * @deprecated use {@link createProcessIo}; removed in the next minor.
 * @alias
 */
export const processIo: typeof createProcessIo = createProcessIo;
