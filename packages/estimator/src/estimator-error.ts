import { HeadwayError } from '@headway/protocol';
import { describeThrown } from '@headway/protocol/internal';

/**
 * Codes an {@link EstimatorError} can carry: invalid input from outside the program (an
 * agent.json, a WORKFLOW.md, a saved tracker state) or an invalid argument (a weight, a
 * range, a tracker option).
 */
export type EstimatorErrorCode =
  /** An agent.json (`loadProgressConfig`, `parseProgressConfig`) cannot be read or is not a valid progress config. */
  | 'ESTIMATOR_INVALID_CONFIG'
  /** A WORKFLOW.md does not parse; the message names the line. */
  | 'ESTIMATOR_INVALID_WORKFLOW'
  /** A saved progress-tracker state (from a checkpoint) is not valid. */
  | 'ESTIMATOR_INVALID_STATE'
  /** An argument is out of range: a weight, a range, a tracker option; the message names it and its path. */
  | 'ESTIMATOR_INVALID_ARGUMENT';

/**
 * Thrown when estimator input is invalid; the message names the file or line, or the
 * argument, and the path.
 */
export class EstimatorError extends HeadwayError<EstimatorErrorCode> {
  override readonly name: string = 'EstimatorError';
}

/** A value as an error message shows it: numbers exactly, anything else safely and briefly. */
export function shown(value: unknown): string {
  return typeof value === 'number' ? String(value) : describeThrown(value, 80);
}

/** An `ESTIMATOR_INVALID_ARGUMENT` error: `path` (`computeStepRanges: steps[1].weight`) then `message` (`is 0; expected …`). */
export function invalidArgument(path: string, message: string): EstimatorError {
  return new EstimatorError('ESTIMATOR_INVALID_ARGUMENT', `${path} ${message}`, { issues: [{ path, message }] });
}
