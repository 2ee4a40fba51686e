// The page as a browser gets it: the bytes the server sends as /app.js, and what the page draws
// in a real headless Chromium: a list of 1,000 runs patched in place, and a run page drawing the
// actions and the cost by model the server sends (or nothing when it sends none).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ManualClock, systemClock } from '@headway/protocol';
import { formatSseFrame } from '@headway/sse';
import { SqliteCheckpointStore } from '@headway/store-sqlite';
import { findTestPart } from '@headway/test-utils';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CSP, createDashboardHandler } from './dashboard-server.js';
import { PAGE_CSS, PAGE_HTML, pageScript } from './page.js';

const chromiumPath = findTestPart('HEADWAY_CHROMIUM_PATH');
const PAGE_DIR = new URL('./page/', import.meta.url);
const pageSources = readdirSync(PAGE_DIR)
  .filter((name) => /\.tsx?$/.test(name) && !name.includes('.test.'))
  .map((name) => readFileSync(new URL(name, PAGE_DIR), 'utf8'))
  .join('\n');

// Scripts run in the page (strings: this package's types describe Node, not the DOM). The first
// notes every row node and which rows any later change touches; the second compares.
const WATCH_ROWS = `(() => {
  const body = document.querySelector('tbody');
  window.rows = Array.from(body.querySelectorAll('tr[data-run]'));
  window.touched = new Set();
  new MutationObserver((records) => {
    for (const record of records) {
      const node = record.target instanceof Element ? record.target : record.target.parentElement;
      window.touched.add(record.target === body ? 'tbody' : (node?.closest('tr')?.getAttribute('data-run') ?? '?'));
    }
  }).observe(body, { subtree: true, childList: true, characterData: true, attributes: true });
})()`;
const ROWS_SINCE = `(() => {
  const rows = Array.from(document.querySelectorAll('tbody tr[data-run]'));
  return { same: rows.every((row, i) => row === window.rows[i]), count: rows.length, touched: [...window.touched].sort() };
})()`;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
}

async function close(server: Server | undefined): Promise<void> {
  if (server === undefined) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
}

