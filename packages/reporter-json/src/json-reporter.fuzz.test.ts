// The reporter fed what an attacker could send: it writes a valid JSON line or counts a drop,
// never throws into the caller, never hangs, and leaks no planted secret.
import { Writable } from 'node:stream';
import type { ProgressEvent } from '@headway/protocol';
import { HOSTILE_RUN_PARAMETERS, hostileValueArb } from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventArb } from './arbitraries.test-util.js';
import type { JSONReporterError } from './json-reporter-error.js';
import { JSONReporter } from './json-reporter.js';
import { memoryStream } from './stream.test-util.js';

const TEST_TIMEOUT = HOSTILE_RUN_PARAMETERS.interruptAfterTimeLimit + 5000;

describe('JSONReporter on hostile input', () => {
  it(
    'writes only whole JSON lines and never throws, whatever handle() and the methods get',
    async () => {
      const { stream, lines } = memoryStream();
      const reporter = new JSONReporter({ stream, maxBufferedBytes: 64 * 1024 * 1024 });
      fc.assert(
        fc.property(hostileValueArb(), eventArb, (value, event) => {
          expect(() => {
            reporter.handle(value as ProgressEvent);
            reporter.handle({ ...event, args: value } as unknown as ProgressEvent);
            reporter.onToolDone(value as string, value as string);
            reporter.onProgress(value as number, value as string);
          }).not.toThrow();
        }),
        HOSTILE_RUN_PARAMETERS,
      );
      await reporter.flush();
      expect(reporter.stats().buffered).toBe(0);
      for (const line of lines()) expect(() => JSON.parse(line) as unknown).not.toThrow();
    },
    TEST_TIMEOUT,
  );

  it('redacts an 80 KB string containing "key" (quadratic before) and a 2 MB one', () => {
    const { stream, lines } = memoryStream();
    const reporter = new JSONReporter({ stream, maxBufferedBytes: 64 * 1024 * 1024 });
    for (const size of [80_000, 2_000_000]) reporter.onProgress(1, `key ${'a'.repeat(size)}`);
    expect(lines().map((l) => l.length)).toEqual([80_043, 2_000_043]);
  }, 30_000);

  it('redacts prefixed secret names in text and in keys', async () => {
    const { stream, lines } = memoryStream();
    const reporter = new JSONReporter({ stream });
    reporter.onToolDone(
      'shell',
      'DB_PASSWORD=hunter2hunter2 POSTGRES_PASSWORD: pgpass AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI GITHUB_TOKEN=tok123',
    );
    reporter.handle({
      type: 'tool.executing',
      runId: 'r',
      seq: 1,
      ts: 1,
      toolName: 'deploy',
      args: { db_password: 'a', OPENAI_API_KEY: 'b', github_token: 'c', tokenCount: 3 },
    });
    await reporter.flush();
    expect(lines()).toEqual([
      '{"event":"tool_done","tool":"shell","summary":"DB_PASSWORD=[REDACTED] POSTGRES_PASSWORD: [REDACTED] AWS_SECRET_ACCESS_KEY=[REDACTED] GITHUB_TOKEN=[REDACTED]"}',
      '{"type":"tool.executing","runId":"r","seq":1,"ts":1,"toolName":"deploy","args":{"db_password":"[REDACTED]","OPENAI_API_KEY":"[REDACTED]","github_token":"[REDACTED]","tokenCount":3}}',
    ]);
  });

  it('survives an onInternalError that throws', async () => {
    const stream = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const errors: JSONReporterError[] = [];
    const reporter = new JSONReporter({
      stream,
      onInternalError: (e) => {
        errors.push(e);
        throw new Error('callback throws');
      },
    });
    reporter.onStart('a');
    await new Promise((resolve) => setImmediate(resolve));
    expect(() => {
      reporter.onStart('b');
    }).not.toThrow();
    expect(errors).toHaveLength(1);
    await reporter.close();
  });
});
