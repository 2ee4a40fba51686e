import { HeadwayError, type HeadwayErrorOptions } from '@headway/protocol';

/** Codes a {@link RedisError} can carry. */
export type RedisErrorCode =
  /** An option is out of range (a negative bound, a URL that does not parse). */
  | 'REDIS_INVALID_OPTIONS'
  /** Redis could not be reached when connecting; the message names the URL, never its password. */
  | 'REDIS_UNREACHABLE'
  /** A run id has characters that would let its keys escape the configured prefix. */
  | 'REDIS_INVALID_RUN_ID'
  /** An entry of a run's stream is not a valid event of that run (another writer, a partial write). */
  | 'REDIS_INVALID_ENTRY'
  /** The sink's queue was full: the event was not written (counted in `stats().dropped`). */
  | 'REDIS_QUEUE_FULL'
  /** An event's JSON was over the sink's `maxEventBytes`: its long strings were cut, or (not terminal) it was not written. */
  | 'REDIS_EVENT_TOO_LARGE'
  /** Redis refused a write for good (not a duplicate, not a connection failure): the event was not written. */
  | 'REDIS_WRITE_FAILED'
  /** Reading from Redis failed; the reader retries. */
  | 'REDIS_READ_FAILED';

/** Options of a {@link RedisError}: the standard ones plus where it happened. */
export interface RedisErrorOptions extends HeadwayErrorOptions {
  runId?: string;
  /** The stream entry id involved, when there is one. */
  entryId?: string;
}

/**
 * Thrown by `@headway/redis`, or passed to its `onInvalid` / `onInternalError` callbacks.
 * Recognise it with `HeadwayError.isInstance(error, 'REDIS_…')`.
 */
export class RedisError extends HeadwayError<RedisErrorCode, RedisErrorOptions> {
  override readonly name: string = 'RedisError';
  /** The run concerned, when there is one. */
  declare readonly runId: string | undefined;
  /** The stream entry id concerned, when there is one. */
  declare readonly entryId: string | undefined;
}
