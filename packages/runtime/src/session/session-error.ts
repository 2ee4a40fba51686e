import { HeadwayError, type HeadwayErrorOptions, type ValidationIssue } from '@headway/protocol';
import { toErrorOptions } from '@headway/protocol/internal';

/** Codes a {@link SessionError} can carry. */
export type SessionErrorCode =
  /** No session with that id. */
  | 'SESSION_NOT_FOUND'
  /** A session with that id exists already. */
  | 'SESSION_EXISTS'
  /** What was given to write is invalid (not plain JSON, a bad field); nothing was written. */
  | 'SESSION_INVALID'
  /** What was read back is not a valid session. */
  | 'SESSION_CORRUPT';

/** Thrown by session stores; the message names the session and, for bad data, the path. */
export class SessionError extends HeadwayError {
  declare readonly code: SessionErrorCode;

  constructor(code: SessionErrorCode, message: string, options?: HeadwayErrorOptions);
  /** @deprecated pass `{ issues, cause }` as the third argument: `new SessionError(code, message, { issues })`. */
  constructor(code: SessionErrorCode, message: string, issues: readonly ValidationIssue[], options?: ErrorOptions);
  constructor(
    code: SessionErrorCode,
    message: string,
    issuesOrOptions?: readonly ValidationIssue[] | HeadwayErrorOptions,
    options?: ErrorOptions,
  ) {
    super(code, message, toErrorOptions(issuesOrOptions, options));
    this.name = 'SessionError';
  }
}
