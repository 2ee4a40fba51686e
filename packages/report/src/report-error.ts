import { HeadwayError } from '@headway/protocol';

/** Codes a {@link ReportError} can carry. */
export type ReportErrorCode =
  /** A saved tool-call log (from a checkpoint) is not valid; `issues` names every offending path. */
  | 'REPORT_INVALID_LOG_STATE'
  /** A `ToolCallLog` was given impossible options. */
  | 'REPORT_INVALID_OPTIONS';

/**
 * Thrown when a saved tool-call log (from a checkpoint) is invalid, or when a
 * {@link ToolCallLog} is given impossible options; the message names every offending path.
 */
export class ReportError extends HeadwayError<ReportErrorCode> {
  override readonly name: string = 'ReportError';
}
