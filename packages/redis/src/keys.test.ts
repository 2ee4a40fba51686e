import { HeadwayError } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertRunId, compareEntryIds, runKeys, seqOfEntryId } from './keys.js';

describe('run keys', () => {
  it('puts every key of a run under the prefix, with the run id as hash tag', () => {
    expect(runKeys('headway:', 'run-1')).toEqual({
      stream: 'headway:run:{run-1}:events',
      meta: 'headway:run:{run-1}:meta',
      lease: 'headway:run:{run-1}:lease',
    });
  });

  it('refuses a run id that could escape its key prefix or glob other keys', () => {
    for (const bad of ['', 'a}b', 'a{b', 'a:b', '*', 'a b', 'a\nb', 'a?', '[a]', 'x'.repeat(201), 'é']) {
      expect(() => assertRunId(bad)).toThrow(expect.objectContaining({ code: 'REDIS_INVALID_RUN_ID' }) as Error);
    }
    expect(() => runKeys('headway:', '}:x')).toThrow(/refused/);
    expect(assertRunId(crypto.randomUUID())).toMatch(/-/);
  });

  it('accepts exactly the ids whose keys stay under the prefix', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 250 }), (runId) => {
        let keys;
        try {
          keys = runKeys('p:', runId);
        } catch (error) {
          expect(HeadwayError.isInstance(error, 'REDIS_INVALID_RUN_ID')).toBe(true);
          return;
        }
        expect(keys.stream.startsWith(`p:run:{${runId}}:`)).toBe(true);
        expect(runId).not.toMatch(/[{}:*?[\]\s]/);
      }),
    );
  });

  it('maps seq to entry ids and back, and orders ids numerically', () => {
    expect(seqOfEntryId('42-0')).toBe(42);
    expect(seqOfEntryId('1700000000000-3')).toBeUndefined();
    expect(seqOfEntryId('0-0')).toBeUndefined();
    expect(compareEntryIds('10-0', '9-0')).toBe(1);
    expect(compareEntryIds('9-1', '9-0')).toBe(1);
    expect(compareEntryIds('9-0', '9-0')).toBe(0);
  });
});
