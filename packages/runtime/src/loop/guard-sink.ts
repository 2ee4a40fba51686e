import { adoptThenable } from '@headway/protocol/internal';
import { isNullReporter, isProgressReporter, type ProgressReporter, type SinkLike } from '@headway/protocol';

/**
 * A reporter whose methods never throw and whose returned promises never reject unhandled:
 * the hub already catches synchronous throws, but a seven-method reporter's async
 * rejection would otherwise surface as an unhandled rejection.
 */
function guardReporter(reporter: ProgressReporter, onError: (error: unknown) => void): ProgressReporter {
  // What a reporter returns is untrusted: a revoked proxy or a `then` that throws or lies is
  // adopted safely (adoptThenable), and its rejection reported, never thrown.
  const settle = (result: unknown): void => {
    adoptThenable(result)?.then(undefined, onError);
  };
  // Declared `void`, but a reporter may still return a promise: view it as returning unknown.
  const loose = reporter as unknown as Record<keyof ProgressReporter, (...args: unknown[]) => unknown>;
  return {
    onStart: (task) => { settle(loose.onStart(task)); },
    onProgress: (pct, label) => { settle(loose.onProgress(pct, label)); },
    onToolStart: (name) => { settle(loose.onToolStart(name)); },
    onToolDone: (name, summary) => { settle(loose.onToolDone(name, summary)); },
    onIteration: (i, max) => { settle(loose.onIteration(i, max)); },
    onComplete: (summary) => { settle(loose.onComplete(summary)); },
    onError: (error) => { settle(loose.onError(error)); },
  };
}

/**
 * Prepares a user's sink or reporter for the run's hub: objects with `handle(event)` and
 * plain functions go in as they are (the hub isolates them), seven-method reporters are
 * guarded against async rejections, a NullReporter is skipped.
 */
export function guardSink(sink: SinkLike, onError: (error: unknown) => void): SinkLike | undefined {
  if (typeof sink === 'function') return sink;
  if (isNullReporter(sink)) return undefined;
  if (typeof (sink as { handle?: unknown }).handle === 'function') return sink;
  if (isProgressReporter(sink)) return guardReporter(sink, onError);
  return sink;
}
