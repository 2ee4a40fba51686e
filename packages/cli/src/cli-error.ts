import { HeadwayError, type HeadwayErrorOptions } from '@headway/protocol';

/** Codes a {@link CliError} can carry. */
export type CliErrorCode =
  'CLI_USAGE' | 'CLI_FILE_NOT_FOUND' | 'CLI_FILE_UNREADABLE' | 'CLI_CORRUPT_FILE' | 'CLI_STORE_URL' | 'CLI_STORE_MISSING' | 'CLI_NOT_FOUND';

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

/** Something `headway` reports to its user and exits with `exitCode` for (1 or 2). */
export class CliError extends HeadwayError {
  declare readonly code: CliErrorCode;
  readonly exitCode: number;

  constructor(code: CliErrorCode, message: string, options: HeadwayErrorOptions & { exitCode?: number } = {}) {
    const { exitCode, ...rest } = options;
    super(code, message, rest);
    this.name = 'CliError';
    this.exitCode = exitCode ?? (code === 'CLI_USAGE' || code === 'CLI_STORE_URL' ? EXIT.usage : EXIT.failed);
  }
}
