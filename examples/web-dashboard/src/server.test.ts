// The dashboard's HTTP API on a real server, read with the Node SSE client.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProgressEvent } from '@headway/protocol';
import { subscribeToRun } from '@headway/sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TASK } from './scripted-model.js';
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

/** A token the server wrote into a page it served. */
async function pageToken(): Promise<string> {
  const html = await (await api('/')).text();
  const token = /<meta name="headway-page-token" content="([\w-]+)" \/>/.exec(html)?.[1];
  if (token === undefined) throw new Error(`no token in ${html}`);
  return token;
}

/** A POST as the dashboard's page sends it: same origin, its token, JSON. */
async function post(path: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return api(path, {
    method: 'POST',
    body,
    headers: {
      origin: new URL(server.url).origin,
      'content-type': 'application/json',
      'x-headway-page-token': await pageToken(),
      ...headers,
    },
  });
}

describe('dashboard server', () => {
  it('serves the page, and nothing outside it', async () => {
    const page = await api('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<title>dashboard</title>');
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect((await api('/..%2fsecret.txt')).status).toBe(404);
    expect((await api('/missing.js')).status).toBe(404);
    expect((await api('/', { method: 'POST' })).status).toBe(405);
  });

  it('offers only the scripted model without OPENAI_API_KEY, and refuses openai runs', async () => {
    expect(await (await api('/api/config')).json()).toMatchObject({ providers: ['scripted'], maxIterations: 10 });
    const refused = await post('/api/runs', '{"provider":"openai"}');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: 'provider: openai needs OPENAI_API_KEY in the server environment' });
  });

  it('rejects a bad run request naming the field, and an oversized one', async () => {
    const bad = await post('/api/runs', '{"maxIterations":"3"}');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'maxIterations: invalid input: expected number, received string' });
    const big = await post('/api/runs', JSON.stringify({ task: 'x'.repeat(20_000) }));
    expect(big.status).toBe(413);
  });

  it('starts runs only for its own page: same origin, a token it served, a JSON body', async () => {
    const origin = new URL(server.url).origin;
    const token = await pageToken();
    const refused = async (headers: Record<string, string>): Promise<unknown> => {
      const response = await api('/api/runs', { method: 'POST', body: '{}', headers });
      expect(response.status).toBe(403);
      return ((await response.json()) as { error: string }).error;
    };
    const json = 'application/json';
    expect(await refused({ 'content-type': json, 'x-headway-page-token': token })).toBe('cross-origin request refused: no Origin header');
    expect(await refused({ origin: 'http://evil.example', 'content-type': json, 'x-headway-page-token': token })).toBe(
      'cross-origin request refused: Origin "http://evil.example" is not this server',
    );
    expect(await refused({ origin: 'null', 'content-type': json, 'x-headway-page-token': token })).toBe(
      'cross-origin request refused: Origin "null" is not this server',
    );
    expect(await refused({ origin, 'sec-fetch-site': 'cross-site', 'content-type': json, 'x-headway-page-token': token })).toBe(
      'cross-origin request refused: Sec-Fetch-Site is "cross-site"',
    );
    expect(await refused({ origin, 'content-type': json })).toBe('request refused: no valid x-headway-page-token (reload the page)');
    expect(await refused({ origin, 'content-type': json, 'x-headway-page-token': 'made-up' })).toBe(
      'request refused: no valid x-headway-page-token (reload the page)',
    );
    expect(await refused({ origin, 'content-type': 'text/plain', 'x-headway-page-token': token })).toBe(
      'request refused: the body must be application/json',
    );
    expect(await refused({ origin, 'content-type': 'application/x-www-form-urlencoded', 'x-headway-page-token': token })).toBe(
      'request refused: the body must be application/json',
    );
  });

  it('continues a run that stopped at its limit: the task stays the title, the chain links back', async () => {
    const first = (await (await post('/api/runs', '{"maxIterations":3}')).json()) as { runId: string };
    await server.finished(first.runId);
    const response = await post(`/api/runs/${first.runId}/continue`, '{}');
    expect(response.status).toBe(201);
    const second = (await response.json()) as { runId: string; task: string; parentRunId: string; maxIterations: number };
    expect(second).toMatchObject({ task: DEFAULT_TASK, parentRunId: first.runId, maxIterations: 10 });
    const result = await server.finished(second.runId);
    expect(result?.status).toBe('completed');
    const started = server.log.events(second.runId)?.[0];
    expect(started).toMatchObject({ type: 'run.started', task: DEFAULT_TASK, parentRunId: first.runId });
    const info = (await (await api(`/api/runs/${second.runId}`)).json()) as { chain: unknown };
    expect(info.chain).toEqual([
      { runId: first.runId, status: 'limit' },
      { runId: second.runId, status: 'completed' },
    ]);

    // A completed run has nothing to continue from; a bad body names the field; a GET is refused.
    const again = await post(`/api/runs/${second.runId}/continue`, '{}');
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: `run ${second.runId} has no progress report to continue from (it is completed)` });
    const bad = await post(`/api/runs/${first.runId}/continue`, '{"task":"something else"}');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: '(root): unrecognized key: "task"' });
    expect((await api(`/api/runs/${first.runId}/continue`)).status).toBe(405);
    const forged = await api(`/api/runs/${first.runId}/continue`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(forged.status).toBe(403);
  });

  it('answers 404 for an unknown run, on every route', async () => {
    for (const path of ['/api/runs/nope', '/api/runs/nope/events', '/api/runs/nope/log']) {
      expect((await api(path)).status).toBe(404);
    }
  });

  it('starts a run and streams it; a resume gets exactly the events after Last-Event-ID', async () => {
    const created = await post('/api/runs', '{"maxIterations":4}');
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
