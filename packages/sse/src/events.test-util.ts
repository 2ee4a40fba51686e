import type { ProgressEvent, ProgressEventBody } from '@headway/protocol';

/** A stamped event of `runId` with `seq` and a fixed `ts`, for tests. */
export function ev(runId: string, seq: number, body: ProgressEventBody = { type: 'progress', percent: Math.min(99, seq) }): ProgressEvent {
  return { ...body, runId, seq, ts: 1000 + seq };
}

/** The terminal `run.finished` event of `runId` at `seq`. */
export function finished(runId: string, seq: number): ProgressEvent {
  return ev(runId, seq, { type: 'run.finished', durationMs: 5, outcome: 'completed' });
}

/** Waits for queued microtasks (the replay log wakes readers in one). */
export function microtasks(): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(resolve);
  });
}
