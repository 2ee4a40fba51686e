// fast-check generators of valid events and of secret-bearing text, shared by this package's tests.
// Events come from @headway/protocol/testing; the secret-bearing text is this package's own.
import type { ProgressEvent } from '@headway/protocol';
import { progressEventArbitraries } from '@headway/protocol/testing';
import fc from 'fast-check';

const alnum = (min: number, max: number): fc.Arbitrary<string> =>
  fc.string({
    unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'.split('')),
    minLength: min,
    maxLength: max,
  });
const upper = (n: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split('')), minLength: n, maxLength: n });

/** Secret-shaped values as they appear in tool args and results: `text` holds `secret`. */
export const secretArb: fc.Arbitrary<{ secret: string; text: string }> = fc.oneof(
  fc.tuple(fc.constantFrom('sk-', 'sk-proj-', 'sk-ant-api03-'), alnum(20, 60)).map(([p, s]) => ({ secret: s, text: `${p}${s}` })),
  fc.tuple(fc.constantFrom('AKIA', 'ASIA'), upper(16)).map(([p, s]) => ({ secret: `${p}${s}`, text: `${p}${s}` })),
  alnum(20, 60).map((s) => ({ secret: s, text: `Bearer ${s}` })),
  alnum(40, 40).map((s) => ({ secret: s, text: `ghp_${s}` })),
  alnum(20, 30).map((s) => ({ secret: s, text: `xoxb-${s}` })),
  alnum(35, 35).map((s) => ({ secret: `AIza${s}`, text: `AIza${s}` })),
  alnum(12, 30).map((s) => ({ secret: s, text: `password=${s}` })),
  alnum(12, 30).map((s) => ({ secret: s, text: `"api_key": "${s}"` })),
  alnum(12, 30).map((s) => ({ secret: s, text: `postgres://admin:${s}@db.internal:5432/app` })),
  alnum(40, 80).map((s) => ({ secret: s, text: `-----BEGIN RSA PRIVATE KEY-----\n${s}\n-----END RSA PRIVATE KEY-----` })),
  fc.tuple(alnum(12, 20), alnum(12, 20), alnum(12, 20)).map(([a, b, c]) => ({ secret: `${b}.${c}`, text: `eyJ${a}.eyJ${b}.${c}` })),
);

/**
 * Text of every kind: any unicode (lone surrogates, control characters, quotes,
 * newlines), fragments the secret detectors look for, and whole secrets.
 */
export const textArb: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40, unit: 'binary' }),
  fc.string({ maxLength: 40 }),
  fc
    .array(
      fc.oneof(
        fc.string({ maxLength: 6 }),
        fc.constantFrom(
          '\n',
          '"',
          '\\',
          '\u2028',
          '\ud800',
          'key',
          'Token ',
          'sk-',
          '://',
          'eyJ',
          'AKIA',
          'pwd=',
          'secret:',
          'ghp_',
          'xox',
          '-----BEGIN ',
        ),
        secretArb.map((s) => s.text),
      ),
      { maxLength: 6 },
    )
    .map((parts) => parts.join('')),
);

/** Valid events with ordinary text and JSON args. */
export const eventArb: fc.Arbitrary<ProgressEvent> = progressEventArbitraries().event;

/** Valid events whose text and args may hold anything, secrets included. */
export const wildEventArb: fc.Arbitrary<ProgressEvent> = progressEventArbitraries({
  text: textArb,
  json: fc.oneof(
    fc.jsonValue(),
    fc.dictionary(
      fc.constantFrom('apiKey', 'password', 'query', 'token', 'headers', 'Authorization', 'url'),
      fc.oneof(textArb, fc.jsonValue()),
    ),
  ),
}).event;
