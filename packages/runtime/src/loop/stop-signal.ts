import { adoptThenable, describeThrown } from '@headway/protocol/internal';
import type { StopReason } from '@headway/protocol';

/**
 * How a run stopped from outside its loop's flow ends: cancelled (by the caller, a lost lease) or
 * at a limit (the hard time stop, the cost cap). Decided where the stop is made; the loop ends
 * the run with it as it is.
 */
export type Stop = { status: 'cancelled'; reason: string } | { status: 'limit'; reason: StopReason };

/** Thrown inside the loop when a stop (cancel, hard time limit) interrupts an await; the loop catches it, it never leaves. */
export class StopSignal extends Error {
  constructor() {
    super('run stopped');
    this.name = 'StopSignal';
  }
}

/** Whether `value` is the loop's own StopSignal (safe on hostile values: a revoked proxy is "no"). */
export function isStopSignal(value: unknown): boolean {
  try {
    return value instanceof StopSignal;
  } catch {
    return false;
  }
}

/**
 * A thrown value as an `Error` the loop can hold and describe: an `Error` whose `message` can be
 * read passes as it is, anything else (a string, a revoked proxy, an object with a throwing
 * getter) becomes an `Error` with a safe description.
 */
function toError(value: unknown): Error {
  try {
    if (value instanceof Error && typeof value.message === 'string') return value;
  } catch {
    // A revoked proxy or a throwing getter: describe it instead.
  }
  // A stand-in for a hostile value, so the loop can describe it; the thrower chose to throw a non-Error.
  return new Error(describeThrown(value));
}

/** The reason a caller gave for aborting, or a plain default for a bare `abort()`. */
export function cancelReason(reason: unknown): string {
  try {
    if (reason instanceof Error && reason.name !== 'AbortError' && typeof reason.message === 'string' && reason.message !== '')
      return reason.message;
  } catch {
    return describeThrown(reason);
  }
  if (typeof reason === 'string' && reason !== '') return reason;
  return 'cancelled by the caller';
}

/**
 * Settles with `work` (a promise, a foreign thenable or a plain value), or rejects with a
 * {@link StopSignal} as soon as `stop` aborts (or with `extra`'s reason when it aborts first).
 * A rejection of `work` with a hostile value arrives as an `Error` (see {@link toError}), so
 * whoever awaits this never touches code the thrower controls.
 */
export function raceStop<T>(work: unknown, stop: AbortSignal, extra?: AbortSignal): Promise<T> {
  let promise: Promise<unknown>;
  try {
    promise = adoptThenable(work) ?? Promise.resolve(work);
  } catch (error) {
    promise = Promise.reject(toError(error));
  }
  const signals = extra === undefined ? [stop] : [stop, extra];
  const reasonOf = (s: AbortSignal): Error => (s === stop ? new StopSignal() : toError(s.reason));
  for (const s of signals) {
    if (s.aborted) {
      promise.catch(() => undefined);
      return Promise.reject(reasonOf(s));
    }
  }
  return new Promise<T>((resolve, reject) => {
    const listeners: (() => void)[] = [];
    const cleanup = (): void => {
      signals.forEach((s, i) => {
        const l = listeners[i];
        if (l !== undefined) s.removeEventListener('abort', l);
      });
    };
    for (const s of signals) {
      const l = (): void => {
        cleanup();
        reject(reasonOf(s));
      };
      listeners.push(l);
      s.addEventListener('abort', l, { once: true });
    }
    promise.then(
      (value) => {
        cleanup();
        resolve(value as T);
      },
      (error: unknown) => {
        cleanup();
        reject(toError(error));
      },
    );
  });
}
