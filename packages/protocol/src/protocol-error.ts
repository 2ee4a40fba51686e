import { HeadwayError, toErrorOptions, type HeadwayErrorOptions, type ValidationIssue } from './headway-error.js';

/** Codes a {@link ProtocolError} can carry. */
export type ProtocolErrorCode =
  | 'PROTOCOL_INVALID_EVENT'
  | 'PROTOCOL_INPUT_TOO_LARGE'
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
export class ProtocolError extends HeadwayError {
  declare readonly code: ProtocolErrorCode;

  constructor(code: ProtocolErrorCode, message: string, options?: HeadwayErrorOptions);
  /** @deprecated pass `{ issues, cause }` as the third argument: `new ProtocolError(code, message, { issues })`. */
  constructor(code: ProtocolErrorCode, message: string, issues: readonly ValidationIssue[], options?: ErrorOptions);
  constructor(
    code: ProtocolErrorCode,
    message: string,
    issuesOrOptions?: readonly ValidationIssue[] | HeadwayErrorOptions,
    options?: ErrorOptions,
  ) {
    super(code, message, toErrorOptions(issuesOrOptions, options));
    this.name = 'ProtocolError';
  }
}
