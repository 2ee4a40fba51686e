import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HeadwayError } from './headway-error.js';
import { ProtocolError } from './protocol-error.js';
import { createRedactor, redact, redactString } from './redact.js';
import { secretArb } from './secret-arbitraries.js';

const separator = fc.constantFrom(' ', '\n', ': ', '"', "'", '(', ', ', '\t', '=', '> ');
const filler = fc.string({ maxLength: 30 });

describe('redact', () => {
  it('lets no generated secret survive, wherever it sits in a value', () => {
    fc.assert(
      fc.property(
        secretArb,
        filler,
        separator,
        separator,
        filler,
        fc.constantFrom('string', 'object', 'array', 'deep'),
        (s, before, sep1, sep2, after, where) => {
          const line = `${before}${sep1}${s.text}${sep2}${after}`;
          const value =
            where === 'string' ? line : where === 'object' ? { note: line } : where === 'array' ? [1, line] : { a: { b: [{ c: line }] } };
          const out = JSON.stringify(redact(value));
          expect(out).not.toContain(s.secret);
        },
      ),
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
      users: [
        { name: 'a', ssn: '123' },
        { name: 'b', ssn: '456' },
      ],
      password: 'pw',
      nested: { token: { value: 'x' } },
    };
    expect(redact(input, { paths: ['detail.headers["x-custom-auth"]', 'users[*].ssn', 'users.*.nothing'] })).toEqual({
      detail: { args: { apiKey: '[REDACTED]', query: 'auth' }, headers: { 'x-custom-auth': '[REDACTED]' } },
      users: [
        { name: 'a', ssn: '[REDACTED]' },
        { name: 'b', ssn: '[REDACTED]' },
      ],
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
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toContain('"a..b"');
  });
});

describe('redact: secret names with any prefix or suffix', () => {
  it('replaces the value of NAME=value and NAME: value text whose name holds a secret', () => {
    const text = [
      'DB_PASSWORD=hunter2hunter2',
      'POSTGRES_PASSWORD: pg-secret-1',
      'export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIbPxRfiCYEXAMPLEKEY',
      'GITHUB_TOKEN=not-a-ghp-shaped-value',
      '"openai_api_key": "plainvalue123"',
      "stripe.private-key = 'quoted value with spaces'",
      'my_credentials:abc123',
      'SLACK_CLIENT_SECRET="unclosed to the end of the line',
    ].join('\n');
    expect(redactString(text)).toBe(
      [
        'DB_PASSWORD=[REDACTED]',
        'POSTGRES_PASSWORD: [REDACTED]',
        'export AWS_SECRET_ACCESS_KEY=[REDACTED]',
        'GITHUB_TOKEN=[REDACTED]',
        '"openai_api_key": [REDACTED]',
        'stripe.private-key = [REDACTED]',
        'my_credentials:[REDACTED]',
        'SLACK_CLIENT_SECRET=[REDACTED]',
      ].join('\n'),
    );
  });

  it('replaces values under object keys whose name holds a secret', () => {
    expect(
      redact({
        db_password: 'a',
        OPENAI_API_KEY: 'b',
        github_token: 'c',
        'x-api-key': 'd',
        nested: { privateKey: 'e', awsSecretAccessKey: 'f', userCredentials: { user: 'g' } },
        cookie: 'h',
      }),
    ).toEqual({
      db_password: '[REDACTED]',
      OPENAI_API_KEY: '[REDACTED]',
      github_token: '[REDACTED]',
      'x-api-key': '[REDACTED]',
      nested: { privateKey: '[REDACTED]', awsSecretAccessKey: '[REDACTED]', userCredentials: '[REDACTED]' },
      cookie: '[REDACTED]',
    });
  });

  it('keeps token usage, operators and type annotations readable', () => {
    const usage = { tokenCount: 1500, max_tokens: 4096, prompt_tokens: 12, tokenizer: 'cl100k', token_type: 'bearer', keyFindings: ['x'] };
    expect(redact(usage)).toEqual(usage);
    const text =
      'max_tokens=4096 tokenCount: 12 token_count=3 if (token == other) token => token.trim() Token::Kind apiKey: string | undefined';
    expect(redactString(text)).toBe(text);
  });
});

describe('redact: linear time on hostile input', () => {
  // Each input took seconds to minutes before the patterns were made linear; now each is a few
  // milliseconds. The test timeout turns a regression into a failure instead of a hung CI job.
  const n = 200_000;
  const hostile: [string, string][] = [
    ['letters (URL credentials)', 'a'.repeat(n)],
    ['a long scheme run', `${'a'.repeat(n)}://`],
    ['repeated eyJ- (JWT)', 'eyJ-'.repeat(n / 4)],
    ['repeated unclosed quoted values', 'password="'.repeat(n / 10)],
    ['repeated names without separators', 'DB_PASSWORD'.repeat(n / 11)],
    ['names separated by spaces and colons', 'token :'.repeat(n / 7)],
    ['PEM headers without an end', '-----BEGIN RSA PRIVATE KEY-----\n'.repeat(n / 32)],
    ['bearer with spaces', `Bearer${' '.repeat(n)}x`],
    ['key and letters', `key ${'a'.repeat(n)}`],
    ['type-like values with separators', `token: Optional[${'token=Optional['.repeat(n / 15)}`],
  ];
  it.each(hostile)(
    'redactString on %s',
    (_name, text) => {
      expect(typeof redactString(text)).toBe('string');
    },
    15_000,
  );

  it('redact on a deep object of huge strings', () => {
    const out = redact({ a: { b: ['a'.repeat(n), `api_key=${'x'.repeat(n)}`] } });
    expect(out.a.b[0] === 'a'.repeat(n)).toBe(true);
    expect(out.a.b[1]).toBe('api_key=[REDACTED]');
  }, 15_000);
});
