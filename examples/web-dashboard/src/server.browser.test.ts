// End to end in a real headless Chromium: the built page, the real server, real runs.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isTerminalEvent, type ProgressEvent } from '@headway/protocol';
import { findTestPart } from '@headway/test-utils';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngText, withPngText } from './png-text.test-util.js';
import { startDashboardServer, type DashboardServer } from './server.js';

const root = resolve(import.meta.dirname, '..');
const artifacts = resolve(root, '.artifacts');
const readmeScreenshot = resolve(root, 'dashboard.png');
const chromiumPath = findTestPart('HEADWAY_CHROMIUM_PATH');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Every value the bar showed, tagged with the page load it belongs to. */
interface BarReading {
  load: number;
  value: number;
}

let scratch: string;
let server: DashboardServer;
let context: BrowserContext;
let page: Page;
const readings: BarReading[] = [];
let load = 0;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (chromiumPath === undefined) return;
  scratch = mkdtempSync(join(tmpdir(), 'headway-dashboard-'));
  const pageDir = join(scratch, 'page');
  await build({ configFile: resolve(root, 'vite.config.ts'), logLevel: 'error', build: { outDir: pageDir } });
  server = await startDashboardServer({ pageDir, port: 0, modelDelayMs: 350, toolDelayMs: 250, chunkDelayMs: 8 });
  context = await chromium.launchPersistentContext(join(scratch, 'profile'), {
    executablePath: chromiumPath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => {
    pageErrors.push(error.message);
  });
  await page.exposeFunction('recordBar', (value: number) => {
    readings.push({ load, value });
  });
  // Watches the bar from the first moment of every load, reload included.
  await page.addInitScript(() => {
    const record = (globalThis as unknown as { recordBar: (v: number) => void }).recordBar;
    new MutationObserver((mutations) => {
      for (const m of mutations) {
        const value = (m.target as Element).getAttribute('aria-valuenow');
        if ((m.target as Element).id === 'bar' && value !== null) record(Number(value));
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['aria-valuenow'] });
  });
  mkdirSync(artifacts, { recursive: true });
});

afterAll(async () => {
  if (chromiumPath === undefined) return;
  await context.close();
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

function runIdOf(p: Page): string {
  const match = /#run=([\w-]+)$/.exec(p.url());
  if (match?.[1] === undefined) throw new Error(`no run in ${p.url()}`);
  return match[1];
}

/**
 * Starts a run from the form and returns its id once the page follows it. The id comes from
 * the server's answer to the POST, not from the address: after an earlier test the address
 * already reads `#run=<previous run>`, so waiting for `#run=` alone can return the previous
 * run's id before the new one is in the hash.
 */
async function startRun(maxIterations: number): Promise<string> {
  await page.fill('#max-iterations', String(maxIterations));
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/runs'),
    page.click('#start-button'),
  ]);
  expect(response.status()).toBe(201);
  const { runId } = (await response.json()) as { runId: string };
  await page.waitForSelector(`#run[data-run-id="${runId}"]`);
  expect(runIdOf(page)).toBe(runId);
  return runId;
}

async function serverEvents(runId: string): Promise<ProgressEvent[]> {
  await server.finished(runId);
  return server.log.events(runId) ?? [];
}

/** The text each model call streamed, as the page should show it. */
function textBlocks(events: readonly ProgressEvent[]): string[] {
  const blocks: string[] = [];
  for (const e of events) {
    if (e.type === 'step.started' && e.step.startsWith('llm-')) blocks.push('');
    if (e.type === 'text.delta') blocks.push((blocks.pop() ?? '') + e.text);
  }
  return blocks.map((b) => b.trim()).filter((b) => b !== '');
}

function monotone(values: readonly number[]): boolean {
  return values.every((v, i) => i === 0 || v >= (values[i - 1] ?? 0));
}

