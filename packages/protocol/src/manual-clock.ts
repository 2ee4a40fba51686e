import type { Clock } from './clock.js';

// After every pending promise continuation: Node's setImmediate, a zero timeout elsewhere.
const macrotask: (fn: () => void) => void =
  typeof setImmediate === 'function'
    ? (fn) => {
        setImmediate(fn);
      }
    : (fn) => {
        setTimeout(fn, 0);
      };

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
 * const clock = new ManualClock({ start: 1_000 });
 * let fired = false;
 * clock.setTimeout(() => (fired = true), 500);
 * await clock.advance(500); // fired, and clock.now() is 1_500
 * // new ManualClock({ autoAdvance: true }) jumps from timer to timer on its own
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
    while (this.#fireNext(target)) {
      await new Promise<void>((resolve) => {
        macrotask(resolve);
      });
    }
    this.#now = target;
  }

  /**
   * Moves time forward by `ms`, firing due timers in order at once, without waiting for promise
   * chains between them: for code that sets timers and never awaits (a reporter's animation).
   */
  advanceSync(ms: number): void {
    const target = this.#now + ms;
    while (this.#fireNext(target)) {
      // each due timer in turn
    }
    this.#now = target;
  }

  /** Fires the next timer due by `target`, at its time; false when none is. */
  #fireNext(target: number): boolean {
    const next = this.#timers[0];
    if (next === undefined || next.at > target) return false;
    this.#timers.shift();
    this.#now = Math.max(this.#now, next.at);
    next.fn();
    return true;
  }

  #scheduleCheck(): void {
    if (this.#checkScheduled) return;
    this.#checkScheduled = true;
    // setImmediate runs after every pending promise continuation: if a timer is still
    // the next thing to happen, nothing else can make progress, so jumping is safe.
    macrotask(() => {
      this.#checkScheduled = false;
      const next = this.#timers.shift();
      if (next === undefined) return;
      this.#now = Math.max(this.#now, next.at);
      next.fn();
      if (this.#timers.length > 0) this.#scheduleCheck();
    });
  }
}
