// The fleet, with real processes. Two worker processes of 20 runs each; one is killed with SIGKILL,
// its runs read `interrupted`, Resume is asked for each from the dashboard page in Chromium, and the
// other worker claims and completes them. No timing assertion: every wait is for a state, under a
// generous per-case limit (on a machine shared by many test runs, the Postgres case can take minutes).
//
// - On one SQLite file and one web server in this process: SQLite keeps no leases, so a killed
//   run reads interrupted once its writes are older than `activeWithinMs` (the dashboard's clock is
//   moved past it instead of waiting).
// - On Postgres and Redis, with two web processes (what `headway serve --store postgres://…
//   --redis redis://…` runs): the killed worker held 4 s leases on its runs and the web processes
//   would wait ten minutes for a write-age guess, so the runs read interrupted because their leases
//   expired. Resume and Continue are clicked on the page, unauthenticated actions get 401, the page
//   keeps updating across a restart of its web process, and the continuation's events come back
//   out of Redis through the other web process.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Clock } from '@headway/protocol';
import { createPostgresStores } from '@headway/postgres';
import { SqliteCheckpointStore } from '@headway/store-sqlite';
import { findTestPart, startLineProcess, type LineProcess } from '@headway/test-utils';
import { launchTestBrowser, type TestBrowser } from '@headway/test-utils/browser';
import {
  POSTGRES_MISSING,
  findPostgresBin,
  startPostgres,
  startRedisServer,
  type PostgresServer,
  type RedisServer,
} from '@headway/test-utils/servers';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardHandler } from './dashboard-server.js';
import type { DashboardRun } from './dashboard-run-types.js';

const TOKEN = 'tok-fleet-0123456789';
const RUNS = 20;
const chromiumPath = findTestPart('HEADWAY_CHROMIUM_PATH');
const workerFixture = fileURLToPath(new URL('./testing/fleet-worker.fixture.ts', import.meta.url));
const webFixture = fileURLToPath(new URL('./testing/fleet-web.fixture.ts', import.meta.url));

interface WorkerArgs {
  store: string;
  reports: string;
  leaseMs?: number;
  redis?: string;
  limited?: boolean;
}

function startWorker(name: string, mode: 'hang' | 'answer', args: WorkerArgs, all: LineProcess<string>[]): LineProcess<string> {
  const child = startLineProcess(
    process.execPath,
    ['--import', 'tsx', workerFixture, JSON.stringify({ ...args, worker: name, mode, runs: RUNS })],
    {
      name,
    },
  );
  all.push(child);
  return child;
}

async function runsOf(base: string): Promise<DashboardRun[]> {
  return ((await (await fetch(`${base}/api/runs`)).json()) as { runs: DashboardRun[] }).runs;
}

