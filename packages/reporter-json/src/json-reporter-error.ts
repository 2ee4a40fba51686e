import { HeadwayError } from '@headway/protocol';

/** Codes a {@link JSONReporterError} can carry. */
export type JSONReporterErrorCode =
  /** A constructor option is out of range (thrown). */
  | 'REPORTER_JSON_INVALID_OPTIONS'
  /** The stream errored or `write()` threw; `cause` is the original error, e.g. `EPIPE` (passed to `onInternalError`). */
  | 'REPORTER_JSON_WRITE_FAILED'
  /** The stream was closed, ended or destroyed without an error (passed to `onInternalError`). */
  | 'REPORTER_JSON_STREAM_CLOSED';

/**
 * Raised for bad constructor options (thrown), and passed — never thrown — to
 * `onInternalError` when the consumer goes away: `REPORTER_JSON_WRITE_FAILED` when the stream
 * errored or `write()` threw (the original error, e.g. `EPIPE`, is the `cause`),
 * `REPORTER_JSON_STREAM_CLOSED` when it was closed, ended or destroyed without an error.
 */
export class JSONReporterError extends HeadwayError<JSONReporterErrorCode> {
  override readonly name: string = 'JSONReporterError';
}
