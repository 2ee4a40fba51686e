import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { finishReasonOf, usageOf } from './step-facts.js';

/** The finish reason as it was first written: every dash replaced with a regex. */
function finishReasonByRegex(reason: unknown): string | undefined {
  if (typeof reason !== 'string') return undefined;
  return reason.replace(/-/g, '_');
}

describe('finishReasonOf', () => {
  it("writes the AI SDK's reasons in the protocol's spelling", () => {
    const reasons = ['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other', 'unknown'];
    expect(reasons.map((reason) => finishReasonOf({ finishReason: reason }))).toEqual([
      'stop',
      'length',
      'content_filter',
      'tool_calls',
      'error',
      'other',
      'unknown',
    ]);
  });

  it('gives what the regex replacement gave, for any string and for what is not one', () => {
    const reason = fc.oneof(
      fc.constantFrom('tool-calls', 'content-filter', '-', '--', 'a-b-c', '', 'tool_calls'),
      fc.string(),
      fc.stringMatching(/^[a-z-]{0,12}$/),
      fc.anything(),
    );
    fc.assert(
      fc.property(reason, (value) => {
        expect(finishReasonOf({ finishReason: value as string })).toBe(finishReasonByRegex(value));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('usageOf', () => {
  it('keeps token counts and refuses what is not one', () => {
    expect(usageOf({ usage: { inputTokens: 10, outputTokens: 5 } })).toEqual({ inputTokens: 10, outputTokens: 5 });
    expect(usageOf({ usage: { inputTokens: 10, outputTokens: Number.NaN } })).toBeUndefined();
    expect(usageOf({})).toBeUndefined();
  });
});