describe.skipIf(chromiumPath === undefined)('web dashboard in Chromium', () => {
  it('follows a run live, survives a reload mid-run, and ends at 100% with the answer', async () => {
    load = 1;
    await page.goto(server.url);
    await expect.poll(() => page.locator('#provider option').count()).toBeGreaterThan(0);
    const runId = await startRun(10);

    // A tool runs with a spinner, then lands in the finished list with duration and preview.
    await page.waitForSelector('#running li.tool.running .spinner');
    await page.screenshot({ path: resolve(artifacts, 'dashboard-running.png'), fullPage: true });
    await page.waitForSelector('#tools li.tool:nth-child(2)');
    expect(await page.locator('#steps li').count()).toBe(4);
    expect(await page.locator('#steps li').first().innerText()).toMatch(/Search the library\s*weight 1 · 10–21%/);

    // Reload mid-run: the page comes back where it was and carries on.
    const seqBefore = Number(await page.getAttribute('#run', 'data-last-seq'));
    const barBefore = readings.at(-1)?.value ?? 0;
    expect(await page.getAttribute('#run', 'data-status')).toBe('running');
    load = 2;
    await page.reload();
    await page.waitForFunction((seq) => Number(document.querySelector<HTMLElement>('#run')?.dataset.lastSeq) >= seq, seqBefore);
    expect(runIdOf(page)).toBe(runId);
    const firstAfterReload = readings.find((r) => r.load === 2)?.value;
    // Restored from the events it had (then resumed after them), not redrawn from zero.
    expect(firstAfterReload).toBeGreaterThanOrEqual(barBefore);

    await page.waitForSelector('#run[data-status="completed"]', { timeout: 30_000 });
    const events = await serverEvents(runId);
    expect(events.at(-1)?.type).toBe('run.finished');

    // Nothing missing, nothing twice: the page applied exactly the server's events.
    expect(Number(await page.getAttribute('#run', 'data-event-count'))).toBe(events.length);
    expect(Number(await page.getAttribute('#run', 'data-last-seq'))).toBe(events.at(-1)?.seq);
    const shownCalls = await page.locator('#tools li').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.callId));
    const completedCalls = events.flatMap((e) => (e.type === 'tool.completed' ? [e.toolCallId] : []));
    expect(shownCalls).toEqual(completedCalls);
    expect(new Set(shownCalls).size).toBe(shownCalls.length);
    expect(await page.locator('#tools li .name').allInnerTexts()).toEqual([
      'search_library',
      'read_document',
      'read_document',
      'read_document',
      'read_document',
      'compute_stats',
    ]);
    expect(await page.locator('#tools li .duration').allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\d+(\.\d)? m?s$/)]),
    );
    expect(await page.locator('#tools li').first().locator('.preview').innerText()).toContain('merge-sort');
    expect(await page.locator('#running li').count()).toBe(0);
    expect(await page.locator('#text .text-block p').allInnerTexts()).toEqual(textBlocks(events));

    // The answer, and every step done.
    expect(await page.textContent('#result-title')).toBe('Answer');
    const answer = await page.innerText('#result-body');
    expect(answer).toContain('Recommendation: merge sort.');
    expect(answer).toBe(textBlocks(events).at(-1));
    expect(await page.locator('#steps li.done').count()).toBe(4);
    expect(await page.innerText('#percent')).toBe('100%');

    // The bar only rose, within each load and across the reload, and ended at 100.
    const values = readings.filter((r) => r.load <= 2).map((r) => r.value);
    expect(monotone(values)).toBe(true);
    expect(values.at(-1)).toBe(100);
    expect(new Set(readings.filter((r) => r.load === 1).map((r) => r.value)).size).toBeGreaterThanOrEqual(3);
    const serverPercents = events.flatMap((e) => (e.type === 'progress' ? [e.percent] : []));
    expect(monotone(serverPercents)).toBe(true);

    await page.screenshot({ path: resolve(artifacts, 'dashboard.png'), fullPage: true });

    // Saved events that do not hold up are dropped: the page replays the run from the server.
    await page.evaluate((id) => {
      sessionStorage.setItem(`headway-dashboard:events:${id}`, '[{"type":"progress","seq":"x"}]');
    }, runId);
    load = 3;
    await page.reload();
    await page.waitForSelector('#run[data-status="completed"]');
    expect(Number(await page.getAttribute('#run', 'data-event-count'))).toBe(events.length);
    expect(await page.locator('#tools li').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.callId))).toEqual(
      completedCalls,
    );
    expect(
      readings
        .filter((r) => r.load === 3)
        .map((r) => r.value)
        .at(-1),
    ).toBe(100);

    // The README's screenshot is this page. It carries the page's text; when the page says
    // something else (durations aside), the screenshot is rewritten and the test fails, so the new
    // one gets committed and the README never shows a stale page.
    const said = (await page.innerText('body')).replace(/\d+(?:\.\d+)?/g, '#');
    const committed = existsSync(readmeScreenshot) ? pngText(readFileSync(readmeScreenshot), 'page-text') : undefined;
    if (committed !== said) {
      // The bar's width eases in after a reload: the picture shows where it ends.
      await page.addStyleTag({ content: '* { transition: none !important; }' });
      writeFileSync(readmeScreenshot, withPngText(await page.screenshot(), 'page-text', said));
      expect.fail(`examples/web-dashboard/dashboard.png showed another page; it is rewritten from this run: commit it.\n${said}`);
    }
  });

  it('stops a run at its iteration limit with warnings and the PROGRESS REPORT', async () => {
    load = 4;
    const runId = await startRun(3);
    await page.waitForSelector(`#run[data-run-id="${runId}"][data-status="limit"]`, { timeout: 30_000 });
    const events = await serverEvents(runId);
    expect(events.filter(isTerminalEvent)).toHaveLength(1);
    expect(await page.isHidden('#error')).toBe(true);
    expect(Number(await page.getAttribute('#run', 'data-event-count'))).toBe(events.length);

    expect(await page.locator('#warnings li').allInnerTexts()).toEqual([
      'Approaching the iteration limit: 2 of 3 used',
      'Reached the iteration limit (3): the agent writes a progress report',
    ]);
    expect(await page.textContent('#result-title')).toBe('PROGRESS REPORT');
    const report = await page.innerText('#result-body');
    expect(report).toMatch(/^## PROGRESS REPORT/);
    expect(report).toContain('Read Merge sort');
    expect(report).toMatch(/Not Started \/ Remaining[\s\S]*Read Quicksort/);
    expect(await page.innerText('#status')).toBe('stopped at limit');
    expect(await page.locator('#tools li').count()).toBe(events.filter((e) => e.type === 'tool.completed').length);

    await page.screenshot({ path: resolve(artifacts, 'dashboard-report.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
