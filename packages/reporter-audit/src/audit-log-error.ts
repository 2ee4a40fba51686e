import { HeadwayError, type HeadwayErrorOptions, type ValidationIssue } from '@headway/protocol';
import { toErrorOptions } from '@headway/protocol/internal';

/** Options of an {@link AuditLogError}: where the bad record is, the issues found, the cause. */
export interface AuditLogErrorOptions extends HeadwayErrorOptions {
  /** `path/to/audit.jsonl:12` or `path/to/audit.db#7`. */
  location: string;
}

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

  constructor(code: AuditLogErrorCode, message: string, options: AuditLogErrorOptions);
  /** @deprecated pass the location in the options: `new AuditLogError(code, message, { location, issues })`. */
  constructor(code: AuditLogErrorCode, location: string, message: string, issues?: readonly ValidationIssue[], options?: ErrorOptions);
  constructor(
    code: AuditLogErrorCode,
    messageOrLocation: string,
    optionsOrMessage: AuditLogErrorOptions | string,
    issues?: readonly ValidationIssue[],
    options?: ErrorOptions,
  ) {
    if (typeof optionsOrMessage === 'string') {
      super(code, optionsOrMessage, toErrorOptions(issues, options));
      this.location = messageOrLocation;
    } else {
      const { location, ...rest } = optionsOrMessage;
      super(code, messageOrLocation, rest);
      this.location = location;
    }
    this.name = 'AuditLogError';
  }
}
