import { HeadwayError, type ValidationIssue } from '@headway/protocol';

/** Codes a {@link ContextError} can carry. */
export type ContextErrorCode = 'CONTEXT_INVALID_CONFIG' | 'CONTEXT_CORRUPT_STORE' | 'CONTEXT_RATE_LIMIT_ABORTED';

/**
 * Thrown by `@headway/context`: a bad option at construction (`CONTEXT_INVALID_CONFIG`, naming
 * the field), a stored record that does not parse (`CONTEXT_CORRUPT_STORE`, reported through
 * `onInternalError` and treated as empty), or a rate-limit wait ended by the run's signal.
 */
export class ContextError extends HeadwayError {
  declare readonly code: ContextErrorCode;

  constructor(code: ContextErrorCode, message: string, options: { issues?: readonly ValidationIssue[]; cause?: unknown } = {}) {
    super(code, message, { ...(options.cause === undefined ? {} : { cause: options.cause }), issues: options.issues ?? [] });
    this.name = 'ContextError';
  }
}
