import { HeadwayError, type ValidationIssue } from '@headway/protocol';

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

  constructor(code: AuditErrorCode, message: string, issues: readonly ValidationIssue[] = [], options?: ErrorOptions) {
    super(code, message, { ...options, issues });
    this.name = 'AuditError';
  }
}
