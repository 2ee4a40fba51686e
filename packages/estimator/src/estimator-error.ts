import { HeadwayError, type HeadwayErrorOptions, type ValidationIssue } from '@headway/protocol';
import { describeThrown, toErrorOptions } from '@headway/protocol/internal';

/**
 * Codes an {@link EstimatorError} can carry: invalid input from outside the program (an
 * agent.json, a WORKFLOW.md, a saved tracker state) or an invalid argument (a weight, a
 * range, a tracker option).
 */
export type EstimatorErrorCode =
  'ESTIMATOR_INVALID_CONFIG' | 'ESTIMATOR_INVALID_WORKFLOW' | 'ESTIMATOR_INVALID_STATE' | 'ESTIMATOR_INVALID_ARGUMENT';

/**
 * Thrown when estimator input is invalid; the message names the file or line, or the
 * argument, and the path.
 */
export class EstimatorError extends HeadwayError {
  declare readonly code: EstimatorErrorCode;

  constructor(code: EstimatorErrorCode, message: string, options?: HeadwayErrorOptions);
  /** @deprecated pass `{ issues, cause }` as the third argument: `new EstimatorError(code, message, { issues })`. */
  constructor(code: EstimatorErrorCode, message: string, issues: readonly ValidationIssue[], options?: ErrorOptions);
  constructor(
    code: EstimatorErrorCode,
    message: string,
    issuesOrOptions?: readonly ValidationIssue[] | HeadwayErrorOptions,
    options?: ErrorOptions,
  ) {
    super(code, message, toErrorOptions(issuesOrOptions, options));
    this.name = 'EstimatorError';
  }
}

/** A value as an error message shows it: numbers exactly, anything else safely and briefly. */
export function shown(value: unknown): string {
  return typeof value === 'number' ? String(value) : describeThrown(value, 80);
}

/** An `ESTIMATOR_INVALID_ARGUMENT` error: `path` (`computeStepRanges: steps[1].weight`) then `message` (`is 0; expected …`). */
export function invalidArgument(path: string, message: string): EstimatorError {
  return new EstimatorError('ESTIMATOR_INVALID_ARGUMENT', `${path} ${message}`, { issues: [{ path, message }] });
}
