import { ManualClock } from '@headway/protocol';
import { AgentRuntime } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import type { SqliteCheckpointStore } from '@headway/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, field, frames, ids, openDashboardStore, search, type DashboardStoreFixture } from './dashboard-fixture.test-util.js';
import { DASHBOARD_CSP } from './dashboard-server.js';
import type { DashboardRun, DashboardRunDetail } from './dashboard-run-types.js';

const clock = new ManualClock({ start: 1_000_000 });
let fixture: DashboardStoreFixture;
let store: SqliteCheckpointStore;
let base: string;

beforeAll(async () => {
  fixture = openDashboardStore('dashboard', clock);
  store = fixture.store;
  // A run that completes, one stopped at its iteration limit, and a running one left by a kill.
  const answering = new ScriptedProvider([{ toolCalls: [{ name: 'search', args: { q: '42' } }] }, { content: 'done: 42' }]);
  await new AgentRuntime(
    { provider: 'scripted', agentName: 'researcher' },
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
    state: {
      iteration: 3,
      toolsUsed: ['search'],
      usage: { inputTokens: 30, outputTokens: 9 },
      spentUsd: 0.02,
      providerCalls: 3,
      costByModel: [
        { model: 'openai/gpt-4o', calls: 2, inputTokens: 20, outputTokens: 6, spentUsd: 0.02, unpricedCalls: 0 },
        { model: 'local/llama-3', calls: 1, inputTokens: 10, outputTokens: 3, spentUsd: 0, unpricedCalls: 1 },
      ],
    },
  });
  base = await fixture.serve({ token: TOKEN });
});

