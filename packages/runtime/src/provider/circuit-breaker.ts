import { systemClock, type Clock } from '../loop/clock.js';

/** Options of the circuit breaker `ProviderRegistry` keeps for each provider. */
export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit (default 5). */
  failureThreshold?: number;
  /** How long the circuit stays open before one probe call is let through (default 30 s). */
  cooldownMs?: number;
}

/** State of the circuit breaker `ProviderRegistry` keeps for each provider. */
export type CircuitState = 'closed' | 'open' | 'half-open';

/**
 * Stops calling a provider that keeps failing: after `failureThreshold` consecutive
 * failures the circuit opens and calls fail fast; after `cooldownMs` one probe is let
 * through (half-open) — success closes it, failure opens it again. The cool-down is counted
 * on `clock` (the registry's; default the system clock).
 */
export class CircuitBreaker {
  readonly #threshold: number;
  readonly #cooldownMs: number;
  readonly #clock: Clock;
  #failures = 0;
  #openedAt: number | undefined;
  #probing = false;

  constructor(options: CircuitBreakerOptions = {}, clock: Clock = systemClock) {
    this.#threshold = Math.max(1, Math.floor(options.failureThreshold ?? 5));
    this.#cooldownMs = Math.max(0, options.cooldownMs ?? 30_000);
    this.#clock = clock;
  }

  get state(): CircuitState {
    if (this.#openedAt === undefined) return 'closed';
    return this.#clock.now() - this.#openedAt >= this.#cooldownMs ? 'half-open' : 'open';
  }

  /** Consecutive failures so far. */
  get failures(): number {
    return this.#failures;
  }

  /** Milliseconds until a probe is allowed (0 when calls may go through). */
  get retryInMs(): number {
    if (this.#openedAt === undefined) return 0;
    return Math.max(0, this.#openedAt + this.#cooldownMs - this.#clock.now());
  }

  /** Whether a call may go through now; in half-open state only one probe at a time. */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === 'closed') return true;
    if (state === 'open' || this.#probing) return false;
    this.#probing = true;
    return true;
  }

  recordSuccess(): void {
    this.#failures = 0;
    this.#openedAt = undefined;
    this.#probing = false;
  }

  recordFailure(): void {
    this.#failures += 1;
    if (this.#probing || this.#failures >= this.#threshold) this.#openedAt = this.#clock.now();
    this.#probing = false;
  }

  /** Releases a half-open probe that ended without a verdict (aborted). */
  release(): void {
    this.#probing = false;
  }
}
