/**
 * Callbacks for people who want seven methods instead of an event stream.
 *
 * Structural: any object with these seven methods is a reporter — no base class, no
 * registration. Methods may return a promise; callers never wait for it and swallow its
 * rejection, so a reporter can never stall or break a run.
 */
export interface ProgressReporter {
  /** The run began; `task` is the user's input or a description. */
  onStart(task: string): void;
  /** The overall percent (0–100) changed. */
  onProgress(pct: number, label: string): void;
  /** A tool is about to run. */
  onToolStart(name: string): void;
  /** A tool finished; `summary` is `ok` or `error`. */
  onToolDone(name: string, summary: string): void;
  /** A new round began; `i` is zero-based. */
  onIteration(i: number, maxIterations: number): void;
  /** The run ended without error, e.g. `finished after 3 iteration(s)`. */
  onComplete(summary: string): void;
  /** The run failed or was cancelled. */
  onError(error: string): void;
}

const METHODS = ['onStart', 'onProgress', 'onToolStart', 'onToolDone', 'onIteration', 'onComplete', 'onError'] as const;

/** True when `value` has all seven {@link ProgressReporter} methods. */
export function isProgressReporter(value: unknown): value is ProgressReporter {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const record = value as Record<string, unknown>;
  return METHODS.every((m) => typeof record[m] === 'function');
}

const NULL_BRAND = Symbol.for('@headway/null-reporter');

/**
 * A reporter that does nothing. It is the default wherever a reporter is optional, and a
 * progress hub skips it entirely, so attaching one costs nothing per event.
 */
/* eslint-disable @typescript-eslint/no-empty-function -- doing nothing is the point */
export class NullReporter implements ProgressReporter {
  constructor() {
    Object.defineProperty(this, NULL_BRAND, { value: true });
  }
  onStart(_task: string): void {}
  onProgress(_pct: number, _label: string): void {}
  onToolStart(_name: string): void {}
  onToolDone(_name: string, _summary: string): void {}
  onIteration(_i: number, _maxIterations: number): void {}
  onComplete(_summary: string): void {}
  onError(_error: string): void {}
}
/* eslint-enable @typescript-eslint/no-empty-function */

/** True for a {@link NullReporter} from any copy of this package. */
export function isNullReporter(value: unknown): value is NullReporter {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[NULL_BRAND] === true;
}