afterAll(async () => {
  await fixture.close();
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
    // What each run offers comes from the server's one table of actions.
    expect(list.map((r) => r.actions)).toEqual([['cancel'], [], ['continue'], ['resume', 'abandon']]);
    expect(list[1]!.task).toBe('answer the question');
    expect(list[1]!.percent).toBe(100);
    // A run stopped at its limit keeps the bar where it stopped, below 100, and has no ETA.
    expect([list[2]!.percent > 0, list[2]!.percent < 100, list[2]!.etaLowMs]).toEqual([true, true, undefined]);
  });

  it('redacts secrets before they reach the page', async () => {
    const list = await runs('?state=limit:iterations');
    expect(list).toHaveLength(1);
    expect(list[0]!.task).not.toContain('sk-live');
    expect(list[0]!.task).toContain('[REDACTED]');
  });

  it('filters by state, agent, worker and search text', async () => {
    expect((await runs('?state=interrupted')).map((r) => r.runId)).toEqual(['run-killed']);
    expect((await runs('?worker=worker-1')).map((r) => r.runId)).toEqual(['run-live']);
    expect((await runs('?agent=researcher')).map((r) => r.runId)).toEqual(['a-1']);
    expect((await runs('?agent=agent')).map((r) => r.runId)).toEqual(['b-1']);
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
    const body = (await response.json()) as DashboardRunDetail;
    expect([body.run.state, body.run.stateText, body.continuations, body.chain]).toEqual([
      'interrupted',
      expect.any(String),
      [],
      ['run-killed'],
    ]);
    expect((await fetch(`${base}/api/runs/nope`)).status).toBe(404);
    expect((await fetch(`${base}/api/runs/nope/stream`)).status).toBe(404);
  });

  it('shows cost by model: a model with no price is unpriced (null), never $0, and the total says what it leaves out', async () => {
    const live = (await (await fetch(`${base}/api/runs/run-live`)).json()) as DashboardRunDetail;
    expect(live.costByModel).toEqual([
      { model: 'openai/gpt-4o', calls: 2, inputTokens: 20, outputTokens: 6, spentUsd: 0.02 },
      { model: 'local/llama-3', calls: 1, inputTokens: 10, outputTokens: 3, spentUsd: null },
    ]);
    expect([live.run.spentUsd, live.run.unpricedCalls]).toEqual([0.02, 1]);
    // A run the runtime really ran, on a provider with no price: its calls are unpriced.
    const ran = (await (await fetch(`${base}/api/runs/a-1`)).json()) as DashboardRunDetail;
    expect(ran.costByModel).toEqual([
      { model: 'scripted', calls: 2, inputTokens: ran.run.inputTokens, outputTokens: ran.run.outputTokens, spentUsd: null },
    ]);
    expect([ran.run.spentUsd, ran.run.unpricedCalls]).toEqual([0, 2]);
    // A checkpoint written before cost by model was kept lists no model and no unpriced call.
    const old = (await (await fetch(`${base}/api/runs/run-killed`)).json()) as DashboardRunDetail;
    expect([old.costByModel, old.run.unpricedCalls]).toEqual([[], 0]);
  });

  it("shows a run's iterations: what the model wrote and the tools it called, with their results", async () => {
    const body = (await (await fetch(`${base}/api/runs/a-1`)).json()) as DashboardRunDetail;
    expect(body.view.steps).toEqual([
      { iteration: 1, text: '', tools: [{ name: 'search', args: '{"q":"42"}', result: 'nothing yet' }] },
      { iteration: 2, text: 'done: 42', tools: [] },
    ]);
    expect(body.reportHtml).toBeUndefined();
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

describe('live updates over Server-Sent Events', () => {
  it('streams the filtered list, then a new frame only when the store changes; Last-Event-ID resumes without a repeat', async () => {
    const response = await fetch(`${base}/api/stream?worker=worker-9`);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    const stream = frames(response);
    expect(await stream.next()).toBe('retry: 1000\n\n');
    const first = await stream.next();
    expect([field(first, 'event'), field(first, 'data')]).toEqual(['runs', '{"runs":[]}']);
    // Nothing changed: the next poll sends a heartbeat, not the same list again.
    await clock.advance(1000);
    expect(await stream.next()).toBe(':\n\n');
    store.create({
      id: 'cp-nine',
      runId: 'run-nine',
      sessionId: 'worker-9',
      taskId: 't-9',
      input: 'token=sk-live-abcdefghijklmnopqrstuvwx',
      messages: [],
      log: [],
      state: { iteration: 1, toolsUsed: [], usage: { inputTokens: 1, outputTokens: 1 }, spentUsd: 0, providerCalls: 1 },
    });
    await clock.advance(1000);
    const second = await stream.next();
    const list = JSON.parse(field(second, 'data')!) as { runs: DashboardRun[] };
    expect(list.runs.map((r) => [r.runId, r.state, r.sessionId])).toEqual([['run-nine', 'running', 'worker-9']]);
    expect(field(second, 'data')).not.toContain('sk-live');
    const id = field(second, 'id')!;
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    await stream.close();

    // A reconnect that saw this list already gets a heartbeat, then the next change.
    const again = frames(await fetch(`${base}/api/stream?worker=worker-9`, { headers: { 'last-event-id': id } }));
    expect(await again.next()).toBe('retry: 1000\n\n');
    expect(await again.next()).toBe(':\n\n');
    store.abandon('cp-nine');
    await clock.advance(1000);
    const third = await again.next();
    expect((JSON.parse(field(third, 'data')!) as { runs: DashboardRun[] }).runs.map((r) => r.state)).toEqual(['cancelled']);
    await again.close();
  });

  it("streams one run's page, and refuses a bad filter before streaming", async () => {
    const stream = frames(await fetch(`${base}/api/runs/a-1/stream`));
    expect(await stream.next()).toBe('retry: 1000\n\n');
    const frame = await stream.next();
    expect(field(frame, 'event')).toBe('run');
    expect((JSON.parse(field(frame, 'data')!) as DashboardRunDetail).run.runId).toBe('a-1');
    await stream.close();
    expect((await fetch(`${base}/api/stream?state=<x>`)).status).toBe(400);
  });
});
