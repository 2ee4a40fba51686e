/**
 * Where headway gets its time from: the one type every package accepts where it reads the
 * time or sets a timer, so tests (and simulations) run on fake time instead of sleeping.
 * Repeating work (a spinner, a heartbeat) re-arms a timeout; there is no `setInterval` to fake.
 *
 * @example
 * ```ts
 * import { ManualClock, createProgressHub } from '@headway/protocol';
 * const clock = new ManualClock({ start: 0 });
 * const hub = createProgressHub({ runId: 'run-1', clock });
 * await clock.advance(1_000);
 * hub.emit({ type: 'run.started', agentName: 'demo' }); // ts: 1000
 * ```
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Calls `fn` after `ms`; returns a handle for {@link Clock.clearTimeout}. */
  setTimeout(fn: () => void, ms: number): unknown;
  /** Cancels a timer {@link Clock.setTimeout} returned; a handle already fired or cleared is ignored. */
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

/**
 * `clock` with every timer it sets unref'd ({@link unrefTimer}): for a component whose timers
 * are housekeeping (lease renewals, sweeps, retry backoff) that must never keep a process alive.
 */
export function unrefClock(clock: Clock): Clock {
  return {
    now: () => clock.now(),
    setTimeout: (fn, ms) => unrefTimer(clock.setTimeout(fn, ms)),
    clearTimeout: (handle) => {
      clock.clearTimeout(handle);
    },
  };
}

/**
 * Lets the process exit while `handle` is pending, when the host's handle can say so (Node's
 * `unref`); other handles (a fake clock's ids, a browser's numbers) are returned as they are.
 * For background timers a caller does not wait on: heartbeats, spinners, lease renewals.
 */
export function unrefTimer<T>(handle: T): T {
  if (typeof handle === 'object' && handle !== null && 'unref' in handle && typeof handle.unref === 'function') {
    (handle as { unref: () => void }).unref();
  }
  return handle;
}

/** Options of {@link repeatOn}. */
export interface RepeatOptions {
  /** Let the process exit while the repetition runs (see {@link unrefTimer}; default false). */
  unref?: boolean;
}

/**
 * Calls `fn` every `ms` on `clock` (each call re-arms one timeout) until the returned function
 * is called; `fn` is not called after that, even from inside `fn`.
 */
export function repeatOn(clock: Clock, ms: number, fn: () => void, options: RepeatOptions = {}): () => void {
  let stopped = false;
  let handle: unknown;
  const arm = (): void => {
    handle = clock.setTimeout(tick, ms);
    if (options.unref === true) unrefTimer(handle);
  };
  const tick = (): void => {
    if (stopped) return;
    arm();
    fn();
  };
  arm();
  return () => {
    if (stopped) return;
    stopped = true;
    clock.clearTimeout(handle);
  };
}

/**
 * The error an aborted signal stands for: its reason when that is an Error, else an
 * `AbortError` DOMException carrying the reason string (or `message`).
 */
export function abortError(signal: AbortSignal | undefined, message = 'This operation was aborted'): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  return new DOMException(typeof reason === 'string' ? reason : message, 'AbortError');
}

/**
 * Waits `ms` on `clock`; rejects with {@link abortError} of the signal as soon as `signal` aborts
 * (at once when it already has).
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal, abortMessage?: string): Promise<void> {
  if (signal?.aborted === true) return Promise.reject(abortError(signal, abortMessage));
  if (ms <= 0 && signal === undefined) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      reject(abortError(signal, abortMessage));
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
