import { HeadwayError, type HeadwayErrorOptions } from '@headway/protocol';

/** Codes a {@link CliError} can carry. */
export type CliErrorCode =
  /** An unknown command or option, or an option value out of range (exit code 2). */
  | 'CLI_USAGE'
  /** A file named on the command line (or in a store URL) does not exist. */
  | 'CLI_FILE_NOT_FOUND'
  /** A file or stdin cannot be read, or is larger than the CLI reads. */
  | 'CLI_FILE_UNREADABLE'
  /** A file is not what the command expects (not JSON, not events, not a headway store); the message says where. */
  | 'CLI_CORRUPT_FILE'
  /** No store URL, or one that is not `sqlite:PATH` or `postgres://…` (exit code 2). */
  | 'CLI_STORE_URL'
  /** The store URL needs a package that is not installed, or too old to do what was asked. */
  | 'CLI_STORE_MISSING'
  /** The store has no run or session with that id, or keeps no sessions. */
  | 'CLI_NOT_FOUND'
  /** `headway serve` cannot listen on the address and port asked for (taken, not allowed). */
  | 'CLI_LISTEN';

/** Exit codes of `headway`: documented in the README and in every `--help`. */
export const EXIT = {
  /** It worked (and a watched run finished). */
  ok: 0,
  /** It failed: a missing or corrupt file, a run that failed, a broken audit chain. */
  failed: 1,
  /** Bad usage: an unknown command or option, a wrong store URL. */
  usage: 2,
  /** The run stopped short (a limit, cancelled) and left a progress report. */
  stoppedShort: 3,
  /** Ctrl-C before the run's end (128 + SIGINT, as shells report it). */
  interrupted: 130,
} as const;

/** Options of a {@link CliError}: the standard ones plus the exit code. */
export interface CliErrorOptions extends HeadwayErrorOptions {
  /** The process exit code; by default 2 ({@link EXIT}.usage) for `CLI_USAGE` and `CLI_STORE_URL`, else 1. */
  exitCode?: number;
}

/** Something `headway` reports to its user and exits with `exitCode` for (1 or 2). */
export class CliError extends HeadwayError<CliErrorCode, CliErrorOptions> {
  override readonly name: string = 'CliError';
  /** The process exit code `headway` ends with. */
  declare readonly exitCode: number;

  constructor(code: CliErrorCode, message: string, options: CliErrorOptions = {}) {
    super(code, message, {
      ...options,
      exitCode: options.exitCode ?? (code === 'CLI_USAGE' || code === 'CLI_STORE_URL' ? EXIT.usage : EXIT.failed),
    });
  }
}
