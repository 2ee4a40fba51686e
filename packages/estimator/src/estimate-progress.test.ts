import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateProgress } from './estimate-progress.js';

describe('estimateProgress', () => {
  it('gives the documented values', () => {
    expect(estimateProgress(2, 10, 'tools')).toBe(25);
    expect(estimateProgress(2, 10, 'llm')).toBe(20);
    expect(estimateProgress(0, 10, 'llm')).toBe(0);
    expect(estimateProgress(0, 4, 'tools')).toBe(13);
    expect(estimateProgress(10, 10, 'llm')).toBe(99);
    expect(estimateProgress(45, 30, 'tools')).toBe(99);
  });

  it('throws ESTIMATOR_INVALID_ARGUMENT naming the bad argument', () => {
    expect(() => estimateProgress(-1, 10, 'llm')).toThrow(/roundtrip must be/);
    expect(() => estimateProgress(Number.NaN, 10, 'llm')).toThrow(expect.objectContaining({ code: 'ESTIMATOR_INVALID_ARGUMENT' }));
    expect(() => estimateProgress(1, 0, 'llm')).toThrow(/maxRoundtrips must be/);
    expect(() => estimateProgress(1, Number.POSITIVE_INFINITY, 'llm')).toThrow(/maxRoundtrips/);
    expect(() => estimateProgress(1, -3, 'tools')).toThrow('estimateProgress: maxRoundtrips must be a finite number > 0, got -3');
    expect(() => estimateProgress(1, 10, 'thinking' as 'llm')).toThrow(/phase/);
  });

  it('is the exact formula: an integer in 0–99, never lower for a later roundtrip or phase', () => {
    fc.assert(
      fc.property(fc.nat(500), fc.integer({ min: 1, max: 200 }), fc.constantFrom('llm' as const, 'tools' as const), (r, max, phase) => {
        const p = estimateProgress(r, max, phase);
        expect(p).toBe(Math.min(99, Math.round((r / max) * 100 + (phase === 'tools' ? 50 / max : 0))));
        expect(Number.isInteger(p) && p >= 0 && p <= 99).toBe(true);
        expect(estimateProgress(r, max, 'tools')).toBeGreaterThanOrEqual(estimateProgress(r, max, 'llm'));
        expect(estimateProgress(r + 1, max, 'llm')).toBeGreaterThanOrEqual(estimateProgress(r, max, 'tools'));
      }),
    );
  });
});
