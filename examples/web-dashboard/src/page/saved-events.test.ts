import type { ProgressEvent } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { loadSavedEvents, saveEvents, type StorageLike } from './saved-events.js';

function memoryStorage(): StorageLike & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => {
      map.set(k, v);
    },
    removeItem: (k) => {
      map.delete(k);
    },
  };
}

const events: ProgressEvent[] = [
  { type: 'run.started', runId: 'r1', seq: 1, ts: 1, agentName: 'a' },
  { type: 'progress', runId: 'r1', seq: 2, ts: 2, percent: 10 },
  { type: 'text.delta', runId: 'r1', seq: 3, ts: 3, text: 'hi' },
];

describe('saved events', () => {
  it('round-trips a run’s events', () => {
    const storage = memoryStorage();
    saveEvents(storage, 'r1', events);
    expect(loadSavedEvents(storage, 'r1')).toEqual(events);
    expect(loadSavedEvents(storage, 'r2')).toEqual([]);
  });

  it.each([
    ['not JSON', '{'],
    ['not an array', '{"a":1}'],
    ['an invalid event', JSON.stringify([{ ...events[0], seq: -1 }])],
    ['another run’s event', JSON.stringify([events[0], { ...events[1], runId: 'r2' }])],
    ['seq going back', JSON.stringify([events[1], events[0]])],
    ['a repeated seq', JSON.stringify([events[0], events[0]])],
  ])('drops what does not hold up (%s), so the page replays in full', (_, stored) => {
    const storage = memoryStorage();
    storage.setItem('headway-dashboard:events:r1', stored);
    expect(loadSavedEvents(storage, 'r1')).toEqual([]);
  });

  it('a full storage costs only the saved copy', () => {
    const storage = memoryStorage();
    storage.setItem('headway-dashboard:events:r1', '[]');
    const full: StorageLike = {
      ...storage,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(() => {
      saveEvents(full, 'r1', events);
    }).not.toThrow();
    expect(storage.map.has('headway-dashboard:events:r1')).toBe(false);
  });
});
