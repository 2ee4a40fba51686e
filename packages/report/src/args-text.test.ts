import { createRedactor, safeStringify, type RedactOptions } from '@headway/protocol';
import { cutText } from '@headway/protocol/internal';
import { HOSTILE_RUN_PARAMETERS, HOSTILE_TEST_TIMEOUT, hostileValueArb } from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argsText } from './args-text.js';

/** What the log wrote before: the redacted arguments through safeStringify, cut. */
const reference = (redacted: unknown, max: number): string => cutText(safeStringify(redacted) ?? '', max);

const REDACTIONS: RedactOptions[] = [{}, { paths: ['a', 'b.c'] }, { secretKeys: false }, { censor: '***' }];

/** Plain data and everything around it that JSON treats specially. */
const valueArb: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', '\ud83d', '\ude00', '😀', 'é'), maxLength: 300 }),
    fc.double(),
    fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, 1e21, 5e-7, true, false, null, undefined),
    fc.bigInt(),
    fc.constantFrom(
      () => 1,
      Symbol('s'),
      new Date(0),
      new Date(Number.NaN),
      new Map([['k', 1]]),
      new Set([1]),
      new Uint8Array([1, 2]),
      new Error('boom'),
      { toJSON: () => 'custom' },
      {
        toJSON: () => {
          throw new Error('toJSON throws');
        },
      },
      JSON.parse('{"__proto__":{"x":1},"y":2}') as unknown,
      JSON.parse('{"__proto__":3,"y":2}') as unknown,
      // eslint-disable-next-line no-sparse-arrays -- a hole is written as null
      [1, , 3],
      Object.create(null) as unknown,
    ),
    fc.array(tie('value'), { maxLength: 6 }),
    fc.dictionary(
      fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('password', 'apiKey', 'a', 'b', 'c', '1', '10', 'toJSON')),
      tie('value'),
      {
        maxKeys: 6,
      },
    ),
  ),
})).value;

describe('argsText', () => {
  it('writes what safeStringify writes of a redactor output, cut the same (property)', () => {
    fc.assert(
      fc.property(valueArb, fc.constantFrom(...REDACTIONS), fc.constantFrom(0, 1, 2, 3, 7, 40, 200, 5_000), (value, options, max) => {
        const redacted = createRedactor(options)(value);
        expect(argsText(redacted, max)).toBe(reference(redacted, max));
      }),
      { numRuns: 3000 },
    );
  });

  it(
    'agrees with it on hostile values too, and never throws (property, time-limited)',
    () => {
      const redactArgs = createRedactor({});
      fc.assert(
        fc.property(hostileValueArb(), (value) => {
          const redacted = redactArgs(value);
          expect(argsText(redacted, 200)).toBe(reference(redacted, 200));
        }),
        HOSTILE_RUN_PARAMETERS,
      );
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it('writes no further than the cut, and past it still falls back for what JSON cannot write', () => {
    const huge = { items: Array.from({ length: 200_000 }, (_, i) => ({ id: i, path: `src/file-${i}.ts` })) };
    const text = argsText(huge, 200);
    expect(text).toHaveLength(200);
    expect(text).toBe(reference(huge, 200));
    expect(text.startsWith('{"items":[{"id":0,"path":"src/file-0.ts"},{"id":1,')).toBe(true);
    const failsLate = [
      'a'.repeat(300),
      {
        toJSON: () => {
          throw new Error('no');
        },
      },
    ];
    expect(argsText(failsLate, 200)).toBe('"[unserializable]"');
  });

  it('writes common arguments exactly', () => {
    expect(argsText({}, 200)).toBe('{}');
    expect(argsText({ query: 'auth', limit: 5, deep: [true, null, undefined], skip: undefined }, 200)).toBe(
      '{"query":"auth","limit":5,"deep":[true,null,null]}',
    );
    expect(argsText(undefined, 200)).toBe('');
    expect(argsText(10n, 200)).toBe('"10"');
  });
});
