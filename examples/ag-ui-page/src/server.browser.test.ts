// End to end in a real headless Chromium: the built page runs an agent through the official
// AG-UI client (HttpAgent), against the real endpoint and the real runtime.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deferred, findTestPart } from '@headway/test-utils';
import { launchTestBrowser, type TestBrowser } from '@headway/test-utils/browser';
import type { ChatMessage } from '@headway/runtime';
import type { ScriptedStep } from '@headway/runtime/testing';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgUiPageServer, type AgUiPageServer } from './server.js';

const chromiumPath = findTestPart('HEADWAY_CHROMIUM_PATH');
const root = resolve(import.meta.dirname, '..');
/** How the page shows an ETA range. */
const ETA_RANGE = /^ETA (?:<1|\d+)–\d+ (?:s|min)$/;

/** A report a hostile model could write: markup, script, code links, deep nesting. */
const HOSTILE_REPORT = [
  '## PROGRESS REPORT',
  '### Task',
  'What is <b onmouseover="window.pwned=9">headway</b>?',
  '### Completed Work',
  '- <img src=x onerror="window.pwned=1">',
  '- <script>window.pwned=2</script>',
  '- [open](javascript:window.pwned=3) and [this](JaVaScRiPt&#58;window.pwned=4)',
  '### Key Findings',
  '- <div onclick="window.pwned=5">raw HTML block</div>',
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
  return { content: 'Reading.', toolCalls: [{ name: 'read_note', args: { name: 'goals.md' } }] };
}

