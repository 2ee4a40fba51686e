// Time and settling under a test's control. Part of `@headway/test-utils`.

/** A promise with its `resolve` and `reject`, to settle it when the test says so. */
export interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * A promise the test settles itself: a sink or bus that stalls until `resolve()`, a write that
 * fails on `reject(error)`.
 *
 * @example
 * ```ts
 * const gate = deferred();
 * hub.add({ handle: () => gate.promise });
 * gate.resolve();
 * ```
 */
export function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A `now()` that moves on `step` ms at each call, from `start`: timestamps that always increase. */
export function steppingNow(start = 1_000, step = 5): () => number {
  let t = start;
  return () => (t += step);
}

/** A clock that moves only when told: `now()` reads it, `advance(ms)` moves it. */
export interface FakeNow {
  now: () => number;
  advance: (ms: number) => void;
}

/** A {@link FakeNow} from `start`, for code that takes a `now()` (estimates, ETAs, elapsed times). */
export function fakeNow(start = 1_000_000): FakeNow {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}
