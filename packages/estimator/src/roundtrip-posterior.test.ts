import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RoundtripPosterior } from './roundtrip-posterior.js';
import type { TaskHistory } from './task-history.js';

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

// The prior as it was first built (the log of the cap share computed for every n, no tables shared
// between trackers): the tables built now must be the very same numbers, bit for bit.
function referenceTables(cap: number | undefined, history: TaskHistory | undefined): Float64Array[] {
  const UNINFORMED_SHARE = 0.5;
  const BEYOND_CAP_SHARE = 0.05;
  const BEYOND_CAP_ALPHA = 1.5;
  const HISTORY_BANDWIDTH = 0.45;
  const GRID_LIMIT = 20_000;
  const HISTORY_LIMIT = 500;
  const normalise = (values: Float64Array): void => {
    let sum = 0;
    for (const v of values) sum += v;
    if (sum > 0) for (let i = 0; i < values.length; i++) values[i] = (values[i] ?? 0) / sum;
  };

  const counts = (history?.runs.slice(-HISTORY_LIMIT) ?? []).map((r) => r.roundtrips).filter((n) => Number.isFinite(n) && n >= 1);
  const cap0 = cap !== undefined && Number.isFinite(cap) && cap >= 1 ? Math.floor(cap) : undefined;
  const longest = Math.max(cap0 ?? 0, ...counts, 8);
  const size = Math.min(GRID_LIMIT, longest * 16);
  const mass = new Float64Array(size + 1);
  const uninformed = new Float64Array(size + 1);
  const scale = cap0 ?? Math.max(30, ...counts);
  for (let n = 1; n <= size; n++) {
    uninformed[n] = n <= scale ? 1 / n : (BEYOND_CAP_SHARE / Math.log(scale + 1)) * (1 / n) * (scale / n) ** BEYOND_CAP_ALPHA;
  }
  normalise(uninformed);
  if (counts.length > 0) {
    const learned = new Float64Array(size + 1);
    const multiplicity = new Map<number, number>();
    for (const c of counts) multiplicity.set(c, (multiplicity.get(c) ?? 0) + 1);
    const kernels = [...multiplicity].map(([c, k]) => ({ log: Math.log(c), k }));
    for (let n = 1; n <= size; n++) {
      let density = 0;
      const logN = Math.log(n);
      for (const { log, k } of kernels) {
        const z = (logN - log) / HISTORY_BANDWIDTH;
        if (z > -8 && z < 8) density += k * Math.exp(-0.5 * z * z);
      }
      // The kernel lives in log space; per integer n it is divided by n.
      learned[n] = density / n;
    }
    if (cap0 !== undefined && cap0 < size) {
      // An enforced cap ends longer runs at the cap: fold most of their mass onto it.
      let beyond = 0;
      for (let n = cap0 + 1; n <= size; n++) beyond += learned[n] ?? 0;
      for (let n = cap0 + 1; n <= size; n++) learned[n] = (learned[n] ?? 0) * BEYOND_CAP_SHARE;
      learned[cap0] = (learned[cap0] ?? 0) + beyond * (1 - BEYOND_CAP_SHARE);
    }
    normalise(learned);
    for (let n = 1; n <= size; n++) mass[n] = (1 - UNINFORMED_SHARE) * (learned[n] ?? 0) + UNINFORMED_SHARE * (uninformed[n] ?? 0);
  } else {
    mass.set(uninformed);
  }
  normalise(mass);
  const tail = new Float64Array(size + 2);
  const tailOverN = new Float64Array(size + 2);
  for (let n = size; n >= 1; n--) {
    tail[n] = (tail[n + 1] ?? 0) + (mass[n] ?? 0);
    tailOverN[n] = (tailOverN[n + 1] ?? 0) + (mass[n] ?? 0) / n;
  }
  return [mass, tail, tailOverN];
}

/** Where two lists of tables first differ in any bit (table × 1e6 + index), or -1 when every number is the same. */
function firstDifference(actual: Float64Array[], expected: Float64Array[]): number {
  if (actual.length !== expected.length) return -2;
  for (const [t, a] of actual.entries()) {
    const e = expected[t];
    if (a.length !== e?.length) return t * 1e6 + 999_999;
    const x = Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    const y = Buffer.from(e.buffer, e.byteOffset, e.byteLength);
    if (!x.equals(y)) return t * 1e6 + a.findIndex((v, i) => !Object.is(v, e[i]));
  }
  return -1;
}

describe('RoundtripPosterior tables', () => {
  const tablesOf = (p: RoundtripPosterior): Float64Array[] => {
    const fields = p as unknown as { mass: Float64Array; tail: Float64Array; tailOverN: Float64Array };
    return [fields.mass, fields.tail, fields.tailOverN];
  };

  it('are the numbers the first implementation built, for every cap and for history (property)', () => {
    const historyArb = fc.option(
      fc.record({
        runs: fc.array(fc.record({ roundtrips: fc.integer({ min: 1, max: 60 }), durationMs: fc.constant(1000) }), { maxLength: 8 }),
      }),
      { nil: undefined },
    );
    const capArb = fc.oneof(fc.integer({ min: 1, max: 120 }), fc.constantFrom(undefined, Number.POSITIVE_INFINITY, 2.5));
    fc.assert(
      fc.property(capArb, historyArb, (cap, history) => {
        // Twice: the second tracker of a cap reads the tables the first one built.
        const expected = referenceTables(cap, history);
        for (let i = 0; i < 2; i++) expect(firstDifference(tablesOf(new RoundtripPosterior(cap, history)), expected)).toBe(-1);
      }),
      { numRuns: 150 },
    );
  });

  it('are shared by trackers of one cap without history, and each tracker answers the same', () => {
    const a = new RoundtripPosterior(40, undefined);
    const b = new RoundtripPosterior(40, undefined);
    expect(tablesOf(a)[0]).toBe(tablesOf(b)[0]);
    expect(tablesOf(new RoundtripPosterior(40, { runs: [{ roundtrips: 4, durationMs: 1 }] }))[0]).not.toBe(tablesOf(a)[0]);
    for (let r = 1; r <= 45; r++)
      expect([a.fractionDone(r - 0.5, r), a.quantile(0.5, r)]).toEqual([b.fractionDone(r - 0.5, r), b.quantile(0.5, r)]);
  });
});
