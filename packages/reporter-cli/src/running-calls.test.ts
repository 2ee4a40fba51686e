import { describe, expect, it } from 'vitest';
import { RunningCalls } from './running-calls.js';

describe('RunningCalls', () => {
  it('finishes the call with the id when one runs, else the oldest of the name, and keeps the rest in start order', () => {
    const calls = new RunningCalls();
    calls.start('read', 'c1', 1);
    calls.start('read', 'c2', 2);
    calls.start('search', undefined, 3);
    calls.start('read', undefined, 4);
    expect(calls.finish('read', 'c2')).toMatchObject({ id: 'c2', startedAt: 2 });
    // An id that is not running: the oldest call of the name.
    expect(calls.finish('read', 'nope')).toMatchObject({ id: 'c1', startedAt: 1 });
    expect(calls.finish('read', 'c1')).toMatchObject({ id: undefined, startedAt: 4 });
    expect(calls.finish('read', undefined)).toBeUndefined();
    expect(calls.size).toBe(1);
    expect(calls.oldest(5)).toEqual([{ name: 'search', id: undefined, startedAt: 3 }]);
  });

  it('40,000 stuck calls and 40,000 finished ones: every completion ends its own call, the stuck ones stay in order', () => {
    const calls = new RunningCalls();
    for (let i = 0; i < 40_000; i++) calls.start('stuck', `s${i}`, i);
    for (let i = 0; i < 40_000; i++) {
      calls.start('quick', `q${i}`, i);
      expect(calls.finish('quick', `q${i}`)?.id).toBe(`q${i}`);
    }
    expect(calls.size).toBe(40_000);
    expect(calls.oldest(2).map((c) => c.id)).toEqual(['s0', 's1']);
    // Finished by name, the stuck calls end oldest first, skipping any already ended by id.
    expect(calls.finish('stuck', 's1')?.id).toBe('s1');
    expect(calls.finish('stuck', undefined)?.id).toBe('s0');
    expect(calls.finish('stuck', undefined)?.id).toBe('s2');
    calls.clear();
    expect(calls.size).toBe(0);
    expect(calls.oldest(3)).toEqual([]);
  });
});