describe.skipIf(chromiumPath === undefined)('the AG-UI page in Chromium', () => {
  let scratch: string;
  let server: AgUiPageServer;
  let browser: TestBrowser;
  let page: Page;
  /** Uncaught errors, console errors and warnings (Content-Security-Policy refusals among them). */
  let pageErrors: string[] = [];
  const etaTexts: string[] = [];
  /**
   * The first test's run waits at its first model call until the test has seen the page show
   * 'ETA —' (no evidence for an ETA yet), and at its third until it has seen an ETA range (two
   * roundtrips observed): each stays on the page while the run waits, however slow the machine
   * is, so the observer above records it even when Chromium applies a burst of events in one go.
   * `holdNextRun` picks the next run to start as the one held.
   */
  let holdNextRun = false;
  let heldRun: string | undefined;
  const holds = new Map([0, 2].map((index) => [index, deferred()] as const));

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'headway-ag-ui-page-'));
    const pageDir = join(scratch, 'page');
    await build({ configFile: resolve(root, 'vite.config.ts'), logLevel: 'error', build: { outDir: pageDir } });
    server = await startAgUiPageServer({
      pageDir,
      modelDelayMs: 150,
      beforeModel: async ({ runId, index }) => {
        if (index === 0 && holdNextRun) {
          holdNextRun = false;
          heldRun = runId;
        }
        if (runId === heldRun) await holds.get(index)?.promise;
      },
    });
    browser = await launchTestBrowser({ executablePath: chromiumPath ?? '', console: 'warning' });
    ({ page, pageErrors } = browser);
    await page.exposeFunction('recordEta', (text: string) => {
      etaTexts.push(text);
    });
    await page.addInitScript(() => {
      const record = (globalThis as unknown as { recordEta: (t: string) => void }).recordEta;
      new MutationObserver(() => {
        const text = document.getElementById('eta')?.textContent ?? '';
        if (text !== '') record(text);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
  });

  afterAll(async () => {
    for (const hold of holds.values()) hold.resolve();
    await browser.close();
    await server.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const finished = (p: Page): Promise<unknown> =>
    p.waitForFunction(() => document.getElementById('status')?.dataset.status !== 'running', undefined, { timeout: 30_000 });

  it('renders a whole run: named steps, an ETA range, tool calls with results, the narration apart from the answer, 100%', async () => {
    await page.goto(server.url);
    holdNextRun = true;
    await page.click('#run');
    const etaShows = (pattern: RegExp): Promise<unknown> =>
      page.waitForFunction((source) => new RegExp(source).test(document.getElementById('eta')?.textContent ?? ''), pattern.source, {
        timeout: 30_000,
      });
    await etaShows(/^ETA —$/);
    holds.get(0)?.resolve();
    // While it runs, a tool call shows before its result.
    await page.waitForSelector('#tools li');
    await etaShows(ETA_RANGE);
    holds.get(2)?.resolve();
    await finished(page);
    expect(await page.textContent('#status')).toBe('completed');
    expect(await page.textContent('#percent')).toBe('100');
    expect(await page.$$eval('#tools li', (items) => items.map((li) => `${li.getAttribute('class') ?? ''}: ${li.textContent}`))).toEqual([
      'done: read_note {"name":"goals.md"} → headway makes long agent runs legible: progress, ETA, and a report at the limit.',
      'done: read_note {"name":"packages.md"} → protocol, estimator, report, runtime, reporters, sse, ag-ui.',
      'done: read_note {"name":"ag-ui.md"} → AG-UI front ends render a headway run with no glue code.',
    ]);
    // Steps are named by what the run said it was doing, not llm-1, llm-2.
    expect(await page.locator('#steps li').allTextContents()).toEqual([
      'Reading the project notes',
      'Reading the AG-UI note',
      'Writing the answer',
    ]);
    expect(await page.locator('#steps li.done').count()).toBe(3);
    expect(await page.locator('#narration p').allTextContents()).toEqual([
      'Reading the goals and the package list.',
      'One more, about AG-UI.',
    ]);
    expect(await page.textContent('#answer')).toBe('headway makes agent runs legible, and AG-UI pages show them as they go.');
    expect(await page.isVisible('#answer-section')).toBe(true);
    expect(await page.isHidden('#report-section')).toBe(true);
    // An ETA range, as on the dashboard, once the estimator had evidence for one.
    expect(etaTexts).toContain('ETA —');
    expect(etaTexts.filter((t) => ETA_RANGE.test(t)).length).toBeGreaterThan(0);
    expect(await page.textContent('#eta')).toBe('');
    expect(pageErrors).toEqual([]);
  });

  it('renders the report of a run stopped at its limit, and Continue finishes the task with the chain shown', async () => {
    // Its own page load: the test does not lean on the first one having opened the page.
    await page.goto(server.url);
    await page.fill('#max-iterations', '2');
    await page.click('#run');
    await finished(page);
    expect(await page.textContent('#status')).toBe('stopped at limit');
    expect(await page.locator('#report h2').allTextContents()).toEqual(['PROGRESS REPORT']);
    expect(await page.locator('#report h3').allTextContents()).toEqual([
      'Task',
      'Completed Work',
      'Key Findings',
      'Attempted but Inconclusive',
      'Not Started / Remaining',
      'Suggested Next Steps',
    ]);
    const report = (await page.textContent('#report')) ?? '';
    expect(report).not.toMatch(/##|\*\*|_None\._/);
    expect(await page.locator('#report li').allTextContents()).toEqual(expect.arrayContaining(['Read goals.md', 'Read ag-ui.md']));
    expect(await page.isHidden('#answer-section')).toBe(true);
    expect(await page.textContent('#narration')).not.toContain('PROGRESS REPORT');

    await page.click('#continue');
    // The follow-up run has started once the chain lists it (its `running` status can come and
    // go between two polls on a loaded machine; the chain entry stays).
    await page.waitForFunction(() => document.querySelectorAll('#chain li').length === 2, undefined, { timeout: 30_000 });
    await finished(page);
    expect(await page.textContent('#status')).toBe('completed');
    expect(await page.textContent('#title')).toBe('What is headway?');
    expect(await page.locator('#chain li').allTextContents()).toEqual(['Run 1 · stopped at limit', 'Run 2 · continued · completed']);
    // It built on the report: only the note left unread was read.
    expect(await page.locator('#tools li').allTextContents()).toEqual([
      'read_note {"name":"ag-ui.md"} → AG-UI front ends render a headway run with no glue code.',
    ]);
    expect(await page.textContent('#answer')).toBe('headway makes agent runs legible, and AG-UI pages show them as they go.');
    expect(await page.isHidden('#report-section')).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('renders a hostile report inert: no script runs, no handler, no code link', async () => {
    const hostileServer = await startAgUiPageServer({ pageDir: join(scratch, 'page'), modelDelayMs: 0, model: () => hostileReportModel });
    const hostilePage = await browser.newPage();
    const dialogs: string[] = [];
    hostilePage.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    try {
      await hostilePage.goto(hostileServer.url);
      await hostilePage.fill('#max-iterations', '2');
      await hostilePage.click('#run');
      await hostilePage.waitForSelector('#report h2', { timeout: 30_000 });
      const body = hostilePage.locator('#report');
      expect(await body.locator('script, img, iframe, object, embed, div, svg').count()).toBe(0);
      const withHandlers = await body.evaluate((node) =>
        [...node.querySelectorAll('*')].flatMap((e) =>
          [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName} ${a.name}`),
        ),
      );
      expect(withHandlers).toEqual([]);
      const hrefs = await body.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
      expect(hrefs.filter((h) => /^\s*(?:javascript|vbscript|data):/i.test(h))).toEqual([]);
      const text = (await body.textContent()) ?? '';
      expect(text).toContain('<img src=x onerror="window.pwned=1">');
      expect(text).toContain('<script>window.pwned=2</script>');
      for (const link of await body.locator('a').all()) await link.click({ modifiers: ['Control'] }).catch(() => undefined);
      expect(await hostilePage.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
      expect(dialogs).toEqual([]);
    } finally {
      await hostilePage.close();
      await hostileServer.close();
    }
  });
});
