// The terminal reporter fed what an attacker could send: secrets, megabytes of task text and
// hostile values. Nothing secret is printed, the live block stays small, nothing throws.
import { ManualClock, createProgressHub, type ProgressEvent } from '@headway/protocol';
import { HOSTILE_RUN_PARAMETERS, hostileValueArb } from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_LIVE_TEXT } from './bounded-text.js';
import { CLIReporter } from './cli-reporter.js';
import { RecordingStream, stripAnsi, untrustedText } from './fake-terminal.test-util.js';

const SECRETS = {
  openai: 'sk-proj-Zx81KfPq0LmN3vB7tY2wR5sU9hJ4gD6c',
  bearer: 'b3ar3rT0kenValue1234567890abcdef',
  github: 'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
  url: 'pgPassw0rdInUrl',
  dbPassword: 'db-pass-Vq83nd-plain',
  postgres: 'pg-pass-K2m9x-plain',
  aws: 'wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLE',
  githubToken: 'gh-token-not-ghp-shaped-771',
  pem: 'MIIEowIBAAKCAQEA7bq98Secretkeybody0123456789',
} as const;

function feed(reporter: CLIReporter): void {
  const hub = createProgressHub({ runId: 'run-1', clock: new ManualClock({ start: 1_700_000_000_000 }) });
  hub.add(reporter);
  hub.emit({ type: 'run.started', agentName: 'demo', task: `deploy with ${SECRETS.openai}` });
  hub.emit({ type: 'progress', percent: 10, message: `export DB_PASSWORD=${SECRETS.dbPassword}` });
  hub.emit({ type: 'tool.executing', toolName: 'psql', args: { password: SECRETS.postgres } });
  hub.emit({
    type: 'tool.completed',
    toolName: 'psql',
    durationMs: 3,
    ok: true,
    // The secret sits past the 80-character preview cut: it must not be printed in part either.
    preview: `${'x'.repeat(70)} postgres://admin:${SECRETS.url}@db:5432/app AWS_SECRET_ACCESS_KEY=${SECRETS.aws}`,
  });
  hub.emit({ type: 'intermediate.result', content: `-----BEGIN RSA PRIVATE KEY-----\n${SECRETS.pem}\n-----END RSA PRIVATE KEY-----` });
  hub.emit({ type: 'wind-down.started', reason: `POSTGRES_PASSWORD: ${SECRETS.postgres}`, graceIterations: 2 });
  hub.emit({
    type: 'report.generated',
    report: {
      task: `GITHUB_TOKEN=${SECRETS.githubToken}`,
      reason: 'max-iterations',
      completedWork: [`used ${SECRETS.github}`],
      keyFindings: [],
      attemptedInconclusive: [],
      remaining: [],
      suggestedNextSteps: [],
      stats: { iterations: 1, toolCalls: 1, elapsedMs: 1 },
      generatedBy: 'model',
    },
  });
  reporter.log(`host says Authorization: Bearer ${SECRETS.bearer}`);
  reporter.onToolDone('shell', `GITHUB_TOKEN=${SECRETS.githubToken}`);
  hub.emit({ type: 'run.error', error: `401 for Bearer ${SECRETS.bearer}` });
}

const leaked = (text: string): string[] => Object.values(SECRETS).filter((s) => text.includes(s.slice(0, 12)));

describe.each(['plain', 'live'] as const)('CLIReporter (%s) redacts what it prints', (mode) => {
  it('prints none of the planted secrets, nor the start of one', () => {
    const stream = new RecordingStream({ isTTY: true, columns: 400, rows: 50 });
    const reporter = new CLIReporter({ stream, mode, env: {}, clock: new ManualClock({ start: 1_000_000 }) });
    feed(reporter);
    expect(reporter.failures).toBe(0);
    expect(stream.text).toContain('[REDACTED]');
    expect(leaked(stream.text)).toEqual([]);
  });

  it('prints them with redact: false (control)', () => {
    const stream = new RecordingStream({ isTTY: true, columns: 400, rows: 50 });
    const reporter = new CLIReporter({ stream, mode, env: {}, clock: new ManualClock({ start: 1_000_000 }), redact: false });
    feed(reporter);
    expect(leaked(stream.text).length).toBeGreaterThan(0);
  });

  it(
    'never throws, whatever handle() and the seven methods get',
    () => {
      const stream = new RecordingStream({ isTTY: true, columns: 120, rows: 30 });
      const reporter = new CLIReporter({ stream, mode, env: {}, clock: new ManualClock({ start: 1_000_000 }) });
      fc.assert(
        fc.property(hostileValueArb({ maxStringLength: 50_000 }), (value) => {
          expect(() => {
            reporter.handle(value as ProgressEvent);
            reporter.handle({ type: 'progress', runId: 'r', seq: 1, ts: 1, percent: 5, message: value } as unknown as ProgressEvent);
            reporter.onStart(value as string);
            reporter.onProgress(value as number, value as string);
            reporter.onToolDone(value as string, value as string);
            reporter.log(value);
          }).not.toThrow();
        }),
        HOSTILE_RUN_PARAMETERS,
      );
    },
    HOSTILE_RUN_PARAMETERS.interruptAfterTimeLimit + 5000,
  );
});

