// Runs the example as a user would (a child process) against a real local webhook server.
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { createProgressHub, isProgressReporter, parseProgressEvent, type ProgressEvent } from '@headway/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonLinesReporter } from './jsonl-reporter.js';
import { WebhookReporter } from './webhook-reporter.js';

const here = import.meta.dirname;
const tsx = resolve(here, '..', 'node_modules', '.bin', 'tsx');

const received: ProgressEvent[] = [];
let status = 204;
const server = createServer((req: IncomingMessage, res) => {
  let body = '';
  req.on('data', (d: Buffer) => (body += d.toString()));
  req.on('end', () => {
    received.push(parseProgressEvent(JSON.parse(body)));
    res.writeHead(status).end();
  });
});
let url = '';

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(
  () =>
    new Promise<void>((r) =>
      server.close(() => {
        r();
      }),
    ),
);

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(tsx, [resolve(here, 'main.ts'), ...args], { env: { ...process.env, CI: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      done({ code, stdout, stderr });
    });
  });
}

describe('custom reporters', () => {
  it('JsonLinesReporter is a ProgressReporter without a base class and writes one line per call', () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => (text += d.toString()));
    const reporter = new JsonLinesReporter(out, () => 7);
    expect(isProgressReporter(reporter)).toBe(true);
    reporter.onIteration(0, 10);
    reporter.onToolDone('weather', 'ok');
    expect(text).toBe('{"t":7,"event":"iteration","current":0,"max":10}\n{"t":7,"event":"tool_done","tool":"weather","summary":"ok"}\n');
  });

  it('the example run prints JSON lines for the seven methods and posts to the webhook', async () => {
    received.length = 0;
    // A generous webhook timeout: a busy machine may answer the post late; this case is about what arrives.
    const r = await run(['--webhook', url, '--webhook-timeout-ms', '120000']);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; tool?: string; summary?: string });
    expect(lines.map((l) => l.event).filter((e) => e !== 'progress')).toEqual([
      'start',
      'iteration',
      'tool_start',
      'tool_done',
      'tool_start',
      'tool_done',
      'iteration',
      'complete',
    ]);
    expect(lines.filter((l) => l.event === 'tool_done').map((l) => `${l.tool ?? ''} ${l.summary ?? ''}`)).toEqual([
      'weather ok',
      'weather ok',
    ]);
    expect(r.stderr).toContain('Lisbon is warmer by 12 °C.');
    expect(received.map((e) => e.type)).toEqual(['run.started', 'run.finished']);
  });

  it('a failing or unreachable webhook never breaks the run', async () => {
    status = 500;
    const hub = createProgressHub({ runId: 'r' });
    // Generous: this case is about the 500, not the timeout (a busy machine answers late).
    const failing = new WebhookReporter({ url, timeoutMs: 60_000 });
    const dead = new WebhookReporter({ url: 'http://127.0.0.1:9/nothing', timeoutMs: 500 });
    hub.add(failing);
    hub.add(dead);
    expect(() => hub.emit({ type: 'run.started', agentName: 'a' })).not.toThrow();
    await Promise.all([failing.settle(), dead.settle()]);
    expect(failing.failures).toEqual(['run.started: HTTP 500']);
    expect(dead.failures).toHaveLength(1);
    status = 204;
  });
});