describe('the page', () => {
  it('sends at most 100 KB of script, gzipped: the bytes the server answers /app.js and /live-worker.js with', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'headway-page-'));
    const store = new SqliteCheckpointStore(join(dir, 'agent.db'));
    const server = createServer(createDashboardHandler({ checkpoints: store, clock: systemClock }));
    try {
      const base = await listen(server);
      let gzipped = 0;
      for (const name of ['app.js', 'live-worker.js']) {
        const response = await fetch(`${base}/${name}`);
        expect([response.status, response.headers.get('content-type'), response.headers.get('content-security-policy')]).toEqual([
          200,
          'text/javascript; charset=utf-8',
          DASHBOARD_CSP,
        ]);
        const bytes = Buffer.from(await response.arrayBuffer());
        expect(bytes.byteLength).toBeGreaterThan(1000); // the built bundle, not an empty answer
        gzipped += gzipSync(bytes).byteLength;
      }
      expect(gzipped).toBeLessThanOrEqual(100 * 1024);
    } finally {
      await close(server);
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has no inline script, needs no eval, and parses HTML only for the server-rendered report, in an inert document', () => {
    expect(PAGE_HTML.match(/<script[^>]*>/g)).toEqual(['<script type="module" src="/app.js">']);
    // The CSP allows neither; the bundle (Preact and the page) must not need them.
    for (const name of ['app.js', 'live-worker.js'] as const) expect(pageScript(name)).not.toMatch(/\beval\(|new Function|\bFunction\(/);
    expect(pageSources).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|dangerouslySetInnerHTML|document\.write/);
    expect(pageSources.match(/parseFromString\([^)]*\)/g)).toEqual(["parseFromString(html, 'text/html')"]);
  });

  it('reads live data over Server-Sent Events, never by polling', () => {
    expect(pageSources).toContain('new EventSource(url)');
    expect(pageSources).not.toMatch(/setInterval|setTimeout|fetch\(`\/api\/(runs|stream)[^`]*`\)/);
  });
});

describe.skipIf(chromiumPath === undefined)('the page in Chromium', () => {
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: chromiumPath ?? '',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      // A CSP refusal shows up here: the page must never need one.
      if (message.type() === 'error' && message.text().includes('Content Security Policy')) pageErrors.push(message.text());
    });
  }, 120_000);

  afterAll(async () => {
    await browser.close();
  });

  describe('a list of 1,000 runs, 50 of them live', () => {
    let dir: string;
    let store: SqliteCheckpointStore;
    let server: Server | undefined;
    let base: string;
    const state = (iteration: number) => ({
      iteration,
      toolsUsed: ['search'],
      usage: { inputTokens: 10, outputTokens: 5 },
      spentUsd: 0.01,
      providerCalls: iteration,
    });

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'headway-page-'));
      // Every run started three hours ago, so no row's age changes while the test looks.
      store = new SqliteCheckpointStore(join(dir, 'agent.db'), { clock: new ManualClock({ start: Date.now() - 3 * 3_600_000 }) });
      for (let i = 0; i < 1000; i += 1) {
        const id = String(i).padStart(4, '0');
        store.create({
          id: `cp-${id}`,
          runId: `run-${id}`,
          sessionId: `worker-${String(i % 4)}`,
          taskId: `t-${id}`,
          input: `task ${id}`,
          messages: [],
          log: [],
          state: state(1),
        });
        if (i >= 50) store.complete(`cp-${id}`);
      }
      // Written three hours ago and still live: activeWithinMs spans it.
      server = createServer(createDashboardHandler({ checkpoints: store, clock: systemClock, activeWithinMs: 86_400_000, pollMs: 250 }));
      base = await listen(server);
    }, 120_000);

    afterAll(async () => {
      await close(server);
      store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it(
      'draws a screenful of rows and patches only those whose runs changed: every row keeps its node and its slot',
      { timeout: 300_000 },
      async () => {
        const drawn = () =>
          page
            .locator('tbody tr[data-run]')
            .evaluateAll((trs: { getAttribute(name: string): string | null }[]) => trs.map((tr) => tr.getAttribute('data-run')));
        await page.goto(`${base}/`);
        await expect.poll(() => page.locator('.count').textContent(), { timeout: 60_000 }).toBe('1000 runs');
        const before = await drawn();
        // The rows near the viewport (800 px high) are drawn, the rest are a spacer of their height.
        expect([before.length > 20 && before.length < 100, before.slice(0, 3)]).toEqual([true, ['run-0000', 'run-0001', 'run-0002']]);
        expect(await page.locator('table.runs').getAttribute('aria-rowcount')).toBe('1001');
        await page.evaluate(WATCH_ROWS);
        // Three live runs go on an iteration, and one of them finishes.
        for (const id of ['0003', '0010', '0017']) store.update(`cp-${id}`, { state: state(2) });
        store.complete('cp-0010');
        const iterationOf = (runId: string) => page.locator(`tr[data-run="${runId}"] td:nth-child(5)`).textContent();
        await expect
          .poll(() => Promise.all(['run-0003', 'run-0010', 'run-0017'].map(iterationOf)), { timeout: 60_000 })
          .toEqual(['2', '2', '2']);
        await expect
          .poll(() => page.locator('tr[data-run="run-0010"] td:nth-child(4)').textContent(), { timeout: 60_000 })
          .toBe('completed');
        // The run that ended stays in its slot (the server now lists it after the live ones).
        expect(await page.evaluate(ROWS_SINCE)).toEqual({
          same: true,
          count: before.length,
          touched: ['run-0003', 'run-0010', 'run-0017'],
        });
        expect(await drawn()).toEqual(before);
        // Scrolled to the end: the last runs are drawn in the last slots.
        await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
        await expect.poll(async () => (await drawn()).at(-1), { timeout: 30_000 }).toBe('run-0999');
        expect(await page.locator('tr[data-run="run-0999"]').getAttribute('aria-rowindex')).toBe('1001');
        expect(pageErrors).toEqual([]);
      },
    );
  });

  describe('a run page, from the frames a server sends', () => {
    let server: Server | undefined;
    let base: string;
    const posted: string[] = [];
    const run = (runId: string, extra: Record<string, unknown> = {}) => ({
      id: `cp-${runId}`,
      runId,
      task: 'count the words',
      sessionId: 'worker-1',
      taskId: 't-1',
      agent: 'counter',
      state: 'limit:cost',
      stateText: 'stopped at its cost limit',
      active: false,
      iteration: 3,
      spentUsd: 0.0123,
      inputTokens: 110,
      outputTokens: 25,
      toolsUsed: ['count'],
      startedAt: 1,
      updatedAt: 2,
      percent: 60,
      ...extra,
    });
    const view = {
      steps: [{ iteration: 1, text: 'counting', tools: [{ name: 'count', args: '{}', result: '7' }] }],
      omittedSteps: 0,
      finishedSteps: [],
    };
    const frames: Record<string, unknown> = {
      priced: {
        run: run('priced', { actions: ['continue'], unpricedCalls: 1 }),
        chain: ['priced'],
        continuations: [],
        view,
        costByModel: [
          { model: 'gpt-4.1-mini', calls: 2, inputTokens: 100, outputTokens: 20, spentUsd: 0.0123 },
          { model: 'local-llama', calls: 1, inputTokens: 10, outputTokens: 5, spentUsd: null },
        ],
      },
      plain: { run: run('plain'), chain: ['plain'], continuations: [], view },
      odd: { run: run('odd', { iteration: 'three' }), chain: ['odd'], continuations: [], view },
    };

    beforeAll(async () => {
      server = createServer((req, res) => {
        const headers = { 'content-security-policy': DASHBOARD_CSP };
        const path = req.url ?? '/';
        const stream = /^\/api\/runs\/(\w+)\/stream$/.exec(path);
        const action = /^\/api\/runs\/cp-(\w+)\/(\w+)$/.exec(path);
        if (path === '/favicon.ico') res.writeHead(204, headers).end();
        else if (path.startsWith('/runs/')) res.writeHead(200, { ...headers, 'content-type': 'text/html' }).end(PAGE_HTML);
        else if (path === '/app.js' || path === '/live-worker.js')
          res
            .writeHead(200, { ...headers, 'content-type': 'text/javascript' })
            .end(pageScript(path === '/app.js' ? 'app.js' : 'live-worker.js'));
        else if (path === '/app.css') res.writeHead(200, { ...headers, 'content-type': 'text/css' }).end(PAGE_CSS);
        else if (stream?.[1] !== undefined && frames[stream[1]] !== undefined) {
          res.writeHead(200, { ...headers, 'content-type': 'text/event-stream' });
          res.write(formatSseFrame({ id: '1', event: 'run', data: JSON.stringify(frames[stream[1]]) }));
        } else if (req.method === 'POST' && action?.[2] !== undefined) {
          posted.push(`${action[1] ?? ''} ${action[2]}`);
          res.writeHead(202, { ...headers, 'content-type': 'application/json' }).end('{"ok":true,"created":true}');
        } else res.writeHead(404, headers).end();
      });
      base = await listen(server);
    });

    afterAll(async () => {
      await close(server);
    });

    it('draws the cost by model (a model with no price reads unpriced, not $0) and the actions the server allows', async () => {
      await page.goto(`${base}/runs/priced`);
      await expect.poll(() => page.locator('table.cost tbody tr').count(), { timeout: 30_000 }).toBe(2);
      expect(
        await page.locator('table.cost tr').evaluateAll((trs: { textContent: string | null }[]) => trs.map((tr) => tr.textContent)),
      ).toEqual(['ModelCallsTokens inTokens outSpent', 'gpt-4.1-mini210020$0.0123', 'local-llama1105unpriced']);
      expect(await page.locator('dt:text-is("Spent") + dd').textContent()).toBe('$0.0123 (excludes 1 unpriced call)');
      expect(await page.getByRole('button').allTextContents()).toEqual(['Continue']);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect
        .poll(() => page.getByRole('alert').textContent(), { timeout: 30_000 })
        .toBe('continue: requested; a worker carries it out');
      expect(posted).toEqual(['priced continue']);
      expect(pageErrors).toEqual([]);
    });

    it('draws no buttons and no cost table for a run whose frame carries neither', async () => {
      await page.goto(`${base}/runs/plain`);
      await expect.poll(() => page.locator('.steps > li').count(), { timeout: 30_000 }).toBe(1);
      expect([await page.getByRole('button').count(), await page.locator('table.cost').count()]).toEqual([0, 0]);
      expect(await page.locator('h3').allTextContents()).toEqual(['Steps']);
    });

    it('refuses a frame that does not read, saying what and where, and draws nothing of it', async () => {
      await page.goto(`${base}/runs/odd`);
      await expect
        .poll(() => page.getByRole('status').textContent(), { timeout: 30_000 })
        .toMatch(/^The server sent a frame this page cannot read: frame\.run\.iteration: /);
      expect(await page.locator('dl').count()).toBe(0);
      expect(pageErrors).toEqual([]);
    });
  });
});
