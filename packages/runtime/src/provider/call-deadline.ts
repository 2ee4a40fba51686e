import type { Clock } from '@headway/protocol';
import { ProviderError } from './provider-error.js';

/** One vendor call's time limit: see {@link createCallDeadline}. */
export interface CallDeadline {
  /** Aborts when the caller's signal aborts or the time is up: pass it to the SDK and to every body read. */
  readonly signal: AbortSignal;
  /** True once the time was up (the abort was the deadline's, not the caller's). */
  timedOut(): boolean;
  /** The `PROVIDER_TIMEOUT` error to reject with once {@link CallDeadline.timedOut}. */
  error(): ProviderError;
  /** Stops the timer and lets go of the caller's signal; call it when the call ends, however it ends. */
  clear(): void;
}

/**
 * A time limit over a whole vendor call, headers and body together. SDK timeouts stop at the
 * response headers, so a server that sends headers and then stalls would hang `complete()` and
 * `stream()` forever; this signal keeps running until {@link CallDeadline.clear}. The timer is
 * the injected `clock`'s.
 *
 * @example
 * ```ts
 * const deadline = createCallDeadline('openai', 60_000, clock, options.signal);
 * try { return await readAnswer(await sdk.create(params, { signal: deadline.signal })); }
 * catch (error) { throw deadline.timedOut() ? deadline.error() : error; }
 * finally { deadline.clear(); }
 * ```
 */
export function createCallDeadline(provider: string, timeoutMs: number, clock: Clock, signal?: AbortSignal): CallDeadline {
  const controller = new AbortController();
  let timed = false;
  const error = (): ProviderError =>
    new ProviderError('PROVIDER_TIMEOUT', `Provider "${provider}" did not finish answering within ${String(timeoutMs)} ms`, {
      provider,
      retryable: true,
    });
  const timer = clock.setTimeout(() => {
    timed = true;
    controller.abort(error());
  }, timeoutMs);
  const follow = (): void => {
    controller.abort(signal?.reason);
  };
  if (signal?.aborted === true) follow();
  else signal?.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timed,
    error,
    clear() {
      clock.clearTimeout(timer);
      signal?.removeEventListener('abort', follow);
    },
  };
}

/** The vendor SDKs' own default timeout (OpenAI and Anthropic alike): 10 minutes. */
const SDK_DEFAULT_TIMEOUT_MS = 600_000;

/**
 * The `timeout` to give a vendor SDK whose calls run under a {@link createCallDeadline}. The
 * deadline, on the provider's clock, is the call's limit; the SDK's timer runs on real time and
 * is only a backstop, never below the SDK's 10-minute default, so it cannot end a call first (a
 * short `timeoutMs` on a busy machine, or a test's `ManualClock`) and cannot cut a call that
 * `timeoutMs` allows to run longer than 10 minutes.
 *
 * @example
 * ```ts
 * new OpenAI({ apiKey, maxRetries: 0, timeout: sdkBackstopTimeout(options.timeoutMs) });
 * ```
 */
export function sdkBackstopTimeout(timeoutMs: number | undefined): number {
  return Math.max(SDK_DEFAULT_TIMEOUT_MS, timeoutMs ?? 0);
}
