import { HeadwayError } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapProgressToRange } from './map-progress-to-range.js';
import { computeStepRanges } from './step-ranges.js';

function errorOf(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (e) {
    if (HeadwayError.isInstance(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected a throw');
}

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
    expect(
      computeStepRanges([
        { name: 'a', weight: 1 },
        { name: 'b', weight: 3 },
      ]),
    ).toEqual([
      { name: 'a', weight: 1, start: 10, end: 30 },
      { name: 'b', weight: 3, start: 30, end: 90 },
    ]);
    expect(
      computeStepRanges(
        [
          { name: 'a', weight: 5 },
          { name: 'b', weight: 5 },
        ],
        { start: 0, end: 100 },
      ),
    ).toEqual([
      { name: 'a', weight: 5, start: 0, end: 50 },
      { name: 'b', weight: 5, start: 50, end: 100 },
    ]);
    expect(computeStepRanges([])).toEqual([]);
  });

  it('rejects zero, negative or non-finite weights with ESTIMATOR_INVALID_ARGUMENT, naming the step', () => {
    expect(
      errorOf(() =>
        computeStepRanges([
          { name: 'ok', weight: 1 },
          { name: 'Search', weight: 0 },
        ]),
      ),
    ).toEqual({
      code: 'ESTIMATOR_INVALID_ARGUMENT',
      message: 'computeStepRanges: steps[1].weight is 0 (step "Search"); expected a positive finite number',
    });
    expect(errorOf(() => computeStepRanges([{ name: 'Parse', weight: -2 }])).message).toMatch(/steps\[0\]\.weight is -2 \(step "Parse"\)/);
    expect(errorOf(() => computeStepRanges([{ name: 'Rank', weight: Number.NaN }])).code).toBe('ESTIMATOR_INVALID_ARGUMENT');
    expect(errorOf(() => computeStepRanges([{ name: 'Rank', weight: Number.POSITIVE_INFINITY }])).message).toMatch(
      /weight is Infinity \(step "Rank"\)/,
    );
    expect(errorOf(() => computeStepRanges([{ name: 'a', weight: 1 }], { start: 50, end: 10 })).message).toBe(
      'computeStepRanges: end must be finite and >= start, got 10',
    );
    expect(errorOf(() => computeStepRanges([{ name: 'a', weight: '5' as unknown as number }])).message).toMatch(
      /weight is 5 \(step "a"\); expected a positive finite number/,
    );
  });

  it('lays out huge and tiny weights without overflow: two weights of 1e308 split 10–90 in half', () => {
    expect(
      computeStepRanges([
        { name: 'a', weight: 1e308 },
        { name: 'b', weight: 1e308 },
      ]).map((r) => [r.start, r.end]),
    ).toEqual([
      [10, 50],
      [50, 90],
    ]);
    expect(
      computeStepRanges([
        { name: 'a', weight: Number.MAX_VALUE },
        { name: 'b', weight: Number.MIN_VALUE },
      ]).map((r) => [r.start, r.end]),
    ).toEqual([
      [10, 90],
      [90, 90],
    ]);
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
    expect(errorOf(() => mapProgressToRange(Number.NaN, { start: 0, end: 10 }))).toEqual({
      code: 'ESTIMATOR_INVALID_ARGUMENT',
      message: 'mapProgressToRange: local must be a number, got NaN',
    });
    expect(() => mapProgressToRange(1, { start: Number.NaN, end: 10 })).toThrow(/range.start/);
    expect(() => mapProgressToRange(1, { start: 0, end: Number.POSITIVE_INFINITY })).toThrow(/range.end/);
  });

  it('stays inside the slice and never decreases as local grows', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -50, max: 150, noNaN: true }),
        fc.double({ min: 0, max: 50, noNaN: true }),
        fc.nat(50),
        fc.nat(20),
        (local, start, width, step) => {
          const range = { start, end: start + width };
          const p = mapProgressToRange(local, range);
          expect(p).toBeGreaterThanOrEqual(Math.round(start));
          expect(p).toBeLessThanOrEqual(Math.round(start + width));
          expect(mapProgressToRange(local + step, range)).toBeGreaterThanOrEqual(p);
        },
      ),
    );
  });
});
