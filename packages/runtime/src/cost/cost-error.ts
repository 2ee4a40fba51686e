import { HeadwayError, type HeadwayErrorOptions, type ValidationIssue } from '@headway/protocol';
import { toErrorOptions } from '@headway/protocol/internal';

/** Codes a {@link CostError} can carry. */
export type CostErrorCode =
  /** A price given for a model is invalid (negative, not a number). */
  | 'COST_INVALID_PRICE'
  /** A budget or a tracker option is invalid. */
  | 'COST_INVALID_OPTIONS'
  /** A usage to record is invalid (negative or fractional token counts). */
  | 'COST_INVALID_USAGE';

/** Thrown by the price table and the cost tracker; the message names the bad field. */
export class CostError extends HeadwayError {
  declare readonly code: CostErrorCode;

  constructor(code: CostErrorCode, message: string, options?: HeadwayErrorOptions);
  /** @deprecated pass `{ issues, cause }` as the third argument: `new CostError(code, message, { issues })`. */
  constructor(code: CostErrorCode, message: string, issues: readonly ValidationIssue[], options?: ErrorOptions);
  constructor(
    code: CostErrorCode,
    message: string,
    issuesOrOptions?: readonly ValidationIssue[] | HeadwayErrorOptions,
    options?: ErrorOptions,
  ) {
    super(code, message, toErrorOptions(issuesOrOptions, options));
    this.name = 'CostError';
  }
}
