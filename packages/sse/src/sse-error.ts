// The zod-free subpath: the browser client bundles this file.
import { HeadwayError } from '@headway/protocol/validate-lite';
import type { HeadwayErrorOptions } from '@headway/protocol';

/** Codes an {@link SseError} can carry. */
export type SseErrorCode =
  /** An option of a handler, log, sink or client is out of range. */
  | 'SSE_INVALID_OPTIONS'
  /** A frame field cannot be written (an `id` or `event` containing a line break or NUL). */
  | 'SSE_INVALID_FRAME'
  /** The server answered a subscription with a status that is not worth retrying. */
  | 'SSE_HTTP_STATUS'
  /** The connection failed and could not be re-established within the retry budget. */
  | 'SSE_CONNECTION_FAILED'
  /** The server sent more than `maxEventLength` characters without completing an event. */
  | 'SSE_FRAME_TOO_LARGE'
  /** A client's response stream was ended: too much unsent data, or its events were evicted from the replay log. */
  | 'SSE_CLIENT_TOO_SLOW';

/** Options of an {@link SseError}: the standard ones plus the HTTP status. */
export interface SseErrorOptions extends HeadwayErrorOptions {
  /** The HTTP status the server answered with. */
  status?: number;
}

/**
 * Thrown (or rejected with) by `@headway/sse`; `status` carries the HTTP status for
 * `SSE_HTTP_STATUS`.
 */
export class SseError extends HeadwayError<SseErrorCode, SseErrorOptions> {
  override readonly name: string = 'SseError';
  /** The HTTP status the server answered with, when there was one. */
  declare readonly status: number | undefined;
}
