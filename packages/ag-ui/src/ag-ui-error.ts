import { HeadwayError } from '@headway/protocol';

/** Codes an {@link AgUiError} can carry; the endpoint answers with the same `code` in its JSON error bodies. */
export type AgUiErrorCode =
  /** An option of the endpoint is out of range. */
  | 'AG_UI_INVALID_OPTIONS'
  /** The request body is not JSON. */
  | 'AG_UI_INVALID_JSON'
  /** The request body is not a valid AG-UI `RunAgentInput` (see `issues`), or a reattach request is malformed. */
  | 'AG_UI_INVALID_INPUT'
  /** A POST whose `content-type` is not JSON (a form, multipart, text/plain, or none). */
  | 'AG_UI_UNSUPPORTED_MEDIA_TYPE'
  /** The request body is larger than `maxBodyBytes`. */
  | 'AG_UI_BODY_TOO_LARGE'
  /** A reattach request names a run this endpoint does not know (never seen, or forgotten). */
  | 'AG_UI_UNKNOWN_RUN'
  /** A new run was asked for with the id of a run that exists. */
  | 'AG_UI_RUN_EXISTS'
  /** A reattach request's `lastSeq` is past the run's last event. */
  | 'AG_UI_LAST_SEQ_AHEAD'
  /** The replay log no longer holds the start of the run, so no consistent snapshot can be built. */
  | 'AG_UI_EVENTS_EXPIRED'
  /** The request method is not POST (or GET for a reattach). */
  | 'AG_UI_METHOD_NOT_ALLOWED'
  /** The abort reason of a run's signal when `cancel(runId, reason?)` stopped it; the message is the reason. */
  | 'AG_UI_RUN_CANCELLED'
  /** The abort reason of a run's signal when its last client disconnected (after `disconnectGraceMs`). */
  | 'AG_UI_CLIENTS_GONE'
  /** A client's response stream was ended because it fell too far behind (too much unsent data). */
  | 'AG_UI_CLIENT_TOO_SLOW';

/** Raised by `@headway/ag-ui` for bad options and bad requests; `issues` says what and where. */
export class AgUiError extends HeadwayError<AgUiErrorCode> {
  override readonly name: string = 'AgUiError';
}
