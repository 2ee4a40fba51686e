import { HeadwayError } from '@headway/protocol';

/** Codes a {@link CostError} can carry. */
export type CostErrorCode =
  /** A price given for a model is invalid (negative, not a number). */
  | 'COST_INVALID_PRICE'
  /** A budget or a tracker option is invalid. */
  | 'COST_INVALID_OPTIONS'
  /** A usage to record is invalid (negative or fractional token counts). */
  | 'COST_INVALID_USAGE'
  /**
   * A model was called that has no price while a cost limit is set: its calls are not counted
   * against the limit (what they cost is unknown). Told once per run and model, to `onInternalError`.
   */
  | 'COST_UNPRICED_MODEL';

/** Thrown by the price table and the cost tracker; the message names the bad field. */
export class CostError extends HeadwayError<CostErrorCode> {
  override readonly name: string = 'CostError';
}
