import { HeadwayError } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withHeadway, type WithHeadwayOptions } from './index.js';

function attempt(options: unknown): unknown {
  try {
    return withHeadway(options as WithHeadwayOptions);
  } catch (error) {
    return error;
  }
}

describe('withHeadway options', () => {
  it('names every offending field', () => {
    const error = attempt({
      task: 't',
      maxIterations: 1.5,
      hardStopAfterMs: -1,
      sinks: [42],
      steps: [{ name: '', weight: 0 }],
      extra: true,
    });
    expect(HeadwayError.isInstance(error, 'AI_SDK_INVALID_OPTIONS')).toBe(true);
    expect((error as HeadwayError).issues.map((i) => i.path)).toEqual([
      'sinks[0]',
      'maxIterations',
      'hardStopAfterMs',
      'steps[0].name',
      'steps[0].weight',
      '',
    ]);
    expect((error as HeadwayError).message).toContain('(root): unrecognized key: "extra"');
  });

  it('hostile options (anything, throwing getters, revoked proxies) give a run or AI_SDK_INVALID_OPTIONS, never another error', () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const getter = Object.defineProperty({ task: 't' }, 'maxIterations', {
      enumerable: true,
      get() {
        throw new Error('gotcha');
      },
    });
    for (const hostile of [revoked.proxy, getter, null, 'x', { task: 'x'.repeat(200_000) }]) {
      expect(HeadwayError.isInstance(attempt(hostile), 'AI_SDK_INVALID_OPTIONS')).toBe(true);
    }
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record(
            { task: fc.string(), maxIterations: fc.anything(), timeBudgetMs: fc.anything(), costOf: fc.anything() },
            { requiredKeys: [] },
          ),
        ),
        (options) => {
          const result = attempt(options);
          expect(HeadwayError.isInstance(result) ? result.code : 'run').toMatch(/^(run|AI_SDK_INVALID_OPTIONS)$/);
        },
      ),
      { numRuns: 300, timeout: 1_000 },
    );
  });
});
