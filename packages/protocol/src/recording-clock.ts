import type { Clock } from './clock.js';

/**
 * A {@link Clock} whose waits end at once (on the next turn) but are recorded in `waits`: for
 * asserting retry and backoff delays without waiting for them. `now` is the real time.
 *
 * @example
 * ```ts
 * const clock = createRecordingClock();
 * await sleep(clock, 2_000);
 * expect(clock.waits).toEqual([2_000]);
 * ```
 */
export function createRecordingClock(): Clock & { readonly waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    now: () => Date.now(),
    setTimeout: (fn, ms) => {
      waits.push(ms);
      return setImmediate(fn);
    },
    clearTimeout: (handle) => {
      clearImmediate(handle as ReturnType<typeof setImmediate>);
    },
  };
}
