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
  it('validates the stall options, naming each bad field', () => {
    const error = attempt({
      task: 't',
      stallPolicy: 'panic',
      stall: { repeatedCall: 1, noProgressIterations: 2.5, repeatedText: 1001, typo: 3 },
      pollTools: ['', 42],
    });
    expect(HeadwayError.isInstance(error, 'AI_SDK_INVALID_OPTIONS')).toBe(true);
    expect((error as HeadwayError).message).toBe(
      'withHeadway: invalid options: stallPolicy: must be "warn", "nudge", "wind-down" or a function; stall.repeatedCall: must be at least 2; stall.noProgressIterations: must be an integer; stall.repeatedText: must be at most 1000; stall: unrecognized key: "typo"; pollTools[0]: must be a non-empty tool name; pollTools[1]: invalid input: expected string, received number',
    );
    for (const stallPolicy of ['warn', 'nudge', 'wind-down', () => 'warn' as const]) {
      expect(HeadwayError.isInstance(attempt({ task: 't', stallPolicy, stall: { repeatedCall: 2 }, pollTools: ['job_status'] }))).toBe(
        false,
      );
    }
  });

  it("refuses the other bridges' stallDetector, pointing at its own stall options", () => {
    const error = attempt({ task: 't', stallDetector: {} });
    expect(HeadwayError.isInstance(error, 'AI_SDK_INVALID_OPTIONS')).toBe(true);
    expect((error as HeadwayError).message).toBe(
      'withHeadway: invalid options: stallDetector: is not an option of @headway/ai-sdk: use stallPolicy and stall',
    );
  });
});
