import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberText, stringText } from './json-text.js';

describe('numberText', () => {
  it('writes what JSON.stringify writes for fixed edge cases', () => {
    const cases = [
      0,
      -0,
      1,
      -1,
      0.5,
      2 ** 30 - 1,
      2 ** 30,
      2 ** 31,
      1e8,
      1e8 - 1,
      1e8 + 1,
      1_795_800_388_271,
      1_799_999_999_999,
      1_800_000_000_000,
      1_234_567_899_999_999,
      Number.MAX_SAFE_INTEGER,
      Number.MAX_SAFE_INTEGER + 1,
      Number.MAX_SAFE_INTEGER + 3,
      -(2 ** 40),
      1e21,
      1e300,
      5e-324,
      0.0787870000001476,
      NaN,
      Infinity,
      -Infinity,
    ];
    for (const n of cases) expect(numberText(n), String(n)).toBe(JSON.stringify(n));
  });

  it('writes what JSON.stringify writes for any double, any safe integer and every integer just below a multiple of 10^8', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.maxSafeInteger(), fc.integer()), (n) => {
        expect(numberText(n)).toBe(JSON.stringify(n));
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 11, max: 90_071_992 }), fc.integer({ min: -3, max: 3 }), (k, d) => {
        const n = k * 100_000_000 + d;
        expect(numberText(n)).toBe(JSON.stringify(n));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('stringText', () => {
  it('writes what JSON.stringify writes for fixed edge cases', () => {
    const cases = [
      '',
      'ok',
      'call_1',
      '"',
      '\\',
      '\n',
      '\u0000',
      '\u001f',
      '\u007f',
      '\u2028',
      '\ud800',
      '\udfff',
      '\ud83d\ude00',
      'a"b\\c',
      '€ — é',
    ];
    for (const s of cases) expect(stringText(s), JSON.stringify(s)).toBe(JSON.stringify(s));
  });

  it('writes what JSON.stringify writes for any string, lone surrogates and control characters included', () => {
    const codeUnits = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 }).map((units) => String.fromCharCode(...units));
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ maxLength: 60 }), codeUnits), (s) => {
        expect(stringText(s)).toBe(JSON.stringify(s));
      }),
      { numRuns: 5000 },
    );
    // 1.5 s alone, 14-18 s while the whole suite ran (the package's default is 30 s): a hang guard.
  }, 120_000);
});
