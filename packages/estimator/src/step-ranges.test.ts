import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapProgressToRange } from './map-progress-to-range.js';
import { computeStepRanges } from './step-ranges.js';

describe('computeStepRanges', () => {
  it('lays weights 20/60/20 over 10–90 as 10–26, 26–74, 74–90', () => {
    expect(
      computeStepRanges([
        { name: 'Initial Analysis', weight: 20 },
        { name: 'Generate Content', weight: 60 },
        { name: 'Validate', weight: 20 },
      ]),
    ).toEqual([
      { name: 'Initial Analysis', weight: 20, start: 10, end: 26 },
      { name: 'Generate Content', weight: 60, start: 26, end: 74 },
      { name: 'Validate', weight: 20, start: 74, end: 90 },
    ]);
  });

  it('uses the total when weights do not sum to 100, and honours custom bounds', () => {
    expect(computeStepRanges([{ name: 'a', weight: 1 }, { name: 'b', weight: 3 }])).toEqual([
      { name: 'a', weight: 1, start: 10, end: 30 },
      { name: 'b', weight: 3, start: 30, end: 90 },
    ]);
    expect(computeStepRanges([{ name: 'a', weight: 5 }, { name: 'b', weight: 5 }], { start: 0, end: 100 })).toEqual([
      { name: 'a', weight: 5, start: 0, end: 50 },
      { name: 'b', weight: 5, start: 50, end: 100 },
    ]);
    expect(computeStepRanges([])).toEqual([]);
  });

  it('rejects zero, negative or non-finite weights, naming the step', () => {
    expect(() => computeStepRanges([{ name: 'ok', weight: 1 }, { name: 'Search', weight: 0 }])).toThrow(/step 1 \("Search"\) has weight 0/);
    expect(() => computeStepRanges([{ name: 'Parse', weight: -2 }])).toThrow(/"Parse"/);
    expect(() => computeStepRanges([{ name: 'Rank', weight: Number.NaN }])).toThrow(RangeError);
    expect(() => computeStepRanges([{ name: 'Rank', weight: Number.POSITIVE_INFINITY }])).toThrow(/"Rank"/);
    expect(() => computeStepRanges([{ name: 'a', weight: 1 }], { start: 50, end: 10 })).toThrow(/end must be/);
  });

  it('tiles start–end contiguously, in order, in proportion to weight', () => {
    const weights = fc.array(fc.double({ min: 0.01, max: 1000, noNaN: true }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(weights, (ws) => {
        const ranges = computeStepRanges(ws.map((weight, i) => ({ name: `s${i}`, weight })));
        const total = ws.reduce((a, b) => a + b, 0);
        expect(ranges[0]!.start).toBe(10);
        expect(ranges.at(-1)!.end).toBeCloseTo(90, 9);
        for (const [i, r] of ranges.entries()) {
          expect(r.end - r.start).toBeCloseTo((ws[i]! / total) * 80, 9);
          if (i > 0) expect(r.start).toBeCloseTo(ranges[i - 1]!.end, 9);
        }
      }),
    );
  });
});

describe('mapProgressToRange', () => {
  it('maps a worker percent into its slice of the parent', () => {
    expect(mapProgressToRange(50, { start: 30, end: 60 })).toBe(45);
    expect(mapProgressToRange(0, { start: 26, end: 74 })).toBe(26);
    expect(mapProgressToRange(100, { start: 26, end: 74 })).toBe(74);
    expect(mapProgressToRange(150, { start: 30, end: 60 })).toBe(60);
    expect(mapProgressToRange(-20, { start: 30, end: 60 })).toBe(30);
  });

  it('rejects NaN and non-finite bounds', () => {
    expect(() => mapProgressToRange(Number.NaN, { start: 0, end: 10 })).toThrow(/local/);
    expect(() => mapProgressToRange(1, { start: Number.NaN, end: 10 })).toThrow(/range.start/);
    expect(() => mapProgressToRange(1, { start: 0, end: Number.POSITIVE_INFINITY })).toThrow(/range.end/);
  });

  it('stays inside the slice and never decreases as local grows', () => {
    fc.assert(
      fc.property(fc.double({ min: -50, max: 150, noNaN: true }), fc.double({ min: 0, max: 50, noNaN: true }), fc.nat(50), fc.nat(20), (local, start, width, step) => {
        const range = { start, end: start + width };
        const p = mapProgressToRange(local, range);
        expect(p).toBeGreaterThanOrEqual(Math.round(start));
        expect(p).toBeLessThanOrEqual(Math.round(start + width));
        expect(mapProgressToRange(local + step, range)).toBeGreaterThanOrEqual(p);
      }),
    );
  });
});
