import { HeadwayError } from '@headway/protocol';

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
export class SessionError extends HeadwayError<SessionErrorCode> {
  override readonly name: string = 'SessionError';
}