/** Asks again, yielding to the event loop, until `condition` holds (the case's time limit bounds it). */
async function until(condition: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** The list's rows as the user reads them: run, state, worker. */
async function rows(page: Page): Promise<string[][]> {
  return page
    .locator('tbody tr')
    .evaluateAll((trs: { children: ArrayLike<{ textContent: string | null } | undefined> }[]) =>
      trs.map((tr) => [0, 3, 7].map((i) => tr.children[i]?.textContent ?? '')),
    );
}

describe('the fleet on one SQLite file: two worker processes, one web server', () => {
  let dir: string;
  let store: SqliteCheckpointStore;
  let server: Server;
  let base: string;
  let browser: TestBrowser | undefined;
  const workers: LineProcess<string>[] = [];
  /**
   * The dashboard's "now": the real time plus an offset the test moves. Ten minutes behind while the
   * workers start (a slow machine never makes a live run read interrupted), past `activeWithinMs`
   * after the kill (the killed worker's runs read interrupted at once, no waiting).
   */
  let offset = -600_000;
  const clock: Clock = {
    now: () => Date.now() + offset,
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => {
      clearTimeout(handle as ReturnType<typeof setTimeout>);
    },
  };

  /** Asks Resume twice at once for each run: from the page in Chromium when there is one, else from Node. */
  async function resumeTwice(ids: readonly string[]): Promise<{ status: number; created: boolean; id: string }[]> {
    const twice = ids.flatMap((id) => [id, id]);
    if (chromiumPath === undefined) {
      const headers = { origin: base, authorization: `Bearer ${TOKEN}` };
      return Promise.all(
        twice.map(async (id) => {
          const response = await fetch(`${base}/api/runs/${id}/resume`, { method: 'POST', headers, body: '{}' });
          const body = (await response.json()) as { created: boolean; request: { id: string } };
          return { status: response.status, created: body.created, id: body.request.id };
        }),
      );
    }
    browser ??= await launchTestBrowser({ executablePath: chromiumPath });
    const page = browser.page;
    await page.goto(`${base}/auth?token=${TOKEN}`); // the one-time link: sets the cookie, lands on the list
    return page.evaluate(
      async (runIds) =>
        Promise.all(
          runIds.map(async (id) => {
            const response = await fetch(`/api/runs/${encodeURIComponent(id)}/resume`, {
              method: 'POST',
              credentials: 'same-origin',
              headers: { 'content-type': 'application/json' },
              body: '{}',
            });
            const body = (await response.json()) as { created?: boolean; request?: { id: string }; error?: { message: string } };
            return { status: response.status, created: body.created === true, id: body.request?.id ?? body.error?.message ?? '' };
          }),
        ),
      twice,
    );
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'headway-fleet-'));
    store = new SqliteCheckpointStore(join(dir, 'agent.db'));
    server = createServer(createDashboardHandler({ checkpoints: store, clock, token: TOKEN, activeWithinMs: 60_000 }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  });

  afterAll(async () => {
    await browser?.close();
    for (const worker of workers) await worker.kill();
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'a killed worker’s runs read interrupted; Resume from the dashboard has the other worker complete them',
    { timeout: 480_000 },
    async () => {
      const args = { store: `sqlite:${join(dir, 'agent.db')}`, reports: join(dir, 'reports') };
      const doomed = startWorker('worker-a', 'hang', args, workers);
      const survivor = startWorker('worker-b', 'answer', args, workers);
      await doomed.waitFor((line) => line === 'READY');
      await survivor.waitFor((line) => line === 'READY');
      // Every run of worker-a has written its first round; every run of worker-b has completed.
      await until(async () => {
        const all = await runsOf(base);
        const a = all.filter((r) => r.sessionId === 'worker-a' && r.iteration >= 1);
        const b = all.filter((r) => r.sessionId === 'worker-b' && r.state === 'completed');
        return a.length === RUNS && b.length === RUNS;
      });
      expect((await runsOf(base)).filter((r) => r.sessionId === 'worker-a').map((r) => r.state)).toEqual(Array(RUNS).fill('running'));
      await doomed.kill('SIGKILL');
      offset = 61_000; // past activeWithinMs: the writes of worker-a have stopped
      const interrupted = (await runsOf(base)).filter((r) => r.state === 'interrupted');
      expect(interrupted.map((r) => r.sessionId)).toEqual(Array(RUNS).fill('worker-a'));

      // Unauthenticated: refused, nothing written.
      const target = interrupted[0]?.runId ?? '';
      expect((await fetch(`${base}/api/runs/${target}/resume`, { method: 'POST', headers: { origin: base } })).status).toBe(401);
      expect(store.runRequests().list()).toEqual([]);

      // Each Resume sent twice at once (a double click): one request each.
      const ids = interrupted.map((r) => r.runId);
      const answers = await resumeTwice(ids);
      expect(answers.map((a) => a.status)).toEqual(Array(2 * RUNS).fill(202));
      expect(answers.filter((a) => a.created).length).toBe(RUNS);
      expect(new Set(answers.map((a) => a.id)).size).toBe(RUNS);
      offset = -600_000; // resumed runs write again: live
      survivor.send('GO'); // worker-b starts claiming only now, so every click above met an interrupted run
      await until(async () => (await runsOf(base)).filter((r) => r.state === 'completed').length === 2 * RUNS);
      // The worker records how each request ended just after its run ends.
      await until(() =>
        store
          .runRequests()
          .list()
          .every((r) => r.status === 'done'),
      );
      const requests = store.runRequests().list();
      expect(requests.map((r) => [r.action, r.status, r.worker])).toEqual(Array(RUNS).fill(['resume', 'done', 'worker-b']));
      expect(new Set(requests.map((r) => r.runId))).toEqual(new Set(interrupted.map((r) => r.runId)));
      expect(survivor.lines.filter((line) => line.startsWith('ERROR'))).toEqual([]);
      expect(browser?.pageErrors ?? []).toEqual([]);
    },
  );
});

// Needs PostgreSQL (HEADWAY_PG_BIN, found by findPostgresBin), redis-server and Chromium; skips, saying which is missing, without them.
const pgBin = findPostgresBin();
const redisBin = findTestPart('HEADWAY_REDIS_SERVER');
if (pgBin === undefined) console.warn(`skipped: ${POSTGRES_MISSING}`);

describe.skipIf(pgBin === undefined || redisBin === undefined || chromiumPath === undefined)(
  'the fleet on Postgres and Redis: two worker processes, two web processes, the page in Chromium',
  () => {
    let dir: string;
    let postgres: PostgresServer;
    let redis: RedisServer;
    let storeUrl: string;
    let browser: TestBrowser;
    const workers: LineProcess<string>[] = [];
    const webs = new Map<string, { port: number; process: LineProcess<string> }>();

    /** Starts web process `name` (again on its port, after a kill) and waits until it listens. */
    async function startWeb(name: string): Promise<string> {
      const port = webs.get(name)?.port ?? 0;
      const child = startLineProcess(
        process.execPath,
        [
          '--import',
          'tsx',
          webFixture,
          JSON.stringify({ store: storeUrl, redis: redis.url, port, token: TOKEN, reports: join(dir, 'reports') }),
        ],
        { name },
      );
      const line = await child.waitFor((l) => l.startsWith('LISTENING '));
      webs.set(name, { port: Number(line.slice('LISTENING '.length)), process: child });
      return `http://127.0.0.1:${line.slice('LISTENING '.length)}`;
    }

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'headway-fleet-pg-'));
      postgres = await startPostgres(pgBin ?? '');
      redis = await startRedisServer(redisBin ?? '');
      storeUrl = await postgres.createDatabase('fleet');
      browser = await launchTestBrowser({ executablePath: chromiumPath ?? '', viewport: { width: 1280, height: 900 } });
    }, 300_000);

    afterAll(async () => {
      await browser.close();
      for (const worker of workers) await worker.kill();
      for (const web of webs.values()) await web.process.kill();
      await redis.stop();
      await postgres.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it(
      'a killed worker’s runs read interrupted when their leases expire; Resume and Continue clicked on the page are carried out by the other worker; the page survives a restart of its web process',
      { timeout: 900_000 },
      async () => {
        const web1 = await startWeb('web-1');
        const web2 = await startWeb('web-2');
        const args = { store: storeUrl, redis: redis.url, reports: join(dir, 'reports') };
        // worker-a's leases are short, so its runs read interrupted soon after the kill; worker-b's
        // are long, so a busy machine never makes one of its live runs lose its lease.
        const doomed = startWorker('worker-a', 'hang', { ...args, leaseMs: 4_000 }, workers);
        const survivor = startWorker('worker-b', 'answer', { ...args, leaseMs: 60_000, limited: true }, workers);
        await doomed.waitFor((line) => line === 'READY');
        const limitedRunId = (await survivor.waitFor((line) => line.startsWith('LIMITED '))).split(' ')[1] ?? '';
        await survivor.waitFor((line) => line === 'READY');

        // The list on web-1, filtered to worker-a: its 20 runs, live.
        const { page } = browser;
        await page.goto(`${web1}/?worker=worker-a`);
        await until(async () => {
          const shown = await rows(page);
          return shown.length === RUNS && shown.every((r) => r[1] === 'running');
        });
        const b = (await runsOf(web2)).filter((r) => r.sessionId === 'worker-b');
        expect(b.map((r) => r.state).sort()).toEqual([...Array<string>(RUNS).fill('completed'), 'limit:iterations']);

        // worker-a is killed: its leases are no longer renewed, and once they expire the page shows
        // every one of its runs interrupted (the web processes would wait ten minutes for a write-age guess).
        await doomed.kill('SIGKILL');
        await until(async () => {
          const shown = await rows(page);
          return shown.length === RUNS && shown.every((r) => r[1] === 'interrupted');
        });
        const interrupted = (await runsOf(web2)).filter((r) => r.state === 'interrupted');
        expect(interrupted.map((r) => r.sessionId)).toEqual(Array(RUNS).fill('worker-a'));
        const ids = interrupted.map((r) => r.runId);

        // Unauthenticated, the page's button and a plain request are refused (401) and write nothing.
        const clicker = await browser.newPage();
        await clicker.goto(`${web2}/runs/${ids[0] ?? ''}`);
        await clicker.getByRole('button', { name: 'Resume' }).click();
        await until(async () => ((await clicker.getByRole('alert').textContent()) ?? '').includes('actions need the token'));
        const unauthorized = await fetch(`${web1}/api/runs/${ids[0] ?? ''}/resume`, {
          method: 'POST',
          headers: { origin: web1 },
          body: '{}',
        });
        expect(unauthorized.status).toBe(401);
        expect(await (await fetch(`${web1}/api/runs/${ids[0] ?? ''}/requests`)).json()).toEqual({ requests: [] });

        // Signed in by the one-time link (the cookie serves both web processes: same host), Resume is
        // clicked on each interrupted run's page, on web-1 and web-2 in turn.
        await clicker.goto(`${web1}/auth?token=${TOKEN}`);
        for (const [i, id] of ids.entries()) {
          await clicker.goto(`${i % 2 === 0 ? web1 : web2}/runs/${id}`);
          await clicker.getByRole('button', { name: 'Resume' }).click();
          await until(async () => (await clicker.getByRole('alert').textContent()) === 'resume: requested; a worker carries it out');
        }
        // Continue on the run stopped at its iteration limit; this page stays open to watch the chain.
        await clicker.goto(`${web2}/runs/${limitedRunId}`);
        await clicker.getByRole('button', { name: 'Continue' }).click();
        await until(async () => (await clicker.getByRole('alert').textContent()) === 'continue: requested; a worker carries it out');

        // web-1, which serves the list page, is killed; the page says it is reconnecting.
        await page.evaluate(() => {
          (globalThis as unknown as { mark: number }).mark = 7; // survives only if the page never reloads
        });
        await webs.get('web-1')?.process.kill('SIGKILL');
        await until(async () => (await page.getByRole('status').textContent()) === 'reconnecting…');
        // web-1 comes back on its port; worker-b starts claiming only now, so every click above met an interrupted run.
        expect(await startWeb('web-1')).toBe(web1);
        survivor.send('GO');
        // The same page, reconnected by itself, shows worker-a's runs completed by worker-b.
        await until(async () => {
          const shown = await rows(page);
          return shown.length === RUNS && shown.every((r) => r[1] === 'completed');
        });
        expect(await page.evaluate(() => (globalThis as unknown as { mark?: number }).mark)).toBe(7);
        // The continuation appears, and the run page shows the chain.
        await until(async () => (await clicker.locator('ol.chain li').count()) === 2);
        const chain = await clicker.locator('ol.chain li').allTextContents();
        expect(chain[0]).toBe(limitedRunId);

        // What the workers recorded: every request carried out once, by worker-b.
        const stores = createPostgresStores(storeUrl);
        try {
          const requests = stores.checkpoints.runRequests();
          await until(async () => (await requests.list()).every((r) => r.status === 'done'));
          const all = await requests.list();
          expect(all.map((r) => [r.action, r.status, r.worker])).toEqual([
            ...Array<string[]>(RUNS).fill(['resume', 'done', 'worker-b']),
            ['continue', 'done', 'worker-b'],
          ]);
          expect(all.map((r) => r.runId)).toEqual([...ids, limitedRunId]);
          expect(all[RUNS]?.resultRunId).toBe(chain[1]);
          // The new run is listed, as a continuation of the stopped one.
          expect((await runsOf(web1)).find((r) => r.runId === chain[1])).toMatchObject({ parentRunId: limitedRunId, state: 'completed' });
        } finally {
          await stores.close();
        }

        // The continuation's events, published by worker-b, come out of Redis through web-2, in order.
        const frames = await liveEvents(`${web2}/api/live/runs/${encodeURIComponent(chain[1] ?? '')}`);
        expect(frames[0]?.type).toBe('run.started');
        expect(frames.at(-1)?.type).toBe('run.finished');
        expect(frames.map((f) => f.seq)).toEqual(frames.map((_, i) => i + 1));

        expect(survivor.lines.filter((line) => line.startsWith('ERROR'))).toEqual([]);
        expect([...webs.values()].flatMap((web) => web.process.lines.filter((line) => line.startsWith('ERROR')))).toEqual([]);
        expect(browser.pageErrors).toEqual([]);
      },
    );
  },
);

/** Reads a run's Server-Sent Events until its terminal event. */
async function liveEvents(url: string): Promise<{ type: string; seq: number }[]> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  expect(response.status).toBe(200);
  const events: { type: string; seq: number }[] = [];
  const decoder = new TextDecoder();
  let text = '';
  const reader = response.body?.getReader();
  for (;;) {
    const chunk = await reader?.read();
    if (chunk === undefined || chunk.done) break;
    text += decoder.decode(chunk.value as Uint8Array, { stream: true });
    let end = text.indexOf('\n\n');
    while (end !== -1) {
      const data = text
        .slice(0, end)
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n');
      text = text.slice(end + 2);
      end = text.indexOf('\n\n');
      if (data !== '') events.push(JSON.parse(data) as { type: string; seq: number });
    }
    if (['run.finished', 'run.error', 'run.cancelled'].includes(events.at(-1)?.type ?? '')) break;
  }
  controller.abort();
  return events;
}
