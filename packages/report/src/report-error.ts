import { HeadwayError, type ValidationIssue } from '@headway/protocol';

/** Codes a {@link ReportError} can carry. */
export type ReportErrorCode = 'REPORT_INVALID_LOG_STATE' | 'REPORT_INVALID_OPTIONS';

/**
 * Thrown when a saved tool-call log (from a checkpoint) is invalid, or when a
 * {@link ToolCallLog} is given impossible options; the message names every offending path.
 */
export class ReportError extends HeadwayError {
  declare readonly code: ReportErrorCode;

  constructor(code: ReportErrorCode, message: string, issues: readonly ValidationIssue[] = [], options?: ErrorOptions) {
    super(code, message, { ...options, issues });
    this.name = 'ReportError';
  }
}
