import { systemClock as protocolSystemClock, type Clock } from '@headway/protocol';

// The Clock type and the system clock are protocol's (one for every package); runtime
// re-exports them for code written against its own names.
export type { Clock };

/** The real clock: `Date.now` and the host's timers (protocol's `systemClock`). */
export const systemClock: Clock = protocolSystemClock;

/** The error an aborted signal stands for: its reason when that is an Error, else an AbortError. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException(typeof reason === 'string' ? reason : 'This operation was aborted', 'AbortError');
}

/**
 * Waits `ms` on `clock`; rejects with the signal's reason as soon as `signal` aborts.
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted === true) return Promise.reject(abortError(signal));
  if (ms <= 0 && signal === undefined) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      if (signal !== undefined) reject(abortError(signal));
    };
    const handle = clock.setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface ManualTimer {
  readonly id: number;
  readonly at: number;
  readonly fn: () => void;
}

/** Options of {@link ManualClock}. */
export interface ManualClockOptions {
  /** Start time in epoch ms (default 0). */
  start?: number;
  /**
   * Jump to the next timer whenever the program is otherwise idle (default false), so a
   * run that "waits" 30 s of model latency finishes at once, deterministically.
   */
  autoAdvance?: boolean;
}

/**
 * A fake clock for tests: time moves only when told (`advance`) or, with `autoAdvance`,
 * whenever nothing but timers is left to do.
 *
 * @example
 * ```ts
 * const clock = new ManualClock({ autoAdvance: true });
 * const runtime = new AgentRuntime({ provider: 'scripted', timeBudgetMs: 60_000 }, { provider, tools, clock });
 * ```
 */
export class ManualClock implements Clock {
  #now: number;
  #timers: ManualTimer[] = [];
  #nextId = 1;
  readonly #auto: boolean;
  #checkScheduled = false;

  constructor(options: ManualClockOptions = {}) {
    this.#now = options.start ?? 0;
    this.#auto = options.autoAdvance ?? false;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const timer: ManualTimer = { id: this.#nextId++, at: this.#now + Math.max(0, ms), fn };
    this.#timers.push(timer);
    this.#timers.sort((a, b) => a.at - b.at || a.id - b.id);
    if (this.#auto) this.#scheduleCheck();
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  }

  /** Timers not yet fired. */
  get pendingTimers(): number {
    return this.#timers.length;
  }

  /** Moves time forward by `ms`, firing due timers in order and letting their promise chains settle. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      const next = this.#timers[0];
      if (next === undefined || next.at > target) break;
      this.#timers.shift();
      this.#now = Math.max(this.#now, next.at);
      next.fn();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    this.#now = target;
  }

  #scheduleCheck(): void {
    if (this.#checkScheduled) return;
    this.#checkScheduled = true;
    // setImmediate runs after every pending promise continuation: if a timer is still
    // the next thing to happen, nothing else can make progress, so jumping is safe.
    setImmediate(() => {
      this.#checkScheduled = false;
      const next = this.#timers.shift();
      if (next === undefined) return;
      this.#now = Math.max(this.#now, next.at);
      next.fn();
      if (this.#timers.length > 0) this.#scheduleCheck();
    });
  }
}
