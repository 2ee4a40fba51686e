import type { ProgressHub } from '@headway/protocol';
import { createReplayLog, type ReplayLog } from './replay-log.js';

/** Where a handler gets a run's events: a replay log (many runs), or one run's progress hub. */
export type SseSource = ReplayLog | ProgressHub;

// One log per hub, however many handlers or responses serve it.
const hubLogs = new WeakMap<ProgressHub, ReplayLog>();

function isHub(source: SseSource): source is ProgressHub {
  return typeof (source as Partial<ProgressHub>).emit === 'function';
}

/**
 * The replay log behind a source: the log itself, or a default one attached to the hub
 * (it keeps the events emitted from then on).
 */
export function logOf(source: SseSource): { log: ReplayLog; hubRunId: string | undefined } {
  if (!isHub(source)) return { log: source, hubRunId: undefined };
  let log = hubLogs.get(source);
  if (log === undefined) {
    log = createReplayLog();
    log.attach(source);
    hubLogs.set(source, log);
  }
  return { log, hubRunId: source.runId };
}