describe('CLIReporter live block with a huge task', () => {
  it('keeps at most MAX_LIVE_TEXT characters of it, so a redraw costs the same for a 1 MB task as for a short one', () => {
    // A terminal this wide would show every character it is given: what is drawn is what is kept.
    const stream = new RecordingStream({ isTTY: true, columns: 10_000_000, rows: 50 });
    const clock = new ManualClock({ start: 1_000_000 });
    const reporter = new CLIReporter({ stream, mode: 'live', env: {}, clock });
    const task = 'T'.repeat(1024 * 1024);
    reporter.onStart(task);
    for (let i = 1; i <= 20; i++) {
      clock.advanceSync(100);
      reporter.onProgress(i, `step ${i} ${'L'.repeat(1024 * 1024)}`);
    }
    reporter.onComplete(`done ${'S'.repeat(1024 * 1024)}`);
    const screen = stripAnsi(stream.text);
    const taskRuns = screen.match(/T+/g) ?? [];
    expect(Math.max(...taskRuns.map((r) => r.length))).toBe(MAX_LIVE_TEXT);
    expect(screen).toContain(`${'T'.repeat(MAX_LIVE_TEXT)}…`);
    // 22 frames of a few bounded lines each, instead of 22 MB.
    expect(stream.text.length).toBeLessThan(22 * 4 * (MAX_LIVE_TEXT + 200));
  });
});

function exercise(reporter: CLIReporter): void {
  reporter.onStart('task');
  reporter.onIteration(0, 3);
  reporter.onProgress(10, 'x');
  reporter.onToolStart('t');
  reporter.onToolDone('t', 'ok');
  reporter.log('host');
  reporter.handle({ type: 'progress', runId: 'r', seq: 1, ts: 0, percent: 20, etaMs: 5 });
  reporter.onComplete('done');
}

