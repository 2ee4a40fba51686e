import { ManualClock, type ProgressEvent } from '@headway/protocol';
import { AgentRuntime, saveRunReport, type RunResult } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import type { SqliteCheckpointStore } from '@headway/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, ids, openDashboardStore, search, type DashboardStoreFixture } from './dashboard-fixture.test-util.js';
import type { DashboardRun } from './dashboard-run-types.js';
import { CANCELLED_FROM_DASHBOARD, createRunRequestWorker, type RunRequestWorker } from './run-request-worker.js';

// The store's clock (ages, live or interrupted) and the runs' own clock are apart: moving the first
// to make a run read interrupted fires no timer of the runs.
const storeClock = new ManualClock({ start: 1_000_000 });
const runClock = new ManualClock({ start: 1_000_000 });
/** A clock nobody advances: a scripted reply delayed on it never comes (a worker that hangs). */
const never = new ManualClock({ start: 0 });
let fixture: DashboardStoreFixture;
let reports: string;
let store: SqliteCheckpointStore;
let base: string;
let worker: RunRequestWorker;
const hung: AbortController[] = [];

/** A runtime on the shared store; `script` is its model. */
function runtime(
  prefix: string,
  script: ConstructorParameters<typeof ScriptedProvider>[0],
  maxIterations = 10,
  events: ProgressEvent[] = [],
): AgentRuntime {
  return new AgentRuntime(
    { provider: 'scripted', maxIterations },
    {
      provider: new ScriptedProvider(script, { clock: never }),
      tools: [search],
      checkpointStore: store,
      generateId: ids(prefix),
      clock: runClock,
      sinks: [(event: ProgressEvent) => void events.push(event)],
    },
  );
}

/** One tool round (so a checkpoint is written), then a reply that never comes. */
const hangs = (_: unknown, __: unknown, call: number) =>
  call === 0 ? { toolCalls: [{ name: 'search', args: { q: 'x' } }] } : { content: 'late', delayMs: 1e12 };
const answers = (_: unknown, __: unknown, call: number) =>
  call === 0 ? { toolCalls: [{ name: 'search', args: { q: 'y' } }] } : { content: 'done' };

async function post(path: string, headers: Record<string, string> = { origin: base, authorization: `Bearer ${TOKEN}` }, body = '{}') {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function run(id: string): Promise<{ run: DashboardRun; continuations: string[] }> {
  return (await (await fetch(`${base}/api/runs/${id}`)).json()) as { run: DashboardRun; continuations: string[] };
}

/** Waits (no clock involved) until `condition` holds: the store is written by runs in this process. */
async function until(condition: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setImmediate(resolve));
}

beforeAll(async () => {
  fixture = openDashboardStore('actions', storeClock);
  ({ reports, store } = fixture);
  // A run stopped at its iteration limit, its report saved where the worker reads reports.
  const looping = runtime('limit', () => ({ content: 'again', toolCalls: [{ name: 'search', args: { q: 'x' } }] }), 2);
  saveRunReport(reports, await looping.run('search forever'));
  // A run whose worker hangs after its first round: once its writes are old, it reads interrupted.
  const controller = new AbortController();
  hung.push(controller);
  void runtime('hung', hangs).run('the hung task', { signal: controller.signal });
  await until(() => store.list({}).some((s) => s.runId === 'hung-1' && s.iteration >= 1));
  await storeClock.advance(120_000);
  base = await fixture.serve({ token: TOKEN });
  worker = createRunRequestWorker({ runtime: runtime('w', answers), requests: store.runRequests(), worker: 'worker-1', reports });
});

afterAll(async () => {
  for (const controller of hung) controller.abort('test over');
  await worker.idle();
  await fixture.close();
});

