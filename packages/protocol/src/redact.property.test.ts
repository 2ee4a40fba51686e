import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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
