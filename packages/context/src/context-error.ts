import { HeadwayError } from '@headway/protocol';

/** Codes a {@link ContextError} can carry. */
export type ContextErrorCode =
  /** An option given at construction is invalid, or an optional dependency is missing; the message names the field. */
  | 'CONTEXT_INVALID_CONFIG'
  /** A stored record (or what a store returned) is not valid; reported through `onInternalError` and treated as empty. */
  | 'CONTEXT_CORRUPT_STORE';

/**
 * Thrown by `@headway/context`: a bad option at construction (`CONTEXT_INVALID_CONFIG`, naming
 * the field), a stored record that does not parse (`CONTEXT_CORRUPT_STORE`, reported through
 * `onInternalError` and treated as empty). A rate-limit wait ended by the run's signal rejects
 * with the signal's reason, as `AbortSignal` waits do.
 */
export class ContextError extends HeadwayError<ContextErrorCode> {
  override readonly name: string = 'ContextError';
}
