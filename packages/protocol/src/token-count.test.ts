import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTokenCount, tokenCountSchema } from './token-count.js';

describe('isTokenCount', () => {
  it('answers as tokenCountSchema does', () => {
    const edges = [
      0,
      -0,
      1,
      10,
      -1,
      0.5,
      1e21,
      NaN,
      Infinity,
      -Infinity,
      Number.MAX_SAFE_INTEGER,
      Number.MAX_SAFE_INTEGER + 1,
      '5',
      null,
      undefined,
      5n,
      {},
    ];
    for (const value of edges) expect(isTokenCount(value), typeof value).toBe(tokenCountSchema.safeParse(value).success);
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.double(), fc.integer({ min: -1000, max: 1000 }), fc.maxSafeInteger()), (value) => {
        expect(isTokenCount(value)).toBe(tokenCountSchema.safeParse(value).success);
      }),
      { numRuns: 500 },
    );
  });
});
