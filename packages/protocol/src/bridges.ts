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
 * hub.add(reporterSink(myReporter)); // hub.add(myReporter) does the same
 * ```
 */
export function reporterSink(reporter: ProgressReporter): ProgressSink {
  return (event) => {
    switch (event.type) {
      case 'run.started':
        { reporter.onStart(event.task ?? event.agentName); return; }
      case 'progress':
        { reporter.onProgress(event.percent, event.message ?? ''); return; }
      case 'tool.executing':
        { reporter.onToolStart(event.toolName); return; }
      case 'tool.completed':
        { reporter.onToolDone(event.toolName, event.ok ? 'ok' : 'error'); return; }
      case 'iteration':
        { reporter.onIteration(event.index, event.max); return; }
      case 'run.finished':
        { reporter.onComplete(event.summary ?? (event.outcome === 'limit' ? 'stopped at a limit' : 'finished')); return; }
      case 'run.error':
        { reporter.onError(event.error); return; }
      case 'run.cancelled':
        { reporter.onError(`cancelled: ${event.reason ?? 'no reason given'}`); return; }
      default:
        return undefined;
    }
  };
}

/** Options of {@link reporterEvents}. */
export interface ReporterEventsOptions {
  /** `agentName` of the `run.started` event (default `agent`). */
  agentName?: string;
  /** Clock for `durationMs` (default `Date.now`). */
  now?: () => number;
}

const CANCELLED_PREFIX = 'cancelled: ';

/**
 * The reverse bridge: a {@link ProgressReporter} whose calls become events passed to
 * `emit` (usually a progress hub's `emit`), for runtimes that only speak the seven methods.
 * Durations of tools and of the run are measured between the matching calls.
 * `onError('cancelled: …')` becomes `run.cancelled`, any other error `run.error`.
 */
export function reporterEvents(emit: (body: ProgressEventBody) => unknown, options: ReporterEventsOptions = {}): ProgressReporter {
  const now = options.now ?? Date.now;
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
