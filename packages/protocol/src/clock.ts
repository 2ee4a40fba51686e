/**
 * Where headway gets its time from: the one type every package accepts where it reads the
 * time or sets a timer, so tests (and simulations) run on fake time instead of sleeping.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Calls `fn` after `ms`; returns a handle for {@link Clock.clearTimeout}. */
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The real clock: `Date.now` and the host's timers. Timers keep the process alive: a run
 * waiting on a scripted delay or a retry backoff is work in progress, and whoever sets a
 * timer clears it when its work ends.
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};
