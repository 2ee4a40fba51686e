import { HeadwayError, type HeadwayErrorOptions } from '@headway/protocol';

/** Codes a {@link ProviderError} can carry. */
export type ProviderErrorCode =
  /** No provider in the registry is available (disabled, missing API key). */
  | 'PROVIDER_UNAVAILABLE'
  /** `switchProvider` named a provider the registry does not know. */
  | 'PROVIDER_UNKNOWN'
  /** The circuit breaker is open: too many consecutive failures, cooling down. */
  | 'PROVIDER_CIRCUIT_OPEN'
  /** The request failed (after retries when it was retryable). */
  | 'PROVIDER_REQUEST_FAILED'
  /** The provider answered with something that is not a valid completion. */
  | 'PROVIDER_INVALID_RESPONSE'
  /** The call took longer than the provider's `timeoutMs`, headers and body together (a stalled answer). */
  | 'PROVIDER_TIMEOUT';

/** Details of a {@link ProviderError}. */
export interface ProviderErrorOptions extends HeadwayErrorOptions {
  /** Registry name of the provider. */
  provider?: string;
  /** HTTP status, when the failure came from an HTTP response. */
  status?: number;
  /** Whether trying again may succeed (429, 5xx, network errors). */
  retryable?: boolean;
  /** How long the server asked us to wait (`retry-after`), in ms. */
  retryAfterMs?: number;
  /** How many attempts were made before giving up. */
  attempts?: number;
}

/**
 * A model provider failed or none is available. `retryable` tells the registry whether to
 * try again; `retryAfterMs` carries the server's `retry-after`.
 */
export class ProviderError extends HeadwayError<ProviderErrorCode, ProviderErrorOptions> {
  override readonly name: string = 'ProviderError';
  /** Registry name of the provider, when known. */
  declare readonly provider: string | undefined;
  /** HTTP status, when the failure came from an HTTP response. */
  declare readonly status: number | undefined;
  /** Whether trying again may succeed; `false` unless the options say so. */
  declare readonly retryable: boolean;
  /** How long the server asked us to wait (`retry-after`), in ms. */
  declare readonly retryAfterMs: number | undefined;
  /** How many attempts were made before giving up. */
  declare readonly attempts: number | undefined;

  constructor(code: ProviderErrorCode, message: string, options: ProviderErrorOptions = {}) {
    super(code, message, { ...options, retryable: options.retryable ?? false });
  }
}
