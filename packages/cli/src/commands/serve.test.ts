// `headway serve` as a user starts it: a child process over a SQLite file that real runtime runs
// wrote, checked in a real headless Chromium.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@headway/protocol';
import { findTestPart } from '@headway/test-utils';
import { AgentRuntime, defineTool, saveRunReport } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { SqliteCheckpointStore } from '@headway/store-sqlite';
import axe from 'axe-core';
import { launchTestBrowser, type TestBrowser } from '@headway/test-utils/browser';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PACKAGE_DIR, runCli, startCli } from '../run-cli.test-util.js';

const chromiumPath = findTestPart('HEADWAY_CHROMIUM_PATH');
const TOKEN = 'serve-test-token-0123456789';
const search = defineTool({
  name: 'search',
  description: 'finds things',
  parameters: z.object({ q: z.string() }),
  execute: () => 'nothing yet',
});

let dir: string;
let dbPath: string;
let port = '0';
let child: ChildProcessWithoutNullStreams | undefined;
let origin: string;
let browser: TestBrowser | undefined;
let page: Page;
/** The page's uncaught errors and Content-Security-Policy refusals: the page must never need one. */
let pageErrors: string[] = [];

function ids(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}-${String((n += 1))}`;
}

/** How long `headway serve` here counts a run written that recently as running: a day. */
const ACTIVE_WITHIN_MS = 86_400_000;

/**
 * Runs that really ran, with the runtime, into a SQLite file: a completed one, one stopped at its
 * limit (its report saved) and its continuation, one left by a kill two days ago, and one running now.
 */
async function writeRuns(path: string, reportsDir: string): Promise<void> {
  const now = Date.now();
  // Two days back, beyond ACTIVE_WITHIN_MS, so the killed run reads interrupted and the live one
  // (written now) running for the whole file, however slow the machine. The finished runs start
  // at the same time as the killed one, so the list keeps them in the order of their ids.
  const past = new ManualClock({ start: now - 2 * ACTIVE_WITHIN_MS });
  const store = new SqliteCheckpointStore(path, { clock: past });
  const answering = new ScriptedProvider([{ toolCalls: [{ name: 'search', args: { q: '42' } }] }, { content: 'done: 42' }]);
  await new AgentRuntime(
    { provider: 'scripted' },
    { provider: answering, tools: [search], checkpointStore: store, generateId: ids('done') },
  ).run('answer the question');
  const looping = new ScriptedProvider(() => ({ content: 'again', toolCalls: [{ name: 'search', args: { q: 'x' } }] }));
  const limited = await new AgentRuntime(
    { provider: 'scripted', maxIterations: 2 },
    { provider: looping, tools: [search], checkpointStore: store, generateId: ids('limit') },
  ).run('search forever');
  saveRunReport(reportsDir, limited);
  const finishing = new ScriptedProvider([{ toolCalls: [{ name: 'search', args: { q: 'y' } }] }, { content: 'found it' }]);
  await new AgentRuntime(
    { provider: 'scripted' },
    { provider: finishing, tools: [search], checkpointStore: store, generateId: ids('next') },
  ).continueRun({ runId: limited.runId, report: limited.report! });
  const state = { iteration: 1, toolsUsed: ['search'], usage: { inputTokens: 10, outputTokens: 5 }, spentUsd: 0.01, providerCalls: 1 };
  store.create({
    id: 'cp-killed',
    runId: 'run-killed',
    sessionId: 'worker-2',
    taskId: 't-k',
    input: 'killed task',
    messages: [],
    log: [],
    state,
  });
  store.close();
  const live = new SqliteCheckpointStore(path);
  live.create({ id: 'cp-live', runId: 'run-live', sessionId: 'worker-1', taskId: 't-l', input: 'live task', messages: [], log: [], state });
  live.close();
}

/** Starts `headway serve` and reads the address it prints. */
function startServe(path: string): Promise<string> {
  child = startCli([
    'serve',
    '--store',
    `sqlite:${path}`,
    '--port',
    port,
    '--token',
    TOKEN,
    '--reports',
    join(dir, 'reports'),
    '--active-within',
    String(ACTIVE_WITHIN_MS),
  ]);
  let out = '';
  return new Promise((resolve, reject) => {
    child?.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const match = /^headway serve: (http:\/\/127\.0\.0\.1:\d+)\/$/m.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child?.on('exit', (code) => {
      reject(new Error(`headway serve exited with ${String(code)} before printing its address`));
    });
  });
}

/** The list's rows as the user reads them: run, state, iteration, worker, task. */
async function rows(): Promise<string[][]> {
  return page
    .locator('tbody tr')
    .evaluateAll((trs: { children: ArrayLike<{ textContent: string | null } | undefined> }[]) =>
      trs.map((tr) => [0, 3, 4, 7, 9].map((i) => tr.children[i]?.textContent ?? '')),
    );
}

describe('headway serve --help and bad usage', () => {
  it('prints its help, and refuses a missing store with exit 2', async () => {
    const help = await runCli(['serve', '--help']);
    expect([help.code, help.stdout.split('\n')[0]]).toEqual([
      0,
      'headway serve --store sqlite:PATH|postgres://… [--redis redis://…] [--host 127.0.0.1] [--port 4400] [--token T] [--active-within MS] [--reports DIR]',
    ]);
    const bad = await runCli(['serve', '--store', 'mysql://x']);
    expect(bad.code).toBe(2);
    const badRedis = await runCli(['serve', '--store', 'sqlite:nowhere.db', '--redis', 'http://127.0.0.1:6379']);
    expect([badRedis.code, badRedis.stderr]).toEqual([2, expect.stringContaining('--redis must be a redis:// or rediss:// URL')]);
  });
});

describe.skipIf(chromiumPath === undefined)('headway serve in Chromium', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'headway-serve-'));
    dbPath = join(dir, 'agent.db');
    await writeRuns(dbPath, join(dir, 'reports'));
    origin = await startServe(dbPath);
    port = new URL(origin).port;
    browser = await launchTestBrowser({ executablePath: chromiumPath ?? '', viewport: { width: 1280, height: 800 } });
    ({ page, pageErrors } = browser);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (child?.exitCode === null) {
      const exited = new Promise<number | null>((resolve) => child?.once('exit', resolve));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists every run, the live one first, with state, iteration, session and task', async () => {
    await page.goto(`${origin}/`);
    await expect.poll(async () => (await rows()).length, { timeout: 30_000 }).toBe(5);
    expect(await rows()).toEqual([
      ['run-live', 'running', '1', 'worker-1', 'live task'],
      ['done-1', 'completed', '2', 'done-2', 'answer the question'],
      ['limit-1', 'limit:iterations', '2', 'limit-2', 'search forever'],
      ['next-1', 'completed', '2', 'next-2', 'search forever'],
      ['run-killed', 'interrupted', '1', 'worker-2', 'killed task'],
    ]);
    expect(await page.locator('tbody tr').first().getByRole('progressbar').count()).toBe(1);
    // The agent column: what the runtime's config named it (checkpoints written by hand say nothing).
    expect(await page.locator('tbody tr td:nth-child(9)').allTextContents()).toEqual(['', 'agent', 'agent', 'agent', '']);
    expect(pageErrors).toEqual([]);
  });

  it('filters by state into the address, and a deep link with a filter shows the same', async () => {
    await page.getByLabel('state').selectOption('interrupted');
    await expect.poll(async () => (await rows()).map((r) => r[0]), { timeout: 30_000 }).toEqual(['run-killed']);
    expect(new URL(page.url()).search).toBe('?state=interrupted');
    // The continuation keeps its parent's task, so the search finds both.
    await page.goto(`${origin}/?q=forever`);
    await expect.poll(async () => (await rows()).map((r) => r[0]), { timeout: 30_000 }).toEqual(['limit-1', 'next-1']);
  });

  it('opens a run, goes back with the back button, and loads a run page from its link', async () => {
    await page.goto(`${origin}/`);
    await page.getByRole('link', { name: 'limit-1' }).click();
    await expect.poll(() => page.locator('#app > h2').textContent(), { timeout: 30_000 }).toBe('limit-1');
    expect(new URL(page.url()).pathname).toBe('/runs/limit-1');
    expect(await page.locator('dd').first().textContent()).toBe('limit:iterations (stopped at its iteration limit)');
    await page.goBack();
    await expect.poll(async () => (await rows()).length, { timeout: 30_000 }).toBe(5);
    await page.goto(`${origin}/runs/run-killed`);
    await expect.poll(() => page.locator('#app > h2').textContent(), { timeout: 30_000 }).toBe('run-killed');
  });

  it('refuses Abandon before sign-in, and abandons the interrupted run after the one-time link', async () => {
    await page.goto(`${origin}/runs/run-killed`);
    await page.getByRole('button', { name: 'Abandon' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 30_000 }).toContain('actions need the token');
    await page.goto(`${origin}/auth?token=${TOKEN}`);
    await page.goto(`${origin}/runs/run-killed`);
    await page.getByRole('button', { name: 'Abandon' }).click();
    await expect.poll(() => page.locator('dd').first().textContent(), { timeout: 30_000 }).toMatch(/^cancelled /);
    expect(pageErrors).toEqual([]);
  });

  it("shows a run's iterations and tools, its saved report as rendered Markdown, and its chain of continuations", async () => {
    await page.goto(`${origin}/runs/limit-1`);
    await expect.poll(() => page.locator('.steps > li').count(), { timeout: 30_000 }).toBe(2);
    expect(await page.locator('.steps > li').first().innerText()).toBe('Iteration 1\nagain\nsearch({"q":"x"}) → nothing yet');
    const report = page.getByRole('region', { name: 'progress report' });
    expect(await report.locator('h3').allTextContents()).toEqual([
      'Task',
      'Completed Work',
      'Key Findings',
      'Attempted but Inconclusive',
      'Not Started / Remaining',
      'Suggested Next Steps',
    ]);
    expect(await report.textContent()).not.toMatch(/##|\*\*/);
    expect(await page.locator('ol.chain li').allTextContents()).toEqual(['limit-1', 'next-1']);
    await page.getByRole('link', { name: 'next-1' }).click();
    await expect.poll(() => page.locator('#app > h2').textContent(), { timeout: 30_000 }).toBe('next-1');
    await expect.poll(() => page.locator('ol.chain li').allTextContents(), { timeout: 30_000 }).toEqual(['limit-1', 'next-1']);
    expect(pageErrors).toEqual([]);
  });

  it('has no serious or critical accessibility violations (axe-core) on the list and on a run page', async () => {
    const violations = async (): Promise<string[]> => {
      // Injected through the debugging protocol, which the page's CSP does not govern.
      await page.evaluate(axe.source);
      return page.evaluate(async () => {
        // The copy just injected into the page (this function runs there).
        const injected = (globalThis as unknown as { axe: typeof axe }).axe;
        const result = await injected.run();
        return result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id} (${String(v.impact)}): ${JSON.stringify(v.nodes.map((n) => n.target))}`);
      });
    };
    await page.goto(`${origin}/`);
    await expect.poll(async () => (await rows()).length, { timeout: 30_000 }).toBe(5);
    expect(await violations()).toEqual([]);
    await page.goto(`${origin}/runs/limit-1`);
    await expect.poll(() => page.locator('.steps > li').count(), { timeout: 30_000 }).toBe(2);
    expect(await violations()).toEqual([]);
  });

  it('updates the open page when a worker writes, and keeps updating across a restart of headway serve (SSE reconnect)', async () => {
    await page.goto(`${origin}/?worker=worker-7`);
    await expect.poll(() => page.locator('.count').textContent(), { timeout: 30_000 }).toBe('0 runs');
    // A mark on the window: it survives only if the page never reloads.
    await page.evaluate(() => {
      (globalThis as unknown as { mark: number }).mark = 7;
    });
    const state = { iteration: 2, toolsUsed: ['search'], usage: { inputTokens: 10, outputTokens: 5 }, spentUsd: 0.01, providerCalls: 2 };
    const writer = new SqliteCheckpointStore(dbPath);
    writer.create({
      id: 'cp-new-1',
      runId: 'run-new-1',
      sessionId: 'worker-7',
      taskId: 't-n',
      input: 'arrives live',
      messages: [],
      log: [],
      state,
    });
    await expect.poll(async () => (await rows()).map((r) => r[0]), { timeout: 30_000 }).toEqual(['run-new-1']);

    const exited = new Promise<number | null>((resolve) => child?.once('exit', resolve));
    child?.kill('SIGINT');
    expect(await exited).toBe(0);
    writer.create({
      id: 'cp-new-2',
      runId: 'run-new-2',
      sessionId: 'worker-7',
      taskId: 't-n',
      input: 'after the restart',
      messages: [],
      log: [],
      state,
    });
    writer.close();
    expect(await startServe(dbPath)).toBe(origin);
    await expect.poll(async () => (await rows()).map((r) => r[0]), { timeout: 30_000 }).toEqual(['run-new-1', 'run-new-2']);
    expect(await page.evaluate(() => (globalThis as unknown as { mark?: number }).mark)).toBe(7);
    expect(pageErrors).toEqual([]);
  });

  it("writes the README's screenshots of the list and of a run (when missing, or asked to with HEADWAY_UPDATE_SCREENSHOTS=1)", async () => {
    const images = join(PACKAGE_DIR, '..', 'dashboard', 'images');
    const update = process.env.HEADWAY_UPDATE_SCREENSHOTS === '1';
    mkdirSync(images, { recursive: true });
    await page.goto(`${origin}/`);
    await expect.poll(async () => (await rows()).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(5);
    if (update || !existsSync(join(images, 'list.png'))) await page.screenshot({ path: join(images, 'list.png'), animations: 'disabled' });
    await page.goto(`${origin}/runs/limit-1`);
    await expect.poll(() => page.locator('.steps > li').count(), { timeout: 30_000 }).toBe(2);
    if (update || !existsSync(join(images, 'run.png')))
      await page.screenshot({ path: join(images, 'run.png'), fullPage: true, animations: 'disabled' });
    expect(existsSync(join(images, 'list.png')) && existsSync(join(images, 'run.png'))).toBe(true);
  });
});
