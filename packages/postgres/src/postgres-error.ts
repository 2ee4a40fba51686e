import { HeadwayError, type ValidationIssue } from '@headway/protocol';

/** Codes a {@link PostgresError} can carry. */
export type PostgresErrorCode =
  /** The server could not be reached or refused the login (wrong host, port, database, user or password). */
  | 'POSTGRES_CONNECT_FAILED'
  /** The connection dropped while a write was committing: whether it committed is unknown, so it is not retried. */
  | 'POSTGRES_CONNECTION_LOST'
  /** The database was migrated by a newer version of this package: nothing was written. */
  | 'POSTGRES_SCHEMA_NEWER';

/** Options of {@link PostgresError}. */
export interface PostgresErrorOptions {
  issues?: readonly ValidationIssue[];
  cause?: unknown;
  /** The server as `host:port/database`, never with a password. */
  host?: string;
}

/**
 * Thrown by the Postgres stores for failures of the database itself (connecting, a dropped
 * connection, a schema from the future). Invalid or damaged checkpoints are `CheckpointError`s,
 * as with every store. Messages name the server but never the password.
 */
export class PostgresError extends HeadwayError {
  declare readonly code: PostgresErrorCode;
  /** The server as `host:port/database`, when known. */
  readonly host: string | undefined;

  constructor(code: PostgresErrorCode, message: string, options: PostgresErrorOptions = {}) {
    const { host, ...rest } = options;
    super(code, message, rest);
    this.name = 'PostgresError';
    this.host = host;
  }
}
