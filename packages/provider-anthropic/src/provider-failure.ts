import { APIConnectionError, APIError, AnthropicError } from '@anthropic-ai/sdk';
import { describeThrown } from '@headway/protocol/internal';
import { ProviderError, isAbortError, isRetryable } from '@headway/runtime';
import { isRetryableStatus, retryAfterMs } from '@headway/runtime/provider-kit';
import { clip, isRetryableErrorType } from './wire-mapping.js';

/** True for an abort of the caller's signal, which is passed on as it is (never retried). */
function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || isAbortError(error);
}

/**
 * An SDK failure as a {@link @headway/runtime!ProviderError}: HTTP errors carry the status, the API's error
 * type and message, the request id and `retry-after`; 408, 409, 429, 5xx and 529 (overloaded)
 * are retryable unless the server's `x-should-retry` says otherwise; other 4xx are not. An
 * abort is returned as it is. `where` says how far a stream had got; `now` is what an HTTP-date
 * `retry-after` is measured against.
 */
export function toProviderError(
  error: unknown,
  provider: string,
  signal: AbortSignal | undefined,
  where: string | undefined,
  now: number,
): unknown {
  if (isAbort(error, signal)) return signal?.aborted === true ? (signal.reason as unknown) : error;
  if (ProviderError.isInstance(error)) return error;
  const at = where === undefined ? '' : ` ${where}`;
  if (error instanceof APIConnectionError) {
    return new ProviderError('PROVIDER_REQUEST_FAILED', `Provider "${provider}" could not be reached${at}: ${clip(error.message, 500)}`, {
      provider,
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof APIError) {
    // instanceof leaves the class's generics as any: read the fields as what they are.
    const status: unknown = error.status;
    const headers: unknown = error.headers;
    const type = error.type ?? 'error';
    const detail = `${type}: ${clip(error.apiMessage ?? error.message, 500)}${typeof error.requestID === 'string' ? ` (request-id ${clip(error.requestID, 100)})` : ''}`;
    const h = headers instanceof Headers ? headers : undefined;
    const after = retryAfterMs(h, now);
    const shouldRetry = h?.get('x-should-retry');
    if (typeof status === 'number') {
      const retryable = shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : isRetryableStatus(status);
      return new ProviderError('PROVIDER_REQUEST_FAILED', `Provider "${provider}" answered HTTP ${status}${at}: ${detail}`, {
        provider,
        status,
        retryable,
        cause: error,
        ...(after === undefined ? {} : { retryAfterMs: after }),
      });
    }
    // No status: an `error` event in a stream that had started.
    return new ProviderError('PROVIDER_REQUEST_FAILED', `Provider "${provider}" sent an error event${at}: ${detail}`, {
      provider,
      retryable: isRetryableErrorType(type),
      cause: error,
    });
  }
  if (error instanceof SyntaxError) {
    return new ProviderError(
      'PROVIDER_INVALID_RESPONSE',
      `Provider "${provider}" answered with a broken stream: an event's data is not JSON${at}: ${clip(error.message, 200)}`,
      {
        provider,
        retryable: true,
        cause: error,
      },
    );
  }
  if (error instanceof AnthropicError) {
    return new ProviderError('PROVIDER_REQUEST_FAILED', `Provider "${provider}" failed${at}: ${clip(error.message, 500)}`, {
      provider,
      retryable: false,
      cause: error,
    });
  }
  // The connection dropped mid-body (undici's "terminated"), or something else the SDK let through.
  return new ProviderError('PROVIDER_REQUEST_FAILED', `Provider "${provider}" failed${at}: ${describeThrown(error, 500)}`, {
    provider,
    retryable: isRetryable(error) || (error instanceof TypeError && /terminated|socket|other side closed/i.test(error.message)),
    cause: error,
  });
}
