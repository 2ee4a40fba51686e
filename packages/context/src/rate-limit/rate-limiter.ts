import { sleep, systemClock, type Clock, type ContextPart } from '@headway/runtime';
import { z } from 'zod';
import type { ContextEvent } from '../context-event.js';
import { parseOptions } from '../parse-options.js';
import { MessageTokenCache, estimateTokenCounter, type TokenCounter } from '../tokens/token-counter.js';

/** Requests and tokens one provider allows per minute; a limit left out is not enforced. */
export interface ProviderRateLimit {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
}

/** Options of {@link RateLimiter}. */
export interface RateLimiterOptions {
  /** Limits by provider name (the registry key, e.g. `openai`). */
  limits: Readonly<Record<string, ProviderRateLimit>>;
  /** Limits of any provider not named in `limits` (default: none). */
  defaultLimit?: ProviderRateLimit;
  /** Time and timers (default the system clock). */
  clock?: Clock;
}

/** What {@link RateLimiter.acquire} is told while it waits. */
export interface RateLimitWait {
  provider: string;
  limit: 'requests' | 'tokens';
  waitMs: number;
}

const WINDOW_MS = 60_000;
const limitSchema = z.strictObject({
  requestsPerMinute: z.int().positive().exactOptional(),
  tokensPerMinute: z.int().positive().exactOptional(),
});
const schema = z.strictObject({
  limits: z.record(z.string().min(1), limitSchema),
  defaultLimit: limitSchema.exactOptional(),
  clock: z
    .custom<Clock>((v) => typeof v === 'object' && v !== null && typeof (v as Clock).now === 'function', 'expected a Clock')
    .optional(),
});

interface Used {
  at: number;
  tokens: number;
}

/**
 * Requests and tokens per minute, per provider, over a sliding minute: a call over a limit waits
 * (never fails) until enough of the last minute's usage has aged out.
 *
 * @throws {ContextError} `CONTEXT_INVALID_CONFIG` naming the bad field, e.g. `limits.openai.tokensPerMinute`.
 * @example
 * ```ts
 * const limiter = new RateLimiter({ limits: { openai: { requestsPerMinute: 500, tokensPerMinute: 200_000 } } });
 * await limiter.acquire('openai', 1200, { signal });
 * ```
 */
export class RateLimiter {
  readonly #limits: Readonly<Record<string, ProviderRateLimit>>;
  readonly #default: ProviderRateLimit | undefined;
  readonly #clock: Clock;
  readonly #used = new Map<string, Used[]>();

  constructor(options: RateLimiterOptions) {
    const o = parseOptions('RateLimiter', schema, options);
    this.#limits = o.limits;
    this.#default = o.defaultLimit;
    this.#clock = o.clock ?? systemClock;
  }

  /** How long a call of `tokens` to `provider` would wait now (0 when it may go), and which limit holds it. */
  delay(provider: string, tokens: number): { waitMs: number; limit: 'requests' | 'tokens' } | undefined {
    const limit = Object.hasOwn(this.#limits, provider) ? this.#limits[provider] : this.#default;
    if (limit === undefined) return undefined;
    const now = this.#clock.now();
    const used = this.#prune(provider, now);
    const rpm = limit.requestsPerMinute;
    if (rpm !== undefined && used.length >= rpm) {
      const oldest = used[used.length - rpm];
      if (oldest !== undefined) return { waitMs: Math.max(1, oldest.at + WINDOW_MS - now), limit: 'requests' };
    }
    const tpm = limit.tokensPerMinute;
    if (tpm !== undefined) {
      let total = tokens;
      for (const u of used) total += u.tokens;
      // A call bigger than the whole budget goes alone, into an empty minute.
      let i = 0;
      while (total > tpm && i < used.length) {
        total -= used[i]?.tokens ?? 0;
        i += 1;
      }
      if (i > 0) {
        const last = used[i - 1];
        if (last !== undefined) return { waitMs: Math.max(1, last.at + WINDOW_MS - now), limit: 'tokens' };
      }
    }
    return undefined;
  }

  /**
   * Waits until a call of `tokens` to `provider` is within its limits, then counts it. `onWait`
   * is told before each wait; `signal` ends the wait (the promise rejects with its reason).
   */
  async acquire(
    provider: string,
    tokens: number,
    options: { signal?: AbortSignal; onWait?: (wait: RateLimitWait) => void } = {},
  ): Promise<void> {
    const n = Number.isFinite(tokens) && tokens > 0 ? tokens : 0;
    for (;;) {
      const d = this.delay(provider, n);
      if (d === undefined) break;
      options.onWait?.({ provider, limit: d.limit, waitMs: d.waitMs });
      await sleep(this.#clock, d.waitMs, options.signal);
    }
    const used = this.#used.get(provider) ?? [];
    used.push({ at: this.#clock.now(), tokens: n });
    this.#used.set(provider, used);
  }

  #prune(provider: string, now: number): Used[] {
    const used = this.#used.get(provider) ?? [];
    let drop = 0;
    while (drop < used.length && (used[drop]?.at ?? 0) + WINDOW_MS <= now) drop += 1;
    if (drop > 0) used.splice(0, drop);
    return used;
  }
}

/** Options of {@link createRateLimiterPart} besides the limiter. */
export interface RateLimiterPartOptions {
  /** Counts the tokens of each call (default {@link estimateTokenCounter}). */
  counter?: TokenCounter;
  /** Told about each wait that happened. Its errors are ignored. */
  onEvent?: (event: ContextEvent) => void;
  /** Time, to measure waits (default the system clock; give the limiter's). */
  clock?: Clock;
}

/**
 * The rate limiter as a context part: before each model call (after the rest of the context is
 * assembled, so its tokens are known) it waits for the provider's limits, showing
 * "Waiting 12 s for the openai rate limit (tokens per minute)" as the run's progress message.
 * The wait ends when the run is cancelled or stopped.
 *
 * @example
 * ```ts
 * const limits = createRateLimiterPart(new RateLimiter({ limits: { openai: { requestsPerMinute: 60 } } }));
 * ```
 */
export function createRateLimiterPart(limiter: RateLimiter, options: RateLimiterPartOptions = {}): ContextPart {
  const counter = options.counter ?? estimateTokenCounter;
  const clock = options.clock ?? systemClock;
  const cache = new MessageTokenCache(counter);
  return {
    name: 'rate-limiter',
    async assembleContext(a) {
      const provider = a.provider ?? 'default';
      let tokens = cache.total(a.conversation);
      for (const s of a.system) tokens += counter.countText(s);
      let restore: (() => void) | undefined;
      let limit: 'requests' | 'tokens' = 'requests';
      const startedAt = clock.now();
      try {
        await limiter.acquire(provider, tokens, {
          signal: a.signal,
          onWait: (wait) => {
            limit = wait.limit;
            restore ??= a.showProgress(
              `Waiting ${Math.ceil(wait.waitMs / 1000)} s for the ${provider} rate limit (${wait.limit} per minute)`,
            );
          },
        });
      } finally {
        restore?.();
      }
      if (restore !== undefined) {
        try {
          options.onEvent?.({
            type: 'rate-limit.waited',
            runId: a.runId,
            iteration: a.iteration,
            provider,
            limit,
            waitedMs: Math.max(0, clock.now() - startedAt),
          });
        } catch {
          // A listener's failure is not the limiter's.
        }
      }
      return undefined;
    },
  };
}
