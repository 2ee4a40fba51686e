// End to end in a real headless Chromium: the built page runs an agent through the official
// AG-UI client (HttpAgent), against the real endpoint and the real runtime.
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgUiPageServer, type AgUiPageServer } from './server.js';

/** `HEADWAY_CHROMIUM_PATH`, else `chromium` (or `chromium-browser`) on PATH; undefined when there is none. */
function findChromium(): string | undefined {
  const fromEnv = process.env.HEADWAY_CHROMIUM_PATH;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of ['chromium', 'chromium-browser']) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

const chromiumPath = findChromium();
if (chromiumPath === undefined) {
  console.warn('ag-ui-page: no Chromium found (set HEADWAY_CHROMIUM_PATH or put chromium on PATH); the browser test is SKIPPED');
}

const root = resolve(import.meta.dirname, '..');

describe.skipIf(chromiumPath === undefined)('the AG-UI page in Chromium', () => {
  let scratch: string;
  let server: AgUiPageServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'headway-ag-ui-page-'));
    const pageDir = join(scratch, 'page');
    await build({ configFile: resolve(root, 'vite.config.ts'), logLevel: 'error', build: { outDir: pageDir } });
    server = await startAgUiPageServer({ pageDir, modelDelayMs: 150 });
    browser = await chromium.launch({ executablePath: chromiumPath ?? '', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    page = await browser.newPage();
    page.on('pageerror', (error) => {
      pageErrors.push(error.message);
    });
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') pageErrors.push(`${message.type()}: ${message.text()}`);
    });
  });

  afterAll(async () => {
    await browser.close();
    await server.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('renders a whole run: steps, tool calls with results, the answer and 100%', async () => {
    await page.goto(server.url);
    await page.click('#run');
    // While it runs, a tool call shows before its result.
    await page.waitForSelector('#tools li');
    await page.waitForFunction(() => document.getElementById('status')?.dataset.status !== 'running', undefined, { timeout: 30_000 });
    expect(await page.textContent('#status')).toBe('success');
    expect(await page.textContent('#percent')).toBe('100');
    expect(await page.$$eval('#tools li', (items) => items.map((li) => `${li.getAttribute('class') ?? ''}: ${li.textContent}`))).toEqual([
      'done: read_note {"name":"goals.md"} → headway makes long agent runs legible: progress, ETA, and a report at the limit.',
      'done: read_note {"name":"packages.md"} → protocol, estimator, report, runtime, reporters, sse, ag-ui.',
      'done: read_note {"name":"ag-ui.md"} → AG-UI front ends render a headway run with no glue code.',
    ]);
    expect(await page.textContent('#answer')).toBe(
      'Reading the notes. One more. headway makes agent runs legible, and AG-UI pages show them as they go.',
    );
    expect(await page.$$eval('#steps li', (items) => items.length)).toBeGreaterThanOrEqual(3);
    expect(pageErrors).toEqual([]);
  });
});
