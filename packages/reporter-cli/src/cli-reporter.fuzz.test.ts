// The terminal reporter fed what an attacker could send: secrets, megabytes of task text and
// hostile values. Nothing secret is printed, the live block stays small, nothing throws.
import { createProgressHub, type ProgressEvent } from '@headway/protocol';
import { HOSTILE_RUN_PARAMETERS, hostileValueArb } from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_LIVE_TEXT } from './bounded-text.js';
import { CLIReporter } from './cli-reporter.js';
import { FakeClock, ManualTimers, RecordingStream, stripAnsi } from './fake-terminal.test-util.js';

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
  const hub = createProgressHub({ runId: 'run-1', now: () => 1_700_000_000_000 });
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
  hub.emit({ type: 'wind-down.started', reason: `POSTGRES_PASSWORD: ${SECRETS.postgres}`, bonusSteps: 2 });
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
    const reporter = new CLIReporter({ stream, mode, env: {}, timers: new ManualTimers(), now: new FakeClock().now });
    feed(reporter);
    expect(reporter.failures).toBe(0);
    expect(stream.text).toContain('[REDACTED]');
    expect(leaked(stream.text)).toEqual([]);
  });

  it('prints them with redact: false (control)', () => {
    const stream = new RecordingStream({ isTTY: true, columns: 400, rows: 50 });
    const reporter = new CLIReporter({ stream, mode, env: {}, timers: new ManualTimers(), now: new FakeClock().now, redact: false });
    feed(reporter);
    expect(leaked(stream.text).length).toBeGreaterThan(0);
  });

  it(
    'never throws, whatever handle() and the seven methods get',
    () => {
      const stream = new RecordingStream({ isTTY: true, columns: 120, rows: 30 });
      const reporter = new CLIReporter({ stream, mode, env: {}, timers: new ManualTimers(), now: new FakeClock().now });
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
    const clock = new FakeClock();
    const reporter = new CLIReporter({ stream, mode: 'live', env: {}, timers: new ManualTimers(), now: clock.now });
    const task = 'T'.repeat(1024 * 1024);
    reporter.onStart(task);
    for (let i = 1; i <= 20; i++) {
      clock.advance(100);
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
