import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactAssignments } from './redact-assignments.js';
import { mayContainSecret, redactString } from './redact.js';

// One sample per detector of redactString, in its order, then secret names.
const SAMPLES = [
  '-----BEGIN OPENSSH PRIVATE KEY-----\nabc',
  'Authorization: Basic dXNlcjpwYXNzd29yZA==',
  'token abcdefghijklmnop',
  'key sk-ant-api03-abcdefghijklmnopqrst',
  'id ASIAABCDEFGHIJKLMNOP',
  'github_pat_abcdefghijklmnopqrstuvwxyz',
  'xoxp-1234567890-abc',
  'AIzaSyA1234567890abcdefghijklmnopqrstuv',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijk',
  'https://user:hunter2@example.com',
  'PWD: "hunter2"',
  'client-secret=abc',
  'DB_PASSWORD=abc',
  'my_credentials: abc',
  'stripe_private_key=abc',
];

const fragmentText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.string({ maxLength: 6, unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
      fc.constantFrom(
        '\n',
        '"',
        "'",
        '=',
        ': ',
        ' ',
        '_',
        '-',
        'key',
        'Token ',
        'sk-',
        '://',
        '@',
        'eyJ',
        '.',
        'AKIA',
        'pwd',
        'PASS',
        'WORD',
        'secret',
        'credential',
        'api',
        'private',
        'access',
        'ghp_',
        'xox',
        '-----BEGIN ',
        'abcdefghijklmnopqrstuvwxyz0123456789',
      ),
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));

describe('mayContainSecret', () => {
  it('flags a sample of every detector and of secret names', () => {
    for (const sample of SAMPLES) {
      expect(redactString(sample)).not.toBe(sample);
      expect(mayContainSecret(sample)).toBe(true);
    }
  });

  it('is a superset: text it lets through is text redactString leaves unchanged', () => {
    fc.assert(
      fc.property(fragmentText, (text) => {
        if (!mayContainSecret(text)) expect(redactString(text)).toBe(text);
      }),
      { numRuns: 5000 },
    );
  });

  it('lets ordinary progress text through without a scan', () => {
    for (const text of ['Analyzing input', 'file_read', 'ok', 'finished after 2 iteration(s)', 'run-1', 'tool.completed']) {
      expect(mayContainSecret(text)).toBe(false);
    }
  });
});

/**
 * redactString as it was, with `X{n,}` quantifiers (now `X{n}X*`) and one lazy pattern for
 * private keys (now two searches): the reference the current code must match exactly.
 */
const AT_LEAST_FORMS: readonly [RegExp, (censor: string, match: string, group: string) => string][] = [
  [/-----BEGIN [A-Z\d ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z\d ]*PRIVATE KEY-----|$)/g, (c) => c],
  [/\b(Bearer|Basic|Token)\s+[\w\-.~+/]{8,}=*/gi, (c, _m, scheme) => `${scheme} ${c}`],
  [/(?<![A-Za-z\d])sk-[\w-]{16,}/g, (c) => c],
  [/(?<![A-Z\d])(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z\d]{16}(?![A-Z\d])/g, (c) => c],
  [/(?<![A-Za-z\d])(?:gh[pousr]_[A-Za-z\d]{30,}|github_pat_\w{22,})/g, (c) => c],
  [/(?<![A-Za-z\d])xox[abprs]-[A-Za-z\d-]{10,}/g, (c) => c],
  [/(?<![A-Za-z\d])AIza[\w-]{35}/g, (c) => c],
  [/(?<![\w-])eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}/g, (c) => c],
  [/(?<![a-z\d+.-])([a-z][a-z\d+.-]*:\/\/[^\s:/@]+:)[^\s/@]+@/gi, (c, _m, prefix) => `${prefix}${c}@`],
];

function redactWithAtLeastForms(text: string): string {
  if (!mayContainSecret(text)) return text;
  let out = text;
  for (const [pattern, replace] of AT_LEAST_FORMS)
    out = out.replace(pattern, (match: string, group: unknown) => replace('[REDACTED]', match, typeof group === 'string' ? group : ''));
  return redactAssignments(out, '[REDACTED]');
}

/** Text of the pieces the "at least n" patterns read: their prefixes, their characters, and what ends a run. */
const runText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          'eyJ',
          '-',
          '_',
          '.',
          '=',
          'a',
          'Z',
          '0',
          '9',
          'sk-',
          'Bearer ',
          'basic ',
          'ghp_',
          'github_pat_',
          'xoxb-',
          ' ',
          '/',
          '+',
          '~',
          'x://u:p@',
          '-----BEGIN RSA PRIVATE KEY-----',
          '-----END RSA PRIVATE KEY-----',
          '-----BEGIN ',
          '-----END ',
          ' PRIVATE KEY-----',
          '\n',
        ),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom('a', '-', 'eyJ', 'A0_', 'x-'), fc.integer({ min: 1, max: 40 }))
          .map(([piece, n]) => piece.repeat(n)),
      },
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

/** A run of `n` characters a pattern reads, sometimes with one that ends the run in it. */
const run = (n: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom('a', 'Z', '0', '-', '_', '-', '.', '='), { minLength: n, maxLength: n }).map((chars) => chars.join(''));
const near = (n: number): fc.Arbitrary<string> => fc.integer({ min: n - 2, max: n + 2 }).chain(run);

/** Secret shapes with each "at least n" part within two characters of its n. */
const nearThreshold: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(near(8), near(8), near(8)).map(([a, b, c]) => `eyJ${a}.eyJ${b}.${c}`),
  near(16).map((r) => `sk-${r}`),
  near(30).map((r) => `ghp_${r}`),
  near(22).map((r) => `github_pat_${r}`),
  near(10).map((r) => `xoxb-${r}`),
  near(8).map((r) => `Bearer ${r}`),
);

describe('redactString: "at least n" patterns', () => {
  it('replaces exactly what the `X{n,}` forms replaced, on text built of their own pieces and runs', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          runText,
          fragmentText,
          fc.tuple(fragmentText, nearThreshold, fragmentText).map((parts) => parts.join('')),
        ),
        (text) => {
          expect(redactString(text)).toBe(redactWithAtLeastForms(text));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('still finds each at its shortest length and not one character shorter', () => {
    const jwt = `eyJ${'a'.repeat(8)}.eyJ${'b'.repeat(8)}.${'c'.repeat(8)}`;
    expect(redactString(`t ${jwt} t`)).toBe('t [REDACTED] t');
    expect(redactString(`t ${jwt.slice(0, -1)} t`)).toBe(`t ${jwt.slice(0, -1)} t`);
    const shortFirst = `eyJ${'a'.repeat(7)}.eyJ${'b'.repeat(8)}.${'c'.repeat(8)}`;
    expect(redactString(`t ${shortFirst} t`)).toBe(`t ${shortFirst} t`);
    expect(redactString(`sk-${'a'.repeat(16)}`)).toBe('[REDACTED]');
    expect(redactString(`sk-${'a'.repeat(15)}`)).toBe(`sk-${'a'.repeat(15)}`);
    expect(redactString(`xoxb-${'1'.repeat(10)}`)).toBe('[REDACTED]');
    expect(redactString(`ghp_${'a'.repeat(30)}`)).toBe('[REDACTED]');
    expect(redactString(`github_pat_${'a'.repeat(22)}`)).toBe('[REDACTED]');
    expect(redactString(`Bearer ${'a'.repeat(8)}==`)).toBe('Bearer [REDACTED]');
    expect(redactString(`Bearer ${'a'.repeat(7)}`)).toBe(`Bearer ${'a'.repeat(7)}`);
  });
});
