import { HeadwayError, type ValidationIssue } from '@headway/protocol';

/** Codes a {@link ReportError} can carry. */
export type ReportErrorCode = 'REPORT_INVALID_LOG_STATE' | 'REPORT_INVALID_OPTIONS';

/**
 * Issues a {@link ReportError} lists at most (20); past that, one last issue says how many
 * more there were, so a hostile saved log cannot make an error message of megabytes.
 */
export const MAX_REPORTED_ISSUES = 20;

/** The first {@link MAX_REPORTED_ISSUES} issues, and one that counts the rest. */
export function limitIssues(issues: readonly ValidationIssue[]): ValidationIssue[] {
  if (issues.length <= MAX_REPORTED_ISSUES) return [...issues];
  const more = issues.length - MAX_REPORTED_ISSUES;
  return [...issues.slice(0, MAX_REPORTED_ISSUES), { path: '', message: `and ${more} more issue${more === 1 ? '' : 's'}` }];
}

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
