import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount, formatDuration } from './text.js';

describe('formatDuration', () => {
  it.each([
    [0, '0ms'],
    [850.4, '850ms'],
    [1_000, '1.0s'],
    [1_234, '1.2s'],
    [9_999, '9.9s'],
    [42_000, '42s'],
    [65_000, '1m 05s'],
    [3_599_999, '59m 59s'],
    [3_720_000, '1h 02m'],
    [-5, '0ms'],
    [Number.NaN, '0ms'],
    [Number.POSITIVE_INFINITY, '0ms'],
  ])('%s ms reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('never decreases as the duration grows', () => {
    const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
    const seconds = (t: string): number =>
      t.split(' ').reduce((sum, part) => {
        const [, n, u] = /^(\d+(?:\.\d)?)(ms|[hms])$/.exec(part)!;
        return sum + Number(n) * unit[u!]!;
      }, 0);
    fc.assert(
      fc.property(fc.nat(10_000_000), fc.nat(10_000_000), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(seconds(formatDuration(lo))).toBeLessThanOrEqual(seconds(formatDuration(hi)));
      }),
    );
  });
});

describe('formatCount', () => {
  it.each([
    [0, '0'],
    [-0, '-0'],
    [7, '7'],
    [999, '999'],
    [1000, '1,000'],
    [12_345, '12,345'],
    [2.5, '2.5'],
    [-3, '-3'],
  ])('%s reads %s', (n, text) => {
    expect(formatCount(n)).toBe(text);
  });

  it('writes every number as Intl.NumberFormat en-US does', () => {
    const intl = new Intl.NumberFormat('en-US');
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -2000, max: 2000 }), fc.double()), (n) => {
        expect(formatCount(n)).toBe(intl.format(n));
      }),
    );
  });
});
