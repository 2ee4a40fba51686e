// End to end in a real headless Chromium: the built page, the real server, real runs.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isTerminalEvent, type ProgressEvent } from '@headway/protocol';
import { deferred, findTestPart } from '@headway/test-utils';
import { launchTestBrowser, type TestBrowser } from '@headway/test-utils/browser';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngText, withPngText } from './png-text.test-util.js';
import type { ChatMessage } from '@headway/runtime';
import type { ScriptedStep } from '@headway/runtime/testing';
import { DEFAULT_TASK } from './scripted-model.js';
import { startDashboardServer, type DashboardServer } from './server.js';

/** A report a hostile model could write: markup, script, code links, deep nesting. */
const HOSTILE_REPORT = [
  '## PROGRESS REPORT',
  '### Task',
  'Compare <b onmouseover="window.pwned=9">sorting</b> algorithms',
  '### Completed Work',
  '- <img src=x onerror="window.pwned=1">',
  '- <script>window.pwned=2</script>',
  '- [open](javascript:window.pwned=3) and [this](JaVaScRiPt&#58;window.pwned=4)',
  '### Key Findings',
  '- <div onclick="window.pwned=5">raw HTML block</div>',
  '- ![pixel](https://tracker.example/p.png)',
  `- ${Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n')}`,
  '### Attempted but Inconclusive',
  '- <iframe src="javascript:window.pwned=6"></iframe>',
  '### Not Started / Remaining',
  `- ${'<svg onload="window.pwned=7">'.repeat(2000)}`,
  '### Suggested Next Steps',
  '- [ok](https://example.org/next)',
].join('\n');

/** Calls a tool every iteration, so the run hits its limit, then writes {@link HOSTILE_REPORT}. */
function hostileReportModel(conversation: readonly ChatMessage[]): ScriptedStep {
  const asked = conversation
    .filter((m) => m.role === 'user')
    .slice(1)
    .some((m) => m.content.includes('PROGRESS REPORT'));
  if (asked) return { content: HOSTILE_REPORT };
  return { content: 'Searching again.', toolCalls: [{ name: 'search_library', args: { query: 'sort' } }] };
}

const root = resolve(import.meta.dirname, '..');
const artifacts = resolve(root, '.artifacts');
const readmeScreenshot = resolve(root, 'dashboard.png');
const chromiumPath = findTestPart('HEADWAY_CHROMIUM_PATH');

/** Every value the bar showed, tagged with the page load it belongs to. */
interface BarReading {
  load: number;
  value: number;
}

let scratch: string;
let server: DashboardServer;
let browser: TestBrowser;
let page: Page;
const readings: BarReading[] = [];
let load = 0;
/** The page's uncaught errors and Content-Security-Policy refusals: nothing it does may be refused. */
let pageErrors: string[] = [];
/**
 * The first test's run waits at its fourth tool (the third document read) until this resolves:
 * the test looks at it and reloads it mid-run, however slow the machine is.
 */
const hold = deferred();

