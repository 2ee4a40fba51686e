import { HeadwayError } from '@headway/protocol';

/** Codes an {@link AiSdkError} can carry. */
export type AiSdkErrorCode =
  /** `withHeadway` was given options it cannot use; the message names every offending field. */
  | 'AI_SDK_INVALID_OPTIONS'
  /** The time budget's hard stop: the abort reason of `settings.abortSignal`. */
  | 'AI_SDK_HARD_STOP'
  /**
   * `costOf` returned something that is not a finite number >= 0, or threw (passed to
   * `onInternalError`): the step's cost is unknown, left out of the spend and counted as unpriced.
   */
  | 'AI_SDK_INVALID_COST'
  /**
   * A step reported no usable token counts (missing, NaN, negative, fractional): its cost is
   * unknown (passed to `onInternalError`), left out of the spend and counted as unpriced.
   */
  | 'AI_SDK_UNKNOWN_USAGE'
  /** The installed `ai` is a major this package is not tested with; the message names the supported range. */
  | 'AI_SDK_UNSUPPORTED_VERSION';

/**
 * Thrown by `withHeadway` for options it cannot use (`AI_SDK_INVALID_OPTIONS`; the message
 * names every offending field), and the abort reason of `settings.abortSignal` at the hard
 * time stop (`AI_SDK_HARD_STOP`), which the AI SDK call then rejects with. `withHeadway` also
 * throws `AI_SDK_UNSUPPORTED_VERSION` when the installed `ai` is not a supported major.
 */
export class AiSdkError extends HeadwayError<AiSdkErrorCode> {
  override readonly name: string = 'AiSdkError';
}
