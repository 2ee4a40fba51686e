import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RoundtripPosterior } from './roundtrip-posterior.js';

describe('RoundtripPosterior', () => {
  it('without history is log-uniform up to the cap: E[r/N | N >= r] in closed form', () => {
    const p = new RoundtripPosterior(30, undefined);
    // Mostly mass 1/n for n <= 30; the small tail beyond the cap nudges it down a little.
    let tail = 0;
    let tailOverN = 0;
    for (let n = 5; n <= 30; n++) {
      tail += 1 / n;
      tailOverN += 1 / (n * n);
    }
    expect(p.fractionDone(5, 5)).toBeLessThan((5 * tailOverN) / tail);
    expect(p.fractionDone(5, 5)).toBeGreaterThan((5 * tailOverN) / tail - 0.05);
    expect(p.fractionDone(0, 1)).toBe(0);
  });

  it('learns from history: runs of about 4 roundtrips put 4 of a cap of 30 near the end', () => {
    const history = { runs: Array.from({ length: 20 }, () => ({ roundtrips: 4, durationMs: 1000 })) };
    const learned = new RoundtripPosterior(30, history);
    const blind = new RoundtripPosterior(30, undefined);
    expect(learned.fractionDone(4, 4)).toBeGreaterThan(0.6);
    expect(learned.fractionDone(4, 4)).toBeGreaterThan(blind.fractionDone(4, 4) + 0.15);
    expect(learned.remaining(4, 5)).toBeLessThan(blind.remaining(4, 5));
  });

  it('gives a fraction in 0–1 that grows with position, and a positive remaining count', () => {
    const historyArb = fc.option(
      fc.record({ runs: fc.array(fc.record({ roundtrips: fc.integer({ min: 1, max: 300 }), durationMs: fc.nat() }), { maxLength: 30 }) }),
      {
        nil: undefined,
      },
    );
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined }),
        historyArb,
        fc.integer({ min: 1, max: 400 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (cap, history, r, share) => {
          const p = new RoundtripPosterior(cap, history);
          const low = p.fractionDone(r - 1 + share * 0.5, r);
          const high = p.fractionDone(r - 1 + share, r);
          expect(low).toBeGreaterThanOrEqual(0);
          expect(high).toBeLessThanOrEqual(1);
          expect(high).toBeGreaterThanOrEqual(low);
          expect(p.remaining(r - 1 + share, r)).toBeGreaterThan(0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('finds a quantile by bisection where a scan from atLeast upwards finds it', () => {
    /** The scan the bisection replaced: accumulate mass from atLeast until the goal is reached. */
    const scanned = (p: RoundtripPosterior, q: number, atLeast: number): number => {
      const { mass, tail, size } = p as unknown as { mass: Float64Array; tail: Float64Array; size: number };
      const r = Math.max(1, Math.ceil(atLeast));
      if (r > size || (tail[r] ?? 0) <= 0) return 2 * r;
      const goal = q * (tail[r] ?? 0);
      let acc = 0;
      for (let n = r; n <= size; n++) {
        const m = mass[n] ?? 0;
        if (acc + m >= goal) return n - 1 + (m > 0 ? (goal - acc) / m : 1);
        acc += m;
      }
      return size;
    };
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 1, max: 400 }), { nil: undefined }),
        fc.array(fc.integer({ min: 1, max: 300 }), { maxLength: 30 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 500, noNaN: true }),
        (cap, counts, q, atLeast) => {
          const history = counts.length === 0 ? undefined : { runs: counts.map((roundtrips) => ({ roundtrips, durationMs: 1000 })) };
          const p = new RoundtripPosterior(cap, history);
          // The two sum the same masses in another order: equal up to rounding, which the thin
          // far tail (a tiny mass to interpolate in) magnifies a little.
          const expected = scanned(p, q, atLeast);
          expect(Math.abs(p.quantile(q, atLeast) - expected)).toBeLessThanOrEqual(1e-6 * Math.max(1, expected));
        },
      ),
      { numRuns: 300 },
    );
  });
});
