// A run's events kept in sessionStorage, so a reloaded page rebuilds its state at once and
// resumes the stream after the last one (Last-Event-ID) instead of replaying it all.
import { parseProgressEvent, type ProgressEvent } from '@headway/protocol';

/** The part of the Web Storage API used. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const key = (runId: string): string => `headway-dashboard:events:${runId}`;

/**
 * The events saved for `runId`, or `[]` when there are none or they do not hold up: each
 * is validated, must belong to the run, and `seq` must rise strictly. Storage is outside
 * the page's control (another tab, a stale build, a hand edit), so anything else is
 * dropped and the page falls back to a full replay.
 */
export function loadSavedEvents(storage: StorageLike, runId: string): ProgressEvent[] {
  let raw: unknown;
  try {
    raw = JSON.parse(storage.getItem(key(runId)) ?? '[]');
  } catch {
    storage.removeItem(key(runId));
    return [];
  }
  if (!Array.isArray(raw)) return [];
  const events: ProgressEvent[] = [];
  try {
    for (const item of raw) {
      const event = parseProgressEvent(item);
      const last = events.at(-1);
      if (event.runId !== runId || (last !== undefined && event.seq <= last.seq)) throw new Error('out of order');
      events.push(event);
    }
  } catch {
    storage.removeItem(key(runId));
    return [];
  }
  return events;
}

/** Saves a run's events (best effort: a full storage only costs a full replay later). */
export function saveEvents(storage: StorageLike, runId: string, events: readonly ProgressEvent[]): void {
  try {
    storage.setItem(key(runId), JSON.stringify(events));
  } catch {
    storage.removeItem(key(runId));
  }
}
