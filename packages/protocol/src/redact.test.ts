import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HeadwayError } from './headway-error.js';
import { createRedactor, redact, redactString } from './redact.js';

const alnum = (min: number, max: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'.split('')), minLength: min, maxLength: max });
const upper = (n: number): fc.Arbitrary<string> => fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split('')), minLength: n, maxLength: n });

/** Secret-shaped values as they appear in real tool args and results. */
const secretArb: fc.Arbitrary<{ secret: string; text: string }> = fc.oneof(
  fc.tuple(fc.constantFrom('sk-', 'sk-proj-', 'sk-ant-api03-'), alnum(20, 60)).map(([p, s]) => ({ secret: s, text: `${p}${s}` })),
  fc.tuple(fc.constantFrom('AKIA', 'ASIA'), upper(16)).map(([p, s]) => ({ secret: `${p}${s}`, text: `${p}${s}` })),
  alnum(20, 60).map((s) => ({ secret: s, text: `Bearer ${s}` })),
  alnum(40, 40).map((s) => ({ secret: s, text: `ghp_${s}` })),
  alnum(12, 30).map((s) => ({ secret: s, text: `password=${s}` })),
  alnum(12, 30).map((s) => ({ secret: s, text: `"api_key": "${s}"` })),
  alnum(12, 30).map((s) => ({ secret: s, text: `postgres://admin:${s}@db.internal:5432/app` })),
  alnum(40, 80).map((s) => ({
    secret: s,
    text: `-----BEGIN RSA PRIVATE KEY-----\n${s}\n-----END RSA PRIVATE KEY-----`,
  })),
  fc.tuple(alnum(12, 20), alnum(12, 20), alnum(12, 20)).map(([a, b, c]) => ({ secret: `${b}.${c}`, text: `eyJ${a}.eyJ${b}.${c}` })),
);

const separator = fc.constantFrom(' ', '\n', ': ', '"', "'", '(', ', ', '\t', '=', '> ');
const filler = fc.string({ maxLength: 30 });

describe('redact', () => {
  it('lets no generated secret survive, wherever it sits in a value', () => {
    fc.assert(
      fc.property(secretArb, filler, separator, separator, filler, fc.constantFrom('string', 'object', 'array', 'deep'), (s, before, sep1, sep2, after, where) => {
        const line = `${before}${sep1}${s.text}${sep2}${after}`;
        const value =
          where === 'string' ? line : where === 'object' ? { note: line } : where === 'array' ? [1, line] : { a: { b: [{ c: line }] } };
        const out = JSON.stringify(redact(value));
        expect(out).not.toContain(s.secret);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps type annotations in code intact', () => {
    const code = 'function verifyToken(token: string, password: str): boolean { const apiKey: string | undefined = env.KEY; }';
    expect(redactString(code)).toBe(code);
    expect(redactString('token: abc123def456ghi')).toBe('token: [REDACTED]');
  });

  it('keeps ordinary text intact', () => {
    const text = 'task-manager-for-the-summarize-step ran; tokenCount=1500 Authorization header missing';
    expect(redactString(text)).toBe(text);
    expect(redact({ tokenCount: 1500, step: 'llm-1', skip: 'sk-short' })).toEqual({ tokenCount: 1500, step: 'llm-1', skip: 'sk-short' });
  });

  it('replaces secret-shaped text but keeps its label', () => {
    expect(redactString('curl -H "Authorization: Bearer abcdefghijklmnop1234" https://x')).toBe(
      'curl -H "Authorization: Bearer [REDACTED]" https://x',
    );
    expect(redactString('login password=hunter2hunter2 ok')).toBe('login password=[REDACTED] ok');
    expect(redactString('db postgres://admin:s3cretpass@db:5432/app')).toBe('db postgres://admin:[REDACTED]@db:5432/app');
  });

  it('replaces configured key paths with wildcards, and secret-named keys', () => {
    const input = {
      detail: { args: { apiKey: 'plain-looking', query: 'auth' }, headers: { 'x-custom-auth': 'abc' } },
      users: [{ name: 'a', ssn: '123' }, { name: 'b', ssn: '456' }],
      password: 'pw',
      nested: { token: { value: 'x' } },
    };
    expect(redact(input, { paths: ['detail.headers["x-custom-auth"]', 'users[*].ssn', 'users.*.nothing'] })).toEqual({
      detail: { args: { apiKey: '[REDACTED]', query: 'auth' }, headers: { 'x-custom-auth': '[REDACTED]' } },
      users: [{ name: 'a', ssn: '[REDACTED]' }, { name: 'b', ssn: '[REDACTED]' }],
      password: '[REDACTED]',
      nested: { token: '[REDACTED]' },
    });
    expect(redact({ a: { b: 'x' } }, { paths: ['*.b'], censor: '***' })).toEqual({ a: { b: '***' } });
    expect(redact({ password: 'pw' }, { secretKeys: false })).toEqual({ password: 'pw' });
  });

  it('returns a deep copy and marks cycles', () => {
    const input: Record<string, unknown> = { list: [1, { k: 'v' }], when: new Date(0) };
    input.self = input;
    const out = redact(input);
    expect(out).not.toBe(input);
    expect(out.list).not.toBe(input.list);
    expect(out.self).toBe('[Circular]');
    expect(out.when).toEqual(new Date(0));
    const shared = { k: 1 };
    expect(redact({ a: shared, b: shared })).toEqual({ a: { k: 1 }, b: { k: 1 } });
    expect(redact(new Error('password=abcdefgh1234 leaked'))).toEqual({ name: 'Error', message: 'password=[REDACTED] leaked' });
  });

  it('rejects a malformed path with a HeadwayError naming it', () => {
    let error: unknown;
    try {
      createRedactor({ paths: ['a..b'] });
    } catch (e) {
      error = e;
    }
    expect(HeadwayError.isInstance(error, 'REDACT_INVALID_PATH')).toBe(true);
    expect((error as Error).message).toContain('"a..b"');
  });
});
