import { HeadwayError } from './headway-error.js';

/** Codes a {@link ProtocolError} can carry. */
export type ProtocolErrorCode = 'PROTOCOL_INVALID_EVENT' | 'PROTOCOL_RUN_ENDED';

/** One problem found while validating input: where it is and what is wrong. */
export interface ValidationIssue {
  /** Dotted path into the input, e.g. `report.stats.iterations` or `args[0]`; empty for the root. */
  readonly path: string;
  readonly message: string;
}

/**
 * Thrown when an event is invalid (its message names the offending path) or is emitted
 * after its run has ended.
 */
export class ProtocolError extends HeadwayError {
  declare readonly code: ProtocolErrorCode;
  /** Every problem found, in input order; empty for `PROTOCOL_RUN_ENDED`. */
  readonly issues: readonly ValidationIssue[];

  constructor(code: ProtocolErrorCode, message: string, issues: readonly ValidationIssue[] = [], options?: ErrorOptions) {
    super(code, message, options);
    this.name = 'ProtocolError';
    this.issues = issues;
  }
}
