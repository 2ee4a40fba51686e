// The dashboard's HTTP API on a real server, read with the Node SSE client.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProgressEvent } from '@headway/protocol';
import { subscribeToRun } from '@headway/sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashboardServer, type DashboardServer } from './server.js';

let scratch: string;
let server: DashboardServer;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'headway-dashboard-api-'));
  mkdirSync(join(scratch, 'page'));
  writeFileSync(join(scratch, 'page', 'index.html'), '<!doctype html><title>dashboard</title>');
  writeFileSync(join(scratch, 'secret.txt'), 'not served');
  server = await startDashboardServer({
    pageDir: join(scratch, 'page'),
    port: 0,
    modelDelayMs: 20,
    toolDelayMs: 10,
    chunkDelayMs: 0,
    env: {},
  });
});

afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

const api = (path: string, init?: RequestInit): Promise<Response> => fetch(new URL(path, server.url), init);

describe('dashboard server', () => {
  it('serves the page, and nothing outside it', async () => {
    const page = await api('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<title>dashboard</title>');
    expect((await api('/..%2fsecret.txt')).status).toBe(404);
    expect((await api('/missing.js')).status).toBe(404);
    expect((await api('/', { method: 'POST' })).status).toBe(405);
  });

  it('offers only the scripted model without OPENAI_API_KEY, and refuses openai runs', async () => {
    expect(await (await api('/api/config')).json()).toMatchObject({ providers: ['scripted'], maxIterations: 10 });
    const refused = await api('/api/runs', { method: 'POST', body: '{"provider":"openai"}' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: 'provider: openai needs OPENAI_API_KEY in the server environment' });
  });

  it('rejects a bad run request naming the field, and an oversized one', async () => {
    const bad = await api('/api/runs', { method: 'POST', body: '{"maxIterations":"3"}' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'maxIterations: invalid input: expected number, received string' });
    const big = await api('/api/runs', { method: 'POST', body: JSON.stringify({ task: 'x'.repeat(20_000) }) });
    expect(big.status).toBe(413);
  });

  it('answers 404 for an unknown run, on every route', async () => {
    for (const path of ['/api/runs/nope', '/api/runs/nope/events', '/api/runs/nope/log']) {
      expect((await api(path)).status).toBe(404);
    }
  });

  it('starts a run and streams it; a resume gets exactly the events after Last-Event-ID', async () => {
    const created = await api('/api/runs', { method: 'POST', body: '{"maxIterations":4}' });
    expect(created.status).toBe(201);
    const info = (await created.json()) as { runId: string; steps: { name: string; start: number; end: number }[]; status: string };
    expect(info.status).toBe('running');
    expect(info.steps.map((s) => s.name)).toEqual([
      'Search the library',
      'Read the documents',
      'Compare the algorithms',
      'Write the recommendation',
    ]);
    expect(info.steps[0]).toMatchObject({ start: 10 });
    expect(info.steps.at(-1)).toMatchObject({ end: 90 });

    const url = new URL(`/api/runs/${info.runId}/events`, server.url);
    const all: ProgressEvent[] = [];
    const terminal = await subscribeToRun(url, { onEvent: (e) => all.push(e) });
    expect(terminal?.type).toBe('run.finished');
    expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));

    const log = (await (await api(`/api/runs/${info.runId}/log`)).json()) as { status: string; events: ProgressEvent[] };
    expect(log.status).toBe('limit');
    expect(log.events).toEqual(all);

    const cut = Math.floor(all.length / 2);
    const rest: ProgressEvent[] = [];
    await subscribeToRun(url, { onEvent: (e) => rest.push(e), lastEventId: cut });
    expect(rest).toEqual(all.slice(cut));
    expect((await api(`/api/runs/${info.runId}/events?lastEventId=abc`)).status).toBe(400);
  });
});
