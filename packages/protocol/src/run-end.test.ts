import { describe, expect, it } from 'vitest';
import { STOP_REASONS } from './progress-report.js';
import { RUN_END_STATES, describeRunEnd, parseRunEndWord, runEndOf, runEndOfStopReason, runEndWord } from './run-end.js';

describe('runEndOf', () => {
  it('reads every terminal event as one state', () => {
    expect(runEndOf({ type: 'run.finished', outcome: 'completed' })).toEqual({ state: 'completed' });
    expect(runEndOf({ type: 'run.finished', outcome: 'limit', stopReason: 'max-iterations' })).toEqual({
      state: 'limit',
      limit: 'iterations',
    });
    expect(runEndOf({ type: 'run.finished', outcome: 'limit', stopReason: 'negotiated-timeout' })).toEqual({
      state: 'limit',
      limit: 'time',
    });
    expect(runEndOf({ type: 'run.finished', outcome: 'limit', stopReason: 'cost-budget' })).toEqual({ state: 'limit', limit: 'cost' });
    expect(runEndOf({ type: 'run.finished', outcome: 'limit', stopReason: 'stalled' })).toEqual({ state: 'stalled' });
    expect(runEndOf({ type: 'run.finished', outcome: 'limit' })).toEqual({ state: 'limit' });
    expect(runEndOf({ type: 'run.cancelled' })).toEqual({ state: 'cancelled' });
    expect(runEndOf({ type: 'run.error' })).toEqual({ state: 'failed' });
  });

  it('maps every stop reason to a state that is never completed', () => {
    for (const reason of STOP_REASONS) expect(runEndOfStopReason(reason).state).not.toBe('completed');
  });
});

describe('describeRunEnd and runEndWord', () => {
  it('says the same words for every state', () => {
    expect(RUN_END_STATES.map((state) => describeRunEnd({ state }))).toEqual([
      'completed',
      'stopped at a limit',
      'stalled',
      'cancelled',
      'failed',
      'interrupted (resumable)',
    ]);
    expect(describeRunEnd({ state: 'limit', limit: 'iterations' })).toBe('stopped at its iteration limit');
    expect(describeRunEnd({ state: 'limit', limit: 'time' })).toBe('stopped at its time limit');
    expect(describeRunEnd({ state: 'limit', limit: 'cost' })).toBe('stopped at its cost limit');
  });

  it('writes a word that reads back as the same end', () => {
    const ends = [...RUN_END_STATES.map((state) => ({ state })), { state: 'limit' as const, limit: 'cost' as const }];
    for (const end of ends) expect(parseRunEndWord(runEndWord(end))).toEqual(end);
    expect(runEndWord({ state: 'limit', limit: 'iterations' })).toBe('limit:iterations');
    for (const bad of ['', 'done', 'limit:', 'limit:money', 'failed:cost', 'limit:cost:x', 'constructor', '__proto__'])
      expect(parseRunEndWord(bad)).toBeUndefined();
  });
});
