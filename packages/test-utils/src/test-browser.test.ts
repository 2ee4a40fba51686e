import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchTestBrowser } from './test-browser.js';
import { findTestPart } from './test-part.js';

const chromiumPath = findTestPart('HEADWAY_CHROMIUM_PATH');

// A page under a strict CSP that throws, logs an error and a warning, and is refused an inline script.
const PAGE = `<!doctype html><title>t</title><script src="/app.js"></script><script>window.inline = 1</script>`;
const SCRIPT = `console.warn('careful'); console.error('bad thing'); setTimeout(() => { throw new Error('boom'); });`;

describe.skipIf(chromiumPath === undefined)('launchTestBrowser', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const script = req.url === '/app.js';
      res.writeHead(200, {
        'content-type': script ? 'text/javascript' : 'text/html',
        'content-security-policy': "script-src 'self'",
      });
      res.end(script ? SCRIPT : PAGE);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/`;
  });
  afterAll(() => {
    server.close();
  });

  /** Opens the page and waits until its uncaught error has been collected. */
  async function errorsOf(level: 'csp' | 'error' | 'warning' | undefined, profileDir?: string): Promise<string[]> {
    const browser = await launchTestBrowser({
      executablePath: chromiumPath ?? '',
      ...(level === undefined ? {} : { console: level }),
      ...(profileDir === undefined ? {} : { profileDir }),
    });
    try {
      await browser.page.goto(url);
      while (!browser.pageErrors.includes('boom')) await new Promise((resolve) => setTimeout(resolve, 20));
      return browser.pageErrors.map((e) =>
        e.replace(/Executing inline script violates the following Content Security Policy.*/s, 'CSP refusal'),
      );
    } finally {
      await browser.close();
    }
  }

  // Each test launches one browser, and its timeout is a hang guard sized for a busy machine: one
  // launch there took 28 s, and a test that launched two in 60 s failed with nothing wrong.
  const HANG_GUARD = { timeout: 300_000 };

  it('collects the first page’s uncaught errors, and its CSP refusals by default', HANG_GUARD, async () => {
    expect((await errorsOf(undefined)).sort()).toEqual(['CSP refusal', 'boom']);
  });

  it('collects console errors when asked', HANG_GUARD, async () => {
    expect((await errorsOf('error')).sort()).toEqual(['boom', 'error: CSP refusal', 'error: bad thing']);
  });

  it('collects errors and warnings when asked, in a persistent profile', HANG_GUARD, async () => {
    const profile = mkdtempSync(join(tmpdir(), 'headway-profile-'));
    try {
      expect((await errorsOf('warning', profile)).sort()).toEqual(['boom', 'error: CSP refusal', 'error: bad thing', 'warning: careful']);
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
