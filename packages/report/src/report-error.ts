import { HeadwayError, type HeadwayErrorOptions, type ValidationIssue } from '@headway/protocol';
import { toErrorOptions } from '@headway/protocol/internal';

/** Codes a {@link ReportError} can carry. */
export type ReportErrorCode = 'REPORT_INVALID_LOG_STATE' | 'REPORT_INVALID_OPTIONS';

/**
 * Thrown when a saved tool-call log (from a checkpoint) is invalid, or when a
 * {@link ToolCallLog} is given impossible options; the message names every offending path.
 */
export class ReportError extends HeadwayError {
  declare readonly code: ReportErrorCode;

  constructor(code: ReportErrorCode, message: string, options?: HeadwayErrorOptions);
  /** @deprecated pass `{ issues, cause }` as the third argument: `new ReportError(code, message, { issues })`. */
  constructor(code: ReportErrorCode, message: string, issues: readonly ValidationIssue[], options?: ErrorOptions);
  constructor(
    code: ReportErrorCode,
    message: string,
    issuesOrOptions?: readonly ValidationIssue[] | HeadwayErrorOptions,
    options?: ErrorOptions,
  ) {
    super(code, message, toErrorOptions(issuesOrOptions, options));
    this.name = 'ReportError';
  }
}
