import { HeadwayError } from './headway-error.js';

/** Codes a {@link ProtocolError} can carry. */
export type ProtocolErrorCode =
  /** An event is not a valid `ProgressEvent`; the message names the offending path. */
  | 'PROTOCOL_INVALID_EVENT'
  /** Input to read is larger than its cap; the message states the cap. */
  | 'PROTOCOL_INPUT_TOO_LARGE'
  /** An event was emitted after its run's terminal event. */
  | 'PROTOCOL_RUN_ENDED'
  /** `hub.add` was given something that is not a sink function, a `handle` object or a ProgressReporter. */
  | 'PROTOCOL_INVALID_SINK'
  /** A redaction path (`redact`, `createRedactor`, the reporters' `redact` option) cannot be parsed. */
  | 'REDACT_INVALID_PATH';

/**
 * Thrown when an event is invalid (its message names the offending path), is too large to
 * read (the message states the cap), or is emitted after its run has ended; when a hub is
 * given something that is not a sink; when a redaction path cannot be parsed.
 */
export class ProtocolError extends HeadwayError<ProtocolErrorCode> {
  override readonly name: string = 'ProtocolError';
}
