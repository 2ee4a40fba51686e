import { errorMessage } from '@headway/protocol/internal';
import { CircuitBreaker, type CircuitBreakerOptions } from './circuit-breaker.js';
import { sleep, systemClock, type Clock } from '../loop/clock.js';
import type { CompletionRequest, CompletionResponse, Provider, ProviderCallOptions, StreamChunk } from './provider.js';
import { ProviderError } from './provider-error.js';
import { backoffDelay, isAbortError, isRetryable, createRetryPolicy, type RetryOptions, type RetryPolicy } from './retry-policy.js';

/** What {@link ProviderRegistryOptions.onRetry} is told before each retry. */
export interface RetryInfo {
  provider: string;
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  error: unknown;
}

/** Options of {@link ProviderRegistry}. */
export interface ProviderRegistryOptions {
  /** Name of the provider to use first (default: the first registered). */
  preferred?: string;
  retry?: RetryOptions;
  circuitBreaker?: CircuitBreakerOptions;
  /** Time for backoff waits and the breaker's cool-down (default the system clock). */
  clock?: Clock;
  /** Randomness for jitter, in [0, 1) (default `Math.random`). */
  random?: () => number;
  /** Told about every retry, for logs. Its errors are ignored. */
  onRetry?: (info: RetryInfo) => void;
}

/**
 * The providers a runtime can use, with the resilience every call needs: fallback to the
 * first available provider, retries with exponential backoff and jitter for retryable
 * failures (429, 5xx, network — honouring `retry-after`), and a circuit breaker per
 * provider.
 *
 * @example
 * ```ts
 * const registry = new ProviderRegistry([new OpenAIProvider(), new ScriptedProvider([{ content: 'hi' }])], { preferred: 'openai' });
 * const response = await registry.complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] });
 * ```
 */
export class ProviderRegistry {
  readonly #providers = new Map<string, Provider>();
  readonly #breakers = new Map<string, CircuitBreaker>();
  readonly #policy: RetryPolicy;
  readonly #breakerOptions: CircuitBreakerOptions;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #onRetry: ((info: RetryInfo) => void) | undefined;
  #preferred: string | undefined;

  constructor(providers: Iterable<Provider> | Record<string, Provider> = [], options: ProviderRegistryOptions = {}) {
    this.#policy = createRetryPolicy(options.retry);
    this.#breakerOptions = options.circuitBreaker ?? {};
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    this.#onRetry = options.onRetry;
    this.#preferred = options.preferred;
    if (Symbol.iterator in providers) {
      for (const p of providers) this.register(p);
    } else {
      for (const [name, p] of Object.entries(providers)) this.register(p, name);
    }
  }

  /** Adds a provider under `name` (default its own `name`). */
  register(provider: Provider, name: string = provider.name): this {
    this.#providers.set(name, provider);
    this.#breakers.set(name, new CircuitBreaker(this.#breakerOptions, this.#clock));
    return this;
  }

