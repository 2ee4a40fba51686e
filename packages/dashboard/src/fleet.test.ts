// The fleet, with real processes: two worker processes of 20 runs each write to one SQLite store;
// one is killed with SIGKILL, its runs read `interrupted`, Resume is asked for each from the
// dashboard page in Chromium (signed in by the one-time link: the HttpOnly cookie and the page's own
// Origin; without Chromium, from Node with the bearer token), and the other worker claims and
// completes them. No timing assertion: every wait is for a state, under a generous per-case limit.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Clock } from '@headway/protocol';
import { SqliteCheckpointStore } from '@headway/store-sqlite';
import { findTestPart, startLineProcess, type LineProcess } from '@headway/test-utils';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardHandler } from './dashboard-server.js';
import type { DashboardRun } from './dashboard-runs.js';

const TOKEN = 'tok-fleet-0123456789';
const chromiumPath = findTestPart('HEADWAY_CHROMIUM_PATH');
let browser: Browser | undefined;
const RUNS = 20;
const fixture = fileURLToPath(new URL('./testing/fleet-worker.fixture.ts', import.meta.url));
let dir: string;
let store: SqliteCheckpointStore;
let server: Server;
let base: string;
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

function startWorker(name: string, mode: 'hang' | 'answer'): LineProcess<string> {
  const child = startLineProcess(process.execPath, [
    '--import',
    'tsx',
    fixture,
    JSON.stringify({ db: join(dir, 'agent.db'), worker: name, mode, runs: RUNS, reports: join(dir, 'reports') }),
  ]);
  workers.push(child);
  return child;
}

async function runs(): Promise<DashboardRun[]> {
  return ((await (await fetch(`${base}/api/runs`)).json()) as { runs: DashboardRun[] }).runs;
}

/** Asks again, yielding to the event loop, until `condition` holds (the case's time limit bounds it). */
async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 50));
}

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
  browser ??= await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  const page = await browser.newPage();
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

describe('the fleet: two worker processes on one store', () => {
  it(
    'a killed worker’s runs read interrupted; Resume from the dashboard has the other worker complete them',
    { timeout: 240_000 },
    async () => {
      const doomed = startWorker('worker-a', 'hang');
      const survivor = startWorker('worker-b', 'answer');
      await doomed.waitFor((line) => line === 'READY');
      await survivor.waitFor((line) => line === 'READY');
      // Every run of worker-a has written its first round; every run of worker-b has completed.
      await until(async () => {
        const all = await runs();
        const a = all.filter((r) => r.sessionId === 'worker-a' && r.iteration >= 1);
        const b = all.filter((r) => r.sessionId === 'worker-b' && r.state === 'completed');
        return a.length === RUNS && b.length === RUNS;
      });
      expect((await runs()).filter((r) => r.sessionId === 'worker-a').map((r) => r.state)).toEqual(Array(RUNS).fill('running'));
      await doomed.kill('SIGKILL');
      offset = 61_000; // past activeWithinMs: the writes of worker-a have stopped
      const interrupted = (await runs()).filter((r) => r.state === 'interrupted');
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
      await until(async () => (await runs()).filter((r) => r.state === 'completed').length === 2 * RUNS);
      // The worker records how each request ended just after its run ends.
      await until(() =>
        Promise.resolve(
          store
            .runRequests()
            .list()
            .every((r) => r.status === 'done'),
        ),
      );
      const requests = store.runRequests().list();
      expect(requests.map((r) => [r.action, r.status, r.worker])).toEqual(Array(RUNS).fill(['resume', 'done', 'worker-b']));
      expect(new Set(requests.map((r) => r.runId))).toEqual(new Set(interrupted.map((r) => r.runId)));
      expect(survivor.lines.filter((line) => line.startsWith('ERROR'))).toEqual([]);
    },
  );
});
