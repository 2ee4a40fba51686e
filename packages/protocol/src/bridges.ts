import { adoptThenable } from './untrusted.js';
import { type Clock, systemClock } from './clock.js';
import type { ProgressEvent, ProgressEventBody } from './events.js';
import type { ProgressReporter } from './progress-reporter.js';

/** Receives every event of a run; may be async. */
export type ProgressSink = (event: ProgressEvent) => void | PromiseLike<void>;

/**
 * Turns a {@link ProgressReporter} into an event sink, so every reporter works with every
 * event source. Mapping (other event types are not reporter calls and are ignored):
 *
 * | event | reporter call |
 * |---|---|
 * | `run.started` | `onStart(task ?? agentName)` |
 * | `progress` | `onProgress(percent, message ?? '')` |
 * | `tool.executing` | `onToolStart(toolName)` |
 * | `tool.completed` | `onToolDone(toolName, ok ? 'ok' : 'error')` |
 * | `iteration` | `onIteration(index, max)` |
 * | `run.finished` | `onComplete(summary ?? 'finished' / 'stopped at a limit')` |
 * | `run.error` | `onError(error)` |
 * | `run.cancelled` | `onError('cancelled: ' + (reason ?? 'no reason given'))` |
 *
 * @example
 * ```ts
 * hub.add(createReporterSink(myReporter)); // hub.add(myReporter) does the same
 * ```
 */
export function createReporterSink(reporter: ProgressReporter): ProgressSink {
  return (event) => {
    const result = callReporter(reporter, event);
    // The interface says void, but a method may be async: hand its promise to the caller
    // (the hub) so a rejection is counted and isolated instead of left unhandled.
    return adoptThenable(result) as Promise<void> | undefined;
  };
}

/** A reporter seen as what it may really be: methods that can return a promise. */
type MaybeAsyncReporter = { [K in keyof ProgressReporter]: (...args: Parameters<ProgressReporter[K]>) => unknown };

function callReporter(r: MaybeAsyncReporter, event: ProgressEvent): unknown {
  switch (event.type) {
    case 'run.started':
      return r.onStart(event.task ?? event.agentName);
    case 'progress':
      return r.onProgress(event.percent, event.message ?? '');
    case 'tool.executing':
      return r.onToolStart(event.toolName);
    case 'tool.completed':
      return r.onToolDone(event.toolName, event.ok ? 'ok' : 'error');
    case 'iteration':
      return r.onIteration(event.index, event.max);
    case 'run.finished':
      return r.onComplete(event.summary ?? (event.outcome === 'limit' ? 'stopped at a limit' : 'finished'));
    case 'run.error':
      return r.onError(event.error);
    case 'run.cancelled':
      return r.onError(`${CANCELLED_PREFIX}${event.reason ?? 'no reason given'}`);
    default:
      return undefined;
  }
}

/** Options of {@link createReporterEvents}. */
export interface ReporterEventsOptions {
  /** `agentName` of the `run.started` event (default `agent`). */
  agentName?: string;
  /** Clock for `durationMs` (default {@link systemClock}). */
  clock?: Clock;
}

/**
 * How the seven-method interface says "cancelled": `onError` with text that starts with this
 * (see {@link createReporterSink}). Shared, through `@headway/protocol/internal`, with the reporters
 * that tell a cancellation from an error.
 */
export const CANCELLED_PREFIX = 'cancelled: ';

/**
 * The reverse bridge: a {@link ProgressReporter} whose calls become events passed to
 * `emit` (usually a progress hub's `emit`), for runtimes that only speak the seven methods.
 * Durations of tools and of the run are measured between the matching calls.
 * `onError('cancelled: …')` becomes `run.cancelled`, any other error `run.error`.
 */
export function createReporterEvents(emit: (body: ProgressEventBody) => unknown, options: ReporterEventsOptions = {}): ProgressReporter {
  const clock = options.clock ?? systemClock;
  const now = (): number => clock.now();
  const agentName = options.agentName ?? 'agent';
  let startedAt = now();
  const toolStarts = new Map<string, number[]>();
  return {
    onStart(task) {
      startedAt = now();
      emit({ type: 'run.started', agentName, task });
    },
    onProgress(pct, label) {
      if (!Number.isFinite(pct)) return;
      const percent = Math.min(100, Math.max(0, pct));
      emit(label === '' ? { type: 'progress', percent } : { type: 'progress', percent, message: label });
    },
    onToolStart(name) {
      const starts = toolStarts.get(name) ?? [];
      starts.push(now());
      toolStarts.set(name, starts);
      emit({ type: 'tool.executing', toolName: name });
    },
    onToolDone(name, summary) {
      const start = toolStarts.get(name)?.shift();
      const durationMs = start === undefined ? 0 : Math.max(0, now() - start);
      emit({ type: 'tool.completed', toolName: name, durationMs, ok: summary !== 'error', preview: summary });
    },
    onIteration(i, maxIterations) {
      emit({ type: 'iteration', index: i, max: maxIterations });
    },
    onComplete(summary) {
      emit({ type: 'run.finished', durationMs: Math.max(0, now() - startedAt), outcome: 'completed', summary });
    },
    onError(error) {
      if (error.startsWith(CANCELLED_PREFIX)) emit({ type: 'run.cancelled', reason: error.slice(CANCELLED_PREFIX.length) });
      else emit({ type: 'run.error', error });
    },
  };
}