beforeAll(async () => {
  if (chromiumPath === undefined) return;
  scratch = mkdtempSync(join(tmpdir(), 'headway-dashboard-'));
  const pageDir = join(scratch, 'page');
  await build({ configFile: resolve(root, 'vite.config.ts'), logLevel: 'error', build: { outDir: pageDir } });
  server = await startDashboardServer({
    pageDir,
    port: 0,
    modelDelayMs: 350,
    toolDelayMs: 250,
    chunkDelayMs: 8,
    beforeTool: async ({ index }) => {
      if (index === 3) await hold.promise;
    },
  });
  browser = await launchTestBrowser({
    executablePath: chromiumPath,
    profileDir: join(scratch, 'profile'),
    viewport: { width: 1280, height: 900 },
  });
  ({ page, pageErrors } = browser);
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
  hold.resolve();
  await browser.close();
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

    // A tool runs with a spinner, then lands in the finished list with duration and preview. The
    // run waits at its fourth tool, so a tool is still running and the run is not over yet.
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
    hold.resolve();

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
    // The narration is what the model said before its tool calls; the last turn is the answer, apart.
    const blocks = textBlocks(events);
    expect(await page.locator('#text .text-block p').allInnerTexts()).toEqual(blocks.slice(0, -1));
    expect(blocks.slice(0, -1).every((b) => !b.includes('Recommendation'))).toBe(true);

    // The answer, and every step done.
    expect(await page.textContent('#result-title')).toBe('Answer');
    const answer = await page.innerText('#result-body');
    expect(answer).toContain('Recommendation: merge sort.');
    expect(answer).toBe(blocks.at(-1));
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
    // A duration reads `<duration>` whatever its unit (the held tool can take ms or s), other numbers `#`.
    const said = (await page.innerText('body'))
      .replace(/(?<![\d.])(?:\d+ min )?\d+(?:\.\d+)? m?s\b/g, '<duration>')
      .replace(/\d+(?:\.\d+)?/g, '#');
    const committed = existsSync(readmeScreenshot) ? pngText(readFileSync(readmeScreenshot), 'page-text') : undefined;
    if (committed !== said) {
      // The bar's width eases in after a reload: the picture shows where it ends.
      writeFileSync(readmeScreenshot, withPngText(await page.screenshot({ animations: 'disabled' }), 'page-text', said));
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
    // The report is rendered, not shown as Markdown: headings, lists, emphasis.
    expect(await page.locator('#result-body h2').allInnerTexts()).toEqual(['PROGRESS REPORT']);
    expect(await page.locator('#result-body h3').allTextContents()).toEqual([
      'Task',
      'Completed Work',
      'Key Findings',
      'Attempted but Inconclusive',
      'Not Started / Remaining',
      'Suggested Next Steps',
    ]);
    const report = (await page.textContent('#result-body')) ?? '';
    expect(report).not.toMatch(/##|\*\*|_None\._/);
    expect(await page.locator('#result-body em', { hasText: 'None.' }).count()).toBe(1);
    expect(await page.locator('#result-body li').allInnerTexts()).toEqual(expect.arrayContaining(['Read Merge sort']));
    expect(report).toMatch(/Not Started \/ Remaining[\s\S]*Read Quicksort/);
    expect(await page.innerText('#status')).toBe('stopped at limit');
    expect(await page.locator('#tools li').count()).toBe(events.filter((e) => e.type === 'tool.completed').length);
    // The report's text is not narration: no raw report in the model's output either.
    expect(await page.locator('#text').innerText()).not.toContain('PROGRESS REPORT');
    await page.screenshot({ path: resolve(artifacts, 'dashboard-report.png'), fullPage: true });

    // Continue: the follow-up run starts from the report, the page follows it to the end, and the
    // chain shows where it came from.
    expect(await page.isVisible('#continue-button')).toBe(true);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `/api/runs/${runId}/continue`),
      page.click('#continue-button'),
    ]);
    expect(response.status()).toBe(201);
    const next = (await response.json()) as { runId: string };
    await page.waitForSelector(`#run[data-run-id="${next.runId}"][data-status="completed"]`, { timeout: 30_000 });
    expect(runIdOf(page)).toBe(next.runId);
    expect(await page.innerText('#task')).toBe(DEFAULT_TASK);
    expect(await page.locator('#chain li').allInnerTexts()).toEqual(['Run 1 · stopped at limit', 'Run 2 · continued · completed']);
    expect(await page.getAttribute('#chain li:first-child a', 'href')).toBe(`#run=${runId}`);
    const nextEvents = await serverEvents(next.runId);
    expect(nextEvents[0]).toMatchObject({ type: 'run.started', task: DEFAULT_TASK, parentRunId: runId });
    expect(await page.textContent('#result-title')).toBe('Answer');
    expect(await page.innerText('#result-body')).toContain('Recommendation: merge sort.');
    expect(await page.isHidden('#continue-panel')).toBe(true);
    await page.screenshot({ path: resolve(artifacts, 'dashboard-continued.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it('renders a hostile report inert: no script runs, no handler, no code link', async () => {
    const hostileServer = await startDashboardServer({
      pageDir: join(scratch, 'page'),
      port: 0,
      modelDelayMs: 0,
      toolDelayMs: 0,
      chunkDelayMs: 0,
      scriptedModel: () => hostileReportModel,
    });
    const hostilePage = await browser.newPage();
    const dialogs: string[] = [];
    hostilePage.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    try {
      await hostilePage.goto(hostileServer.url);
      await hostilePage.fill('#max-iterations', '2');
      await hostilePage.click('#start-button');
      await hostilePage.waitForSelector('#run[data-status="limit"] #result-body h2', { timeout: 30_000 });
      const body = hostilePage.locator('#result-body');
      expect(await body.locator('script, img, iframe, object, embed, div, svg').count()).toBe(0);
      const withHandlers = await body.evaluate((node) =>
        [...node.querySelectorAll('*')].flatMap((e) =>
          [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName} ${a.name}`),
        ),
      );
      expect(withHandlers).toEqual([]);
      const hrefs = await body.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
      expect(hrefs.filter((h) => /^\s*(?:javascript|vbscript|data):/i.test(h))).toEqual([]);
      const text = await body.innerText();
      expect(text).toContain('<img src=x onerror="window.pwned=1">');
      expect(text).toContain('<script>window.pwned=2</script>');
      // Click every link the report has: none runs anything.
      for (const link of await body.locator('a').all()) await link.click({ modifiers: ['Control'] }).catch(() => undefined);
      expect(await hostilePage.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
      expect(dialogs).toEqual([]);
    } finally {
      await hostilePage.close();
      await hostileServer.close();
    }
  });
});
