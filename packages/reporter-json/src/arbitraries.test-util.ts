// fast-check generators of valid events and of secret-bearing text, shared by this package's tests.
// Events and secrets come from @headway/protocol/testing; the text that mixes them is this package's own.
import type { ProgressEvent } from '@headway/protocol';
import { progressEventArbitraries, secretArb } from '@headway/protocol/testing';
import fc from 'fast-check';

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
