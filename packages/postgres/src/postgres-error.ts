import { HeadwayError, type HeadwayErrorOptions } from '@headway/protocol';

/** Codes a {@link PostgresError} can carry. */
export type PostgresErrorCode =
  /** The server could not be reached or refused the login (wrong host, port, database, user or password). */
  | 'POSTGRES_CONNECT_FAILED'
  /** The connection dropped while a write was committing: whether it committed is unknown, so it is not retried. */
  | 'POSTGRES_CONNECTION_LOST'
  /** The database was migrated by a newer version of this package: nothing was written. */
  | 'POSTGRES_SCHEMA_NEWER';

/** Options of {@link PostgresError}. */
export interface PostgresErrorOptions extends HeadwayErrorOptions {
  /** The server as `host:port/database`, never with a password. */
  host?: string;
}

/**
 * Thrown by the Postgres stores for failures of the database itself (connecting, a dropped
 * connection, a schema from the future). Invalid or damaged checkpoints are `CheckpointError`s,
 * as with every store. Messages name the server but never the password.
 */
export class PostgresError extends HeadwayError<PostgresErrorCode, PostgresErrorOptions> {
  override readonly name: string = 'PostgresError';
  /** The server as `host:port/database`, when known. */
  declare readonly host: string | undefined;
}
