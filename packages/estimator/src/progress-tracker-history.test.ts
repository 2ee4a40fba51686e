import { systemClock } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { ProgressTracker, type ProgressEmission } from './progress-tracker.js';

describe('ProgressTracker with history', () => {
  it('gives an ETA after the first roundtrip: history of this kind of task is evidence', () => {
    let t = 0;
    const seen: ProgressEmission[] = [];
    const history = { runs: [4, 5, 6].map((roundtrips) => ({ roundtrips, durationMs: roundtrips * 2000 })) };
    const tracker = new ProgressTracker({ maxRoundtrips: 30, clock: { ...systemClock, now: () => t }, history, emit: (b) => seen.push(b) });
    const plain = new ProgressTracker({ maxRoundtrips: 30, clock: { ...systemClock, now: () => t } });
    for (const tr of [tracker, plain]) tr.roundtripStarted();
    t = 2000;
    for (const tr of [tracker, plain]) tr.roundtripFinished();
    expect(plain.etaMs).toBeUndefined();
    expect(tracker.etaMs).toBeGreaterThan(0);
    // About 5 roundtrips of 2 s in all, one done: the rest is 6–10 s.
    expect(2000 + (tracker.etaMs ?? 0)).toBeGreaterThanOrEqual(8000);
    expect(2000 + (tracker.etaMs ?? 0)).toBeLessThanOrEqual(12_000);
    expect(seen.at(-1)?.etaMs).toBe(tracker.etaMs);
  });
});
