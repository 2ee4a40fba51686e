import { HeadwayError, type ValidationIssue } from '@headway/protocol';

/** Codes an {@link EstimatorError} can carry. */
export type EstimatorErrorCode = 'ESTIMATOR_INVALID_CONFIG' | 'ESTIMATOR_INVALID_WORKFLOW' | 'ESTIMATOR_INVALID_STATE';

/**
 * Thrown when estimator input from outside the program (an agent.json, a WORKFLOW.md, a
 * saved tracker state) is invalid; the message names the file or line and the path.
 */
export class EstimatorError extends HeadwayError {
  declare readonly code: EstimatorErrorCode;

  constructor(code: EstimatorErrorCode, message: string, issues: readonly ValidationIssue[] = [], options?: ErrorOptions) {
    super(code, message, { ...options, issues });
    this.name = 'EstimatorError';
  }
}
