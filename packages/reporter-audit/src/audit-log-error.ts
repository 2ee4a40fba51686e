import { HeadwayError, type HeadwayErrorOptions } from '@headway/protocol';
import type { AuditErrorCode } from './audit-error.js';

/** Options of an {@link AuditLogError}: where the bad record is, the issues found, the cause. */
export interface AuditLogErrorOptions extends HeadwayErrorOptions {
  /** `path/to/audit.jsonl:12` or `path/to/audit.db#7`. */
  location: string;
}

/** Codes an {@link AuditLogError} can carry. */
export type AuditLogErrorCode =
  /** A line of a JSONL audit log is not an audit event (`location` is `file:line`). */
  | 'AUDIT_INVALID_LINE'
  /** A row of a SQLite or Postgres audit log is not an audit event (`location` is `file#rowid` or `table#id`). */
  | 'AUDIT_INVALID_ROW';

/** Every code an error of `@headway/reporter-audit` can carry: {@link AuditErrorCode} and {@link AuditLogErrorCode}. */
export type ReporterAuditErrorCode = AuditErrorCode | AuditLogErrorCode;

/**
 * A stored audit event could not be read back: a JSON line that is not an audit event
 * (`file:line`) or a SQLite row that is not one (`file#rowid`).
 */
export class AuditLogError extends HeadwayError<AuditLogErrorCode, AuditLogErrorOptions> {
  override readonly name: string = 'AuditLogError';
  /** Where the bad record is: `path/to/audit.jsonl:12` or `path/to/audit.db#7`. */
  declare readonly location: string;

  // Not useless: it makes the options, and so `location`, required.
  // eslint-disable-next-line @typescript-eslint/no-useless-constructor
  constructor(code: AuditLogErrorCode, message: string, options: AuditLogErrorOptions) {
    super(code, message, options);
  }
}
