import type { ProgressHub } from '@headway/protocol';
import { createReplayLog, type ReplayLog, type ReplayOpenResult } from './replay-log.js';

/**
 * What the handlers need from a store of runs' events: a cursor after `afterSeq` (see
 * {@link ReplayLog.open} for the answers), possibly asynchronously. The in-memory
 * {@link ReplayLog} is one; a log kept in another process (Redis Streams) is another.
 */
export interface ReplaySource {
  /** Same contract as {@link ReplayLog.open}; a rejection is answered 503. */
  open(runId: string, afterSeq: number | undefined, onAppend: () => void): ReplayOpenResult | PromiseLike<ReplayOpenResult>;
}

/** Where a handler gets a run's events: a replay source such as a replay log (many runs), or one run's progress hub. */
export type SseSource = ReplaySource | ProgressHub;

// One log per hub, however many handlers or responses serve it.
const hubLogs = new WeakMap<ProgressHub, ReplayLog>();

function isHub(source: SseSource): source is ProgressHub {
  return typeof (source as Partial<ProgressHub>).emit === 'function';
}

/**
 * The replay log behind a source: the log itself, or a default one attached to the hub
 * (it keeps the events emitted from then on).
 */
export function logOf(source: SseSource): { log: ReplaySource; hubRunId: string | undefined } {
  if (!isHub(source)) return { log: source, hubRunId: undefined };
  let log = hubLogs.get(source);
  if (log === undefined) {
    log = createReplayLog();
    log.attach(source);
    hubLogs.set(source, log);
  }
  return { log, hubRunId: source.runId };
}
