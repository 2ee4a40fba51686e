import { HeadwayError } from '@headway/protocol';

/** How a registry retries a failed provider call. */
export interface RetryOptions {
  /** Attempts after the first (default 3). */
  maxRetries?: number;
  /** Delay before the first retry, before jitter (default 500 ms). */
  baseDelayMs?: number;
  /** Largest delay between attempts (default 30 s); a longer `retry-after` is still honoured. */
  maxDelayMs?: number;
}

/** {@link RetryOptions} with defaults filled in. */
export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Fills in {@link RetryOptions} defaults. */
export function createRetryPolicy(options: RetryOptions = {}): RetryPolicy {
  return {
    maxRetries: Math.max(0, Math.floor(options.maxRetries ?? 3)),
    baseDelayMs: Math.max(0, options.baseDelayMs ?? 500),
    maxDelayMs: Math.max(0, options.maxDelayMs ?? 30_000),
  };
}

/**
 * Delay before retry number `attempt` (0 for the first retry): exponential backoff with
 * "equal jitter" (half fixed, half random) so clients that failed together do not retry
 * together, never shorter than the server's `retry-after`.
 */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number, retryAfterMs?: number): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  const jittered = cap / 2 + (cap / 2) * Math.min(1, Math.max(0, random()));
  return Math.round(Math.max(jittered, retryAfterMs ?? 0));
}

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** True for an abort (the caller's signal), which is never retried nor counted as a failure. */
export function isAbortError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  try {
    const name = (error as { name?: unknown }).name;
    return name === 'AbortError' || name === 'APIUserAbortError';
  } catch {
    // A thrown value is untrusted: a getter that throws or a revoked proxy is not an abort.
    return false;
  }
}

/**
 * Whether a failed call may succeed if tried again: 408, 409, 429 and 5xx responses and
 * network errors are; aborts, other 4xx and programming errors are not.
 */
export function isRetryable(error: unknown): boolean {
  try {
    return retryableUnsafe(error);
  } catch {
    // A thrown value is untrusted: one that cannot be read is not worth retrying.
    return false;
  }
}

function retryableUnsafe(error: unknown): boolean {
  if (isAbortError(error)) return false;
  if (HeadwayError.isInstance(error)) return (error as { retryable?: unknown }).retryable === true;
  if (typeof error !== 'object' || error === null) return false;
  const { status, code, cause } = error as { status?: unknown; code?: unknown; cause?: unknown };
  if (typeof status === 'number') return isRetryableStatus(status);
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  if (error instanceof TypeError && /fetch failed|network/i.test(error.message)) return true;
  return cause !== undefined && cause !== error && isRetryable(cause);
}

/** Whether an HTTP answer with this status may succeed if tried again: 408, 409, 429 and 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * How long the server asked to wait, in ms: `retry-after-ms`, else `retry-after` (whole or
 * decimal seconds, or an HTTP date, counted from `now`, the injected `Clock`'s `now()`);
 * `undefined` when neither says.
 */
export function retryAfterMs(headers: Headers | undefined, now: number): number | undefined {
  if (headers === undefined) return undefined;
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value.trim());
  if (value.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
