import { HeadwayError } from '@headway/protocol';

/** Codes a {@link LangGraphError} can carry. */
export type LangGraphErrorCode =
  /** `withHeadway` was given options it cannot use; the message names every offending field. */
  | 'LANGGRAPH_INVALID_OPTIONS'
  /** The time budget's hard stop: the abort reason the graph's stream ends with. */
  | 'LANGGRAPH_HARD_STOP'
  /** `costOf` returned something that is not a finite number >= 0 (passed to `onInternalError`; the call counts as unpriced). */
  | 'LANGGRAPH_INVALID_COST'
  /** A part LangGraph forwarded (a node run, an update) could not be read (passed to `onInternalError`; the part is skipped). */
  | 'LANGGRAPH_BAD_PART'
  /** The graph ran but forwarded no node runs: a LangGraph version the bridge cannot read (passed to `onInternalError`). */
  | 'LANGGRAPH_NO_EVENTS'
  /** The caller's `control` threw when asked to stop the graph at a limit (passed to `onInternalError`; the graph runs on, the report follows). */
  | 'LANGGRAPH_NO_DRAIN';

/**
 * Thrown by `withHeadway` for options it cannot use (`LANGGRAPH_INVALID_OPTIONS`), the abort
 * reason at the hard time stop (`LANGGRAPH_HARD_STOP`), and what `onInternalError` gets for a
 * bad `costOf` answer (`LANGGRAPH_INVALID_COST`), an unreadable part of the graph's stream
 * (`LANGGRAPH_BAD_PART`), a graph that forwarded nothing (`LANGGRAPH_NO_EVENTS`) or a `control`
 * that would not drain (`LANGGRAPH_NO_DRAIN`).
 */
export class LangGraphError extends HeadwayError<LangGraphErrorCode> {
  override readonly name: string = 'LangGraphError';
}
