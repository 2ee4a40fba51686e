import { HeadwayError, type HeadwayErrorOptions } from '@headway/protocol';

/** Codes a {@link JSONReporterError} can carry. */
export type JSONReporterErrorCode = 'REPORTER_JSON_INVALID_OPTIONS' | 'REPORTER_JSON_WRITE_FAILED' | 'REPORTER_JSON_STREAM_CLOSED';

/**
 * Raised for bad constructor options (thrown), and passed — never thrown — to
 * `onInternalError` when the consumer goes away: `REPORTER_JSON_WRITE_FAILED` when the stream
 * errored or `write()` threw (the original error, e.g. `EPIPE`, is the `cause`),
 * `REPORTER_JSON_STREAM_CLOSED` when it was closed, ended or destroyed without an error.
 */
export class JSONReporterError extends HeadwayError {
  declare readonly code: JSONReporterErrorCode;

  constructor(code: JSONReporterErrorCode, message: string, options?: HeadwayErrorOptions) {
    super(code, message, options);
    this.name = 'JSONReporterError';
  }
}