  /** Registered names, in order. */
  names(): string[] {
    return [...this.#providers.keys()];
  }

  /** The provider registered under `name`. */
  get(name: string): Provider | undefined {
    return this.#providers.get(name);
  }

  /** The circuit breaker of a provider (for inspection). */
  breaker(name: string): CircuitBreaker | undefined {
    return this.#breakers.get(name);
  }

  /** Sets the preferred provider for later calls (not the default when `preferred` is passed per call). */
  set preferred(name: string | undefined) {
    this.#preferred = name;
  }

  get preferred(): string | undefined {
    return this.#preferred;
  }

  /**
   * Switches to `name`, checking that it is available, and gives it a fresh circuit breaker.
   *
   * @throws {ProviderError} `PROVIDER_UNKNOWN` or `PROVIDER_UNAVAILABLE`.
   */
  switchProvider(name: string): void {
    const provider = this.#providers.get(name);
    if (provider === undefined) {
      throw new ProviderError('PROVIDER_UNKNOWN', `No provider named "${name}" (registered: ${this.names().join(', ') || 'none'})`, {
        provider: name,
      });
    }
    if (!isAvailable(provider)) {
      throw new ProviderError('PROVIDER_UNAVAILABLE', `Provider "${name}" is not available (disabled or missing its API key)`, {
        provider: name,
      });
    }
    this.#breakers.set(name, new CircuitBreaker(this.#breakerOptions, this.#clock));
    this.#preferred = name;
  }

  /**
   * The name of the provider a call would use: `preferred` (or the registry's) when it is
   * available, else the first available one.
   *
   * @throws {ProviderError} `PROVIDER_UNAVAILABLE` when none is available.
   */
  resolve(preferred: string | undefined = this.#preferred): string {
    if (preferred !== undefined) {
      const p = this.#providers.get(preferred);
      if (p !== undefined && isAvailable(p)) return preferred;
    }
    for (const [name, p] of this.#providers) if (isAvailable(p)) return name;
    throw new ProviderError(
      'PROVIDER_UNAVAILABLE',
      this.#providers.size === 0
        ? 'No provider is registered'
        : `No provider is available (${[...this.#providers].map(([name, p]) => describeUnavailable(name, p)).join('; ')})`,
      preferred === undefined ? {} : { provider: preferred },
    );
  }

  /**
   * One completion through the resolved provider, with retries and the circuit breaker.
   *
   * @throws {ProviderError} when no provider is available, the circuit is open, or the call
   * failed (after retries when retryable). An abort rethrows the signal's reason.
   */
  async complete(request: CompletionRequest, options: ProviderCallOptions & { preferred?: string } = {}): Promise<CompletionResponse> {
    const name = this.resolve(options.preferred);
    const provider = this.#entry(this.#providers, name);
    const callOptions: ProviderCallOptions = options.signal === undefined ? {} : { signal: options.signal };
    return this.#withRetries(name, options.signal, () => provider.complete(request, callOptions));
  }

  /**
   * A streamed completion (falls back to `complete` as one chunk per part when the provider
   * cannot stream). Retries happen only before the first chunk arrives, so nothing is
   * yielded twice.
   */
  async *stream(request: CompletionRequest, options: ProviderCallOptions & { preferred?: string } = {}): AsyncGenerator<StreamChunk> {
    const name = this.resolve(options.preferred);
    const provider = this.#entry(this.#providers, name);
    const callOptions: ProviderCallOptions = options.signal === undefined ? {} : { signal: options.signal };
    const streamFn = provider.stream?.bind(provider);
    if (streamFn === undefined) {
      const response = await this.#withRetries(name, options.signal, () => provider.complete(request, callOptions));
      if (response.reasoning !== undefined) yield { type: 'reasoning-delta', text: response.reasoning };
      if (response.content !== '') yield { type: 'text-delta', text: response.content };
      for (const toolCall of response.toolCalls) yield { type: 'tool-call', toolCall };
      yield { type: 'finish', finishReason: response.finishReason, usage: response.usage };
      return;
    }
    const breaker = this.#entry(this.#breakers, name);
    // Open the stream and read its first chunk under the retry policy.
    const { iterator, first } = await this.#withRetries(
      name,
      options.signal,
      async () => {
        const it = streamFn(request, callOptions)[Symbol.asyncIterator]();
        const head = await it.next();
        return { iterator: it, first: head };
      },
      false,
    );
    let settled = false;
    try {
      let next = first;
      while (next.done !== true) {
        yield next.value;
        next = await iterator.next();
      }
      settled = true;
      breaker.recordSuccess();
    } catch (error) {
      settled = true;
      if (isAbortError(error) || options.signal?.aborted === true) {
        breaker.release();
        throw error;
      }
      breaker.recordFailure();
      throw toProviderError(error, name, 1);
    } finally {
      // A consumer that stops reading early leaves no verdict: free a half-open probe.
      if (!settled) breaker.release();
      await iterator.return?.();
    }
  }

  #entry<V>(map: ReadonlyMap<string, V>, name: string): V {
    const value = map.get(name);
    if (value === undefined) throw new ProviderError('PROVIDER_UNKNOWN', `No provider named "${name}"`, { provider: name });
    return value;
  }

  async #withRetries<T>(name: string, signal: AbortSignal | undefined, call: () => Promise<T>, settleOnSuccess = true): Promise<T> {
    const breaker = this.#entry(this.#breakers, name);
    for (let attempt = 0; ; attempt++) {
      if (!breaker.tryAcquire()) {
        throw new ProviderError(
          'PROVIDER_CIRCUIT_OPEN',
          `Provider "${name}" failed ${breaker.failures} time(s) in a row; not calling it for another ${breaker.retryInMs} ms`,
          {
            provider: name,
            attempts: attempt,
          },
        );
      }
      try {
        const result = await call();
        if (settleOnSuccess) breaker.recordSuccess();
        return result;
      } catch (error) {
        if (isAbortError(error) || signal?.aborted === true) {
          breaker.release();
          throw signal?.aborted === true ? signal.reason : error;
        }
        breaker.recordFailure();
        if (!isRetryable(error) || attempt >= this.#policy.maxRetries) throw toProviderError(error, name, attempt + 1);
        const retryAfter = (error as { retryAfterMs?: unknown }).retryAfterMs;
        const delayMs = backoffDelay(this.#policy, attempt, this.#random, typeof retryAfter === 'number' ? retryAfter : undefined);
        try {
          this.#onRetry?.({ provider: name, attempt: attempt + 1, delayMs, error });
        } catch {
          // A logging callback may not break the call.
        }
        await sleep(this.#clock, delayMs, signal);
      }
    }
  }
}

function isAvailable(provider: Provider): boolean {
  try {
    return provider.isAvailable?.() ?? true;
  } catch {
    return false;
  }
}

/** `openai: no API key: set OPENAI_API_KEY or pass apiKey`, or `openai: not available`. */
function describeUnavailable(name: string, provider: Provider): string {
  let reason: string | undefined;
  try {
    const said: unknown = provider.unavailableReason?.();
    if (typeof said === 'string' && said !== '') reason = said;
  } catch {
    reason = undefined;
  }
  return `${name}: ${reason ?? 'not available'}`;
}

function toProviderError(error: unknown, name: string, attempts: number): ProviderError {
  if (error instanceof ProviderError) {
    if (error.attempts !== undefined || attempts <= 1) return error;
  }
  const status = (error as { status?: unknown } | null)?.status;
  const options = { provider: name, attempts, cause: error, retryable: isRetryable(error) };
  const suffix = attempts > 1 ? ` (after ${attempts} attempts)` : '';
  return new ProviderError(
    'PROVIDER_REQUEST_FAILED',
    `Provider "${name}" failed${suffix}: ${errorMessage(error)}`,
    typeof status === 'number' ? { ...options, status } : options,
  );
}
