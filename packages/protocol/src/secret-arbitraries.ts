// Secret-shaped text for the property tests of redaction. Part of the `@headway/protocol/testing` entry.
import fc from 'fast-check';

const alnum = (min: number, max: number): fc.Arbitrary<string> =>
  fc.string({
    unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'.split('')),
    minLength: min,
    maxLength: max,
  });
const upper = (n: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split('')), minLength: n, maxLength: n });

/**
 * Secret-shaped values as they appear in tool args and results: `text` holds `secret` (API
 * keys, cloud keys, bearer tokens, passwords, connection strings, PEM keys, JWTs). Whatever
 * redacts `text` must leave no trace of `secret`.
 *
 * @example
 * ```ts
 * fc.assert(fc.property(secretArb, (s) => { expect(redactString(s.text)).not.toContain(s.secret); }));
 * ```
 */
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
