/**
 * The timer the live block animates with. Injected so tests drive the spinner by hand;
 * the default is the global `setInterval`/`clearInterval`. A handle with `unref()` is
 * unref'd, so the reporter never keeps a process alive.
 */
export interface IntervalTimers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** The global timers. */
export const globalIntervalTimers: IntervalTimers = {
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (handle) => {
    clearInterval(handle as ReturnType<typeof setInterval>);
  },
};