describe('actions as requests a worker carries out', () => {
  it('refuses Continue, Resume and Cancel without the token (401) or from another origin (403), and a bad body (400)', async () => {
    for (const action of ['continue', 'resume', 'cancel']) {
      expect((await post(`/api/runs/limit-1/${action}`, { origin: base })).status).toBe(401);
      expect((await post(`/api/runs/limit-1/${action}`, { origin: base, authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await post(`/api/runs/limit-1/${action}`, { origin: 'http://evil.example', authorization: `Bearer ${TOKEN}` })).status).toBe(
        403,
      );
    }
    const bad = await post('/api/runs/limit-1/continue', undefined, '{"model":"gpt-9"}');
    expect([bad.status, (bad.body.error as { issues: unknown }).issues]).toEqual([
      400,
      [{ path: 'body', message: expect.stringContaining('model') as string }],
    ]);
    expect((await post('/api/runs/limit-1/continue', undefined, 'x'.repeat(5_000))).status).toBe(400);
    expect((await post('/api/runs/limit-1/continue', undefined, '[1')).body.error).toMatchObject({
      code: 'DASHBOARD_BAD_REQUEST',
      message: 'bad body: not JSON',
    });
    for (const hostile of [
      '['.repeat(1_000),
      '{"__proto__":{"x":1}}',
      '"\u0000\u001b[2J"',
      '{"a":' + '1'.repeat(900) + '}',
      'null',
      '{}{}',
    ]) {
      expect((await post('/api/runs/limit-1/continue', undefined, hostile)).status).toBe(400);
    }
    expect(store.runRequests().list()).toEqual([]);
  });

  it('lists with each run the actions it offers, and answers 409 to every action it does not list', async () => {
    const list = ((await (await fetch(`${base}/api/runs`)).json()) as { runs: DashboardRun[] }).runs;
    expect(list.map((r) => [r.runId, r.state, r.actions])).toEqual([
      ['hung-1', 'interrupted', ['resume', 'abandon']],
      ['limit-1', 'limit:iterations', ['continue']],
    ]);
    expect((await run('hung-1')).run.actions).toEqual(['resume', 'abandon']);
    for (const listed of list) {
      for (const action of ['continue', 'resume', 'cancel', 'abandon'] as const) {
        if (listed.actions.includes(action)) continue;
        const answer = await post(`/api/runs/${listed.runId}/${action}`);
        expect([listed.runId, action, answer.status]).toEqual([listed.runId, action, 409]);
      }
    }
    expect(store.runRequests().list()).toEqual([]);
  });

  it('refuses an action the run is not in a state for (409)', async () => {
    expect((await post('/api/runs/limit-1/resume')).body.error).toMatchObject({
      code: 'DASHBOARD_CONFLICT',
      message: 'run limit-1 is limit:iterations: only an interrupted run can be resumed',
    });
    expect((await post('/api/runs/limit-1/cancel')).status).toBe(409);
    expect((await post('/api/runs/hung-1/continue')).status).toBe(409);
    expect((await post('/api/runs/nope/continue')).status).toBe(404);
  });

  it('Continue: a double click is one request, which a worker carries out as one follow-up run from the saved report', async () => {
    const first = await post('/api/runs/limit-1/continue');
    const second = await post('/api/runs/limit-1/continue');
    expect(first).toMatchObject({
      status: 202,
      body: { action: 'continue', runId: 'limit-1', created: true, request: { status: 'pending' } },
    });
    expect(second).toMatchObject({ status: 202, body: { created: false } });
    expect((second.body.request as { id: string }).id).toBe((first.body.request as { id: string }).id);
    expect(await worker.poll()).toBe(1);
    expect(await worker.poll()).toBe(0);
    await worker.idle();
    const requests = (await (await fetch(`${base}/api/runs/limit-1/requests`)).json()) as { requests: unknown[] };
    expect(requests.requests).toEqual([
      expect.objectContaining({
        action: 'continue',
        status: 'done',
        worker: 'worker-1',
        outcome: 'continued as run w-1 on worker-1: completed',
        resultRunId: 'w-1',
      }),
    ]);
    expect((await run('limit-1')).continuations).toEqual(['w-1']);
    expect((await run('w-1')).run).toMatchObject({ parentRunId: 'limit-1', task: 'search forever', state: 'completed' });
  });

  it('Resume: an interrupted run is resumed from its checkpoint by the worker and completes', async () => {
    expect((await run('hung-1')).run.state).toBe('interrupted');
    expect((await post('/api/runs/hung-1/resume')).status).toBe(202);
    expect((await post('/api/runs/hung-1/resume')).body.created).toBe(false);
    expect(await worker.poll()).toBe(1);
    await worker.idle();
    expect((await run('hung-1')).run).toMatchObject({ state: 'completed', iteration: 2 });
    // A late repeat (the run is no longer interrupted) answers the request it made, not a new one.
    expect(await post('/api/runs/hung-1/resume')).toMatchObject({ status: 202, body: { created: false, request: { status: 'done' } } });
    expect(
      store
        .runRequests()
        .list({ runId: 'hung-1' })
        .map((r) => [r.status, r.outcome]),
    ).toEqual([['done', 'resumed on worker-1: completed']]);
  });

  it('Cancel: a live run of the worker stops as cancelled, with the dashboard as the reason', async () => {
    const controller = new AbortController();
    hung.push(controller);
    const events: ProgressEvent[] = [];
    const live = createRunRequestWorker({
      runtime: runtime('live', hangs, 10, events),
      requests: store.runRequests(),
      worker: 'worker-2',
      reports,
    });
    const result: Promise<RunResult> = live.run('a long task', { signal: controller.signal });
    await until(() => store.list({}).some((s) => s.runId === 'live-1' && s.iteration >= 1));
    expect(live.live).toEqual(['live-1']);
    expect(await worker.poll()).toBe(0); // another worker does not take a cancel for a run it is not running
    expect((await post('/api/runs/live-1/cancel')).status).toBe(202);
    expect((await post('/api/runs/live-1/cancel')).body.created).toBe(false);
    expect(await live.poll()).toBe(1);
    const ended = await result;
    expect([ended.status, ended.runId]).toEqual(['cancelled', 'live-1']);
    expect(ended.end).toEqual({ state: 'cancelled' });
    expect(events.at(-1)).toMatchObject({ type: 'run.cancelled', runId: 'live-1', reason: CANCELLED_FROM_DASHBOARD });
    await live.idle();
    expect(live.live).toEqual([]);
    expect((await run('live-1')).run.state).toBe('cancelled');
    expect(
      store
        .runRequests()
        .list({ runId: 'live-1' })
        .map((r) => [r.status, r.worker, r.outcome]),
    ).toEqual([['done', 'worker-2', 'cancelled on worker-2']]);
  });
});
