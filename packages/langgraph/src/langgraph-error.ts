import { HeadwayError } from '@headway/protocol';

/** Codes a {@link LangGraphError} can carry. */
export type LangGraphErrorCode =
  /** `withHeadway` was given options it cannot use; the message names every offending field. */
  | 'LANGGRAPH_INVALID_OPTIONS'
  /** The time budget's hard stop: the abort reason the graph's stream ends with. */
  | 'LANGGRAPH_HARD_STOP'
  /** `costOf` returned something that is not a finite number >= 0 (passed to `onInternalError`; the call counts as unpriced). */
  | 'LANGGRAPH_INVALID_COST';

/**
 * Thrown by `withHeadway` for options it cannot use (`LANGGRAPH_INVALID_OPTIONS`), the abort
 * reason at the hard time stop (`LANGGRAPH_HARD_STOP`), and what `onInternalError` gets for a
 * bad `costOf` answer (`LANGGRAPH_INVALID_COST`).
 */
export class LangGraphError extends HeadwayError<LangGraphErrorCode> {
  override readonly name: string = 'LangGraphError';
}