describe.each(['plain', 'live'] as const)('CLIReporter (%s) never throws into the caller', (mode) => {
  it('when the stream throws on write: reports it once and writes nothing more', () => {
    const stream = new RecordingStream({ isTTY: true, columns: 80 });
    let calls = 0;
    stream.write = () => {
      calls += 1;
      throw new Error('EBADF');
    };
    const errors: unknown[] = [];
    const reporter = new CLIReporter({
      stream,
      mode,
      env: {},
      clock: new ManualClock(),
      onInternalError: (e, context) => errors.push([(e as Error).message, context]),
    });
    exercise(reporter);
    expect(calls).toBe(1);
    expect(errors).toEqual([['EBADF', { where: 'write' }]]);
    expect(reporter.failures).toBe(1);
  });

  it('when the stream emits an error (EPIPE: the reader went away): no crash, then silence', () => {
    const stream = new RecordingStream({ isTTY: true, columns: 80 });
    const errors: unknown[] = [];
    const reporter = new CLIReporter({ stream, mode, env: {}, clock: new ManualClock(), onInternalError: (e) => errors.push(e) });
    reporter.onStart('task');
    const written = stream.chunks.length;
    // An EventEmitter with no 'error' listener would throw this at the emitter.
    expect(() => stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).not.toThrow();
    exercise(reporter);
    expect(stream.chunks.length).toBe(written);
    expect(errors).toHaveLength(1);
  });

  it('adds one error listener to a stream however many reporters use it', () => {
    const stream = new RecordingStream({ isTTY: true, columns: 80 });
    for (let i = 0; i < 20; i++) exercise(new CLIReporter({ stream, mode, env: {}, clock: new ManualClock() }));
    expect(stream.listenerCount('error')).toBe(1);
    expect(stream.listenerCount('resize')).toBe(0);
  });

  it('ignores event types it does not know (a newer protocol) and malformed events', () => {
    const stream = new RecordingStream({ isTTY: true, columns: 80 });
    const errors: unknown[] = [];
    const reporter = new CLIReporter({ stream, mode, env: {}, clock: new ManualClock(), onInternalError: (e) => errors.push(e) });
    reporter.onStart('t');
    const written = stream.chunks.length;
    expect(() => {
      reporter.handle({ type: 'budget.renegotiated', runId: 'r', seq: 1, ts: 0 } as unknown as ProgressEvent);
    }).not.toThrow();
    expect(stream.chunks.length).toBe(written);
    expect(() => {
      reporter.handle({ type: 'tool.executing', runId: 'r', seq: 2, ts: 0 } as unknown as ProgressEvent);
    }).not.toThrow();
    expect(errors).toHaveLength(1);
  });

  it('when onInternalError itself throws: the write error still reaches it, and what it throws is ignored', () => {
    const stream = new RecordingStream({ isTTY: true });
    const boom = new Error('boom');
    stream.write = () => {
      throw boom;
    };
    const seen: unknown[] = [];
    const reporter = new CLIReporter({
      stream,
      mode,
      env: {},
      clock: new ManualClock(),
      onInternalError: (error) => {
        seen.push(error);
        throw new Error('callback boom');
      },
    });
    expect(() => {
      exercise(reporter);
    }).not.toThrow();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]).toBe(boom);
  });

  it('when the reader stalls: output past the buffer bound is dropped, memory does not grow', () => {
    const stream = new RecordingStream({ isTTY: true, columns: 80 });
    const reporter = new CLIReporter({ stream, mode, env: {}, clock: new ManualClock(), maxBufferedBytes: 100 });
    reporter.onStart('task');
    stream.writableLength = 101;
    const written = stream.chunks.length;
    for (let i = 0; i < 100; i++) reporter.onToolStart(`t${i}`);
    reporter.onComplete('done');
    expect(stream.chunks.length).toBe(written);
    stream.writableLength = 0;
    reporter.onStart('again');
    expect(stream.chunks.length).toBeGreaterThan(written);
  });

  it('for any sequence of calls with any arguments', () => {
    const text = untrustedText(12);
    const num = fc.oneof(fc.double(), fc.integer());
    const call = fc.oneof(
      fc.tuple(fc.constant('onStart' as const), text),
      fc.tuple(fc.constant('onProgress' as const), num, text),
      fc.tuple(fc.constant('onToolStart' as const), text),
      fc.tuple(fc.constant('onToolDone' as const), text, text),
      fc.tuple(fc.constant('onIteration' as const), num, num),
      fc.tuple(fc.constant('onComplete' as const), text),
      fc.tuple(fc.constant('onError' as const), text),
      // The host's own log() text is the host's to style; only run data is untrusted.
      fc.tuple(fc.constant('log' as const), fc.string()),
      fc.tuple(fc.constant('tick' as const), fc.nat(10_000)),
    );
    fc.assert(
      fc.property(fc.array(call, { maxLength: 25 }), fc.integer({ min: 1, max: 200 }), (calls, columns) => {
        const stream = new RecordingStream({ isTTY: true, columns, rows: 10 });
        const clock = new ManualClock({ start: 1_000_000 });
        const errors: unknown[] = [];
        const reporter = new CLIReporter({ stream, mode, env: {}, clock, onInternalError: (e) => errors.push(e) });
        for (const [name, ...args] of calls) {
          if (name === 'tick') {
            clock.advanceSync(Number(args[0]));
          } else {
            (reporter[name] as (...a: unknown[]) => void)(...args);
          }
        }
        reporter.onComplete('end');
        expect(errors).toEqual([]);
        expect(clock.pendingTimers).toBe(0);
        // eslint-disable-next-line no-control-regex -- untrusted text must not carry escapes
        const injected = /\u001b\]|\u001b\[2J|\u0007/;
        expect(stream.text).not.toMatch(injected);
      }),
      { numRuns: 60 },
    );
  }, 30_000);
});
