import { isNullReporter, isProgressReporter, type ProgressReporter, type SinkLike } from '@headway/protocol';

const METHODS = ['onStart', 'onProgress', 'onToolStart', 'onToolDone', 'onIteration', 'onComplete', 'onError'] as const;

/**
 * A reporter whose methods never throw and whose returned promises never reject unhandled:
 * the hub already catches synchronous throws, but a seven-method reporter's async
 * rejection would otherwise surface as an unhandled rejection.
 */
function guardReporter(reporter: ProgressReporter, onError: (error: unknown) => void): ProgressReporter {
  const guarded = {} as Record<(typeof METHODS)[number], (...args: never[]) => void>;
  for (const method of METHODS) {
    guarded[method] = (...args: never[]) => {
      const fn = reporter[method] as (...a: never[]) => unknown;
      const result = fn.apply(reporter, args);
      if (typeof result === 'object' && result !== null && typeof (result as PromiseLike<unknown>).then === 'function') {
        (result as PromiseLike<unknown>).then(undefined, onError);
      }
    };
  }
  return guarded as unknown as ProgressReporter;
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
