import { HeadwayError } from '@headway/protocol';

/** Codes an {@link OpenAIAgentsError} can carry. */
export type OpenAIAgentsErrorCode =
  /** `withHeadway` was given options it cannot use; the message names every offending field. */
  | 'OPENAI_AGENTS_INVALID_OPTIONS'
  /** The time budget's hard stop: the abort reason the SDK's run rejects with. */
  | 'OPENAI_AGENTS_HARD_STOP'
  /** A limit was reached between turns: thrown into the SDK's loop to stop it, caught by the bridge, never by you. */
  | 'OPENAI_AGENTS_LIMIT_STOP'
  /** `costOf` returned something that is not a finite number >= 0 (passed to `onInternalError`; the call counts as unpriced). */
  | 'OPENAI_AGENTS_INVALID_COST';

/**
 * Thrown by `withHeadway` for options it cannot use (`OPENAI_AGENTS_INVALID_OPTIONS`), the abort
 * reason at the hard time stop (`OPENAI_AGENTS_HARD_STOP`), and what `onInternalError` gets for a
 * bad `costOf` answer (`OPENAI_AGENTS_INVALID_COST`).
 */
export class OpenAIAgentsError extends HeadwayError<OpenAIAgentsErrorCode> {
  override readonly name: string = 'OpenAIAgentsError';
}
