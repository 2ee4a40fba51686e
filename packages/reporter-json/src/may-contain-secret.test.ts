import { redactString } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { secretArb, textArb } from './arbitraries.test-util.js';
import { mayContainSecret } from './may-contain-secret.js';

// One sample per detector of protocol's redactString, in its order.
const DETECTOR_SAMPLES = [
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
];

describe('mayContainSecret', () => {
  it('flags a sample of every detector', () => {
    for (const sample of DETECTOR_SAMPLES) {
      expect(redactString(sample)).not.toBe(sample);
      expect(mayContainSecret(sample)).toBe(true);
    }
  });

  it('flags every generated secret', () => {
    fc.assert(fc.property(secretArb, fc.string({ maxLength: 10 }), (s, before) => mayContainSecret(before + s.text)));
  });

  it('is a superset: text it lets through is text redactString leaves unchanged', () => {
    fc.assert(
      fc.property(textArb, (text) => {
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
