import { HeadwayError, type HeadwayErrorOptions, type ValidationIssue } from '@headway/protocol';
import { toErrorOptions } from '@headway/protocol/internal';

/** Codes an {@link AuditError} can carry. */
export type AuditErrorCode =
  | 'AUDIT_INVALID_OPTIONS'
  | 'AUDIT_INVALID_EVENT'
  | 'AUDIT_INVALID_QUERY'
  | 'AUDIT_BUS_CLOSED'
  | 'AUDIT_SUBSCRIBER_FAILED'
  | 'AUDIT_EVENTS_DROPPED';

/**
 * Thrown for invalid options, events or queries, and for use of a closed bus. Inside an
 * {@link AuditReporter} these never reach the caller: they are counted and passed to
 * `onInternalError`.
 */
export class AuditError extends HeadwayError {
  declare readonly code: AuditErrorCode;

  constructor(code: AuditErrorCode, message: string, options?: HeadwayErrorOptions);
  /** @deprecated pass `{ issues, cause }` as the third argument: `new AuditError(code, message, { issues })`. */
  constructor(code: AuditErrorCode, message: string, issues: readonly ValidationIssue[], options?: ErrorOptions);
  constructor(
    code: AuditErrorCode,
    message: string,
    issuesOrOptions?: readonly ValidationIssue[] | HeadwayErrorOptions,
    options?: ErrorOptions,
  ) {
    super(code, message, toErrorOptions(issuesOrOptions, options));
    this.name = 'AuditError';
  }
}
