import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@headway/protocol';
import { AgentRuntime, defineTool } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { SqliteCheckpointStore } from '@headway/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DASHBOARD_CSP, createDashboardHandler } from './dashboard-server.js';
import type { DashboardRun } from './dashboard-runs.js';

const TOKEN = 'tok-0123456789abcdef';
const clock = new ManualClock({ start: 1_000_000 });
let dir: string;
let store: SqliteCheckpointStore;
let server: Server;
let base: string;

function ids(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}-${String((n += 1))}`;
}

const search = defineTool({
  name: 'search',
  description: 'finds things',
  parameters: z.object({ q: z.string() }),
  execute: () => 'nothing yet',
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'headway-dashboard-'));
  store = new SqliteCheckpointStore(join(dir, 'agent.db'), { clock });
  // A run that completes, one stopped at its iteration limit, and a running one left by a kill.
  const answering = new ScriptedProvider([{ toolCalls: [{ name: 'search', args: { q: '42' } }] }, { content: 'done: 42' }]);
  await new AgentRuntime(
    { provider: 'scripted' },
    { provider: answering, tools: [search], checkpointStore: store, generateId: ids('a'), clock },
  ).run('answer the question');
  await clock.advance(1000);
  const looping = new ScriptedProvider(() => ({ content: 'again', toolCalls: [{ name: 'search', args: { q: 'x' } }] }));
  await new AgentRuntime(
    { provider: 'scripted', maxIterations: 2 },
    { provider: looping, tools: [search], checkpointStore: store, generateId: ids('b'), clock },
  ).run('search forever api_key=sk-live-abcdefghijklmnopqrstuvwx');
  await clock.advance(1000);
  store.create({
    id: 'cp-killed',
    runId: 'run-killed',
    sessionId: 'worker-2',
    taskId: 't-k',
    input: 'killed task',
    messages: [],
    log: [],
    state: { iteration: 1, toolsUsed: [], usage: { inputTokens: 10, outputTokens: 5 }, spentUsd: 0.01, providerCalls: 1 },
  });
  await clock.advance(120_000);
  store.create({
    id: 'cp-live',
    runId: 'run-live',
    sessionId: 'worker-1',
    taskId: 't-l',
    input: 'live task',
    messages: [],
    log: [],
    state: { iteration: 3, toolsUsed: ['search'], usage: { inputTokens: 30, outputTokens: 9 }, spentUsd: 0.02, providerCalls: 3 },
  });
  server = createServer(createDashboardHandler({ checkpoints: store, clock, token: TOKEN }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function runs(query = ''): Promise<DashboardRun[]> {
  const response = await fetch(`${base}/api/runs${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { runs: DashboardRun[] }).runs;
}

describe('the run list', () => {
  it('lists every run, the live one first, then by start time, each with its state word', async () => {
    const list = await runs();
    expect(list.map((r) => [r.runId, r.state, r.iteration])).toEqual([
      ['run-live', 'running', 3],
      ['a-1', 'completed', 2],
      ['b-1', 'limit:iterations', 2],
      ['run-killed', 'interrupted', 1],
    ]);
    expect(list[1]!.task).toBe('answer the question');
    expect(list[1]!.percent).toBe(100);
  });

  it('redacts secrets before they reach the page', async () => {
    const list = await runs('?state=limit:iterations');
    expect(list).toHaveLength(1);
    expect(list[0]!.task).not.toContain('sk-live');
    expect(list[0]!.task).toContain('[REDACTED]');
  });

  it('filters by state, session and search text', async () => {
    expect((await runs('?state=interrupted')).map((r) => r.runId)).toEqual(['run-killed']);
    expect((await runs('?session=worker-1')).map((r) => r.runId)).toEqual(['run-live']);
    expect((await runs('?q=ANSWER')).map((r) => r.task)).toEqual(['answer the question']);
  });

  it('refuses a bad query with a 400 that says what and where', async () => {
    const response = await fetch(`${base}/api/runs?state=%3Cscript%3E`);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; issues: { path: string }[] } };
    expect(body.error.code).toBe('DASHBOARD_BAD_REQUEST');
    expect(body.error.issues.map((i) => i.path)).toEqual(['query.state']);
    expect((await fetch(`${base}/api/runs?nope=1`)).status).toBe(400);
    expect((await fetch(`${base}/api/runs?q=a&q=b`)).status).toBe(400);
  });

  it('serves the page with a strict CSP on every route, deep links included', async () => {
    for (const path of ['/', '/runs/run-live']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
      const html = await response.text();
      expect(html).toContain('<script type="module" src="/app.js"></script>');
      expect(html).not.toMatch(/<script>/);
    }
  });
});

describe('the run page and its actions', () => {
  it('shows one run with the runs that continue it', async () => {
    const response = await fetch(`${base}/api/runs/run-killed`);
    const body = (await response.json()) as { run: DashboardRun; continuations: string[] };
    expect([body.run.state, body.run.stateText, body.continuations]).toEqual(['interrupted', expect.any(String), []]);
    expect((await fetch(`${base}/api/runs/nope`)).status).toBe(404);
  });

  it('refuses an action without the token (401) or from another origin (403)', async () => {
    const url = `${base}/api/runs/run-killed/abandon`;
    expect((await fetch(url, { method: 'POST', headers: { origin: base } })).status).toBe(401);
    expect((await fetch(url, { method: 'POST', headers: { origin: base, authorization: 'Bearer wrong' } })).status).toBe(401);
    expect(
      (await fetch(url, { method: 'POST', headers: { origin: 'http://evil.example', authorization: `Bearer ${TOKEN}` } })).status,
    ).toBe(403);
    expect((await runs('?state=interrupted')).map((r) => r.runId)).toEqual(['run-killed']);
  });

  it('abandons an interrupted run with the cookie the one-time link sets, and only an interrupted one', async () => {
    const auth = await fetch(`${base}/auth?token=${TOKEN}`, { redirect: 'manual' });
    expect(auth.status).toBe(303);
    const cookie = auth.headers.get('set-cookie') ?? '';
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const headers = { origin: base, cookie: cookie.split(';')[0]! };
    expect((await fetch(`${base}/api/runs/run-live/abandon`, { method: 'POST', headers })).status).toBe(409);
    expect((await fetch(`${base}/api/runs/run-killed/abandon`, { method: 'POST', headers })).status).toBe(200);
    expect((await runs('?q=killed')).map((r) => r.state)).toEqual(['cancelled']);
  });
});
