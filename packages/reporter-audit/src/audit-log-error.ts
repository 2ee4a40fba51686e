import { HeadwayError, type ValidationIssue } from '@headway/protocol';

/** Codes an {@link AuditLogError} can carry. */
export type AuditLogErrorCode = 'AUDIT_INVALID_LINE' | 'AUDIT_INVALID_ROW';

/**
 * A stored audit event could not be read back: a JSON line that is not an audit event
 * (`file:line`) or a SQLite row that is not one (`file#rowid`).
 */
export class AuditLogError extends HeadwayError {
  declare readonly code: AuditLogErrorCode;
  /** Where the bad record is: `path/to/audit.jsonl:12` or `path/to/audit.db#7`. */
  readonly location: string;

  constructor(code: AuditLogErrorCode, location: string, message: string, issues: readonly ValidationIssue[] = [], options?: ErrorOptions) {
    super(code, message, { ...options, issues });
    this.name = 'AuditLogError';
    this.location = location;
  }
}
