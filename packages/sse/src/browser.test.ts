import { fileURLToPath } from 'node:url';
import { createProgressHub, type ProgressEvent } from '@headway/protocol';
import { findTestPart } from '@headway/test-utils';
import { build } from 'esbuild';
import { launchTestBrowser, type TestBrowser } from '@headway/test-utils/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type TestServer } from './http.test-util.js';
import { createReplayLog } from './replay-log.js';
import { createSseHandler } from './sse-handler.js';

const entry = fileURLToPath(new URL('./browser.ts', import.meta.url));

async function bundleBrowserEntry(): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return { code: result.outputFiles[0]?.text ?? '', inputs: Object.keys(result.metafile.inputs) };
}

describe('browser entry', () => {
  it('bundles for the browser with nothing Node-only in it', async () => {
    const { code, inputs } = await bundleBrowserEntry();
    expect(inputs.some((i) => i.endsWith('src/browser.ts'))).toBe(true);
    expect(inputs.filter((i) => i.startsWith('node:') || /(?:^|\/)(?:node_modules\/)?(?:eventsource-parser|socket\.io)/.test(i))).toEqual(
      [],
    );
    expect(code).not.toMatch(/from\s*["']node:|require\(\s*["']node:|["'](http|net|stream|buffer|fs)["']/);
    expect(code).toContain('EventSource');
  });

  it('stays under its 16 KB minified budget, with no zod in it (validation is @headway/protocol/validate-lite)', async () => {
    // Measured: 461,677 bytes minified with zod's schemas, 7,188 bytes with the lite check.
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const shipped = Object.entries(Object.values(result.metafile.outputs)[0]?.inputs ?? {}).filter(([, v]) => v.bytesInOutput > 0);
    expect(shipped.map(([i]) => i).filter((i) => /(?:^|\/)zod\//.test(i))).toEqual([]);
    expect(result.outputFiles[0]?.contents.byteLength).toBeLessThan(16 * 1024);
  });
});

const chromiumPath = findTestPart('HEADWAY_CHROMIUM_PATH');

describe.skipIf(chromiumPath === undefined)('browser subscribeToRun in headless Chromium', { timeout: 120_000 }, () => {
  let browser: TestBrowser;
  let server: TestServer;
  const log = createReplayLog();
  const hub = createProgressHub({ runId: 'live' });
  log.attach(hub);
  let page = '';

  beforeAll(async () => {
    if (chromiumPath === undefined) return;
    const { code } = await bundleBrowserEntry();
    const sse = createSseHandler({ source: log, heartbeatMs: 0, retryMs: 50 });
    server = await listen((req, res) => {
      if (req.url === '/client.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(code);
        return;
      }
      if (req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html' }).end(page);
        return;
      }
      sse(req, res);
    });
    browser = await launchTestBrowser({ executablePath: chromiumPath });
  }, 180_000); // a hang guard: a bundle and a Chromium launch (one launch took 28 s on a busy machine)

  afterAll(async () => {
    await browser.close();
    await server.close();
  });

  it('delivers a live run in order across dropped connections, reports an invalid event, resolves at the end', async () => {
    const tab = await browser.newPage();
    page = `<!doctype html><script type="module">
      import { subscribeToRun } from '/client.js';
      window.result = { seqs: [], invalid: [] };
      subscribeToRun('/events/live', {
        onEvent: (e) => window.result.seqs.push(e.seq),
        onInvalid: (error) => window.result.invalid.push(error.message),
      }).then((t) => { window.result.terminal = t.type; }, (e) => { window.result.terminal = 'rejected: ' + e.message; });
    </script>`;
    await tab.goto(server.url);
    const seenAtLeast = (n: number) =>
      tab.waitForFunction((k) => (globalThis as unknown as { result: { seqs: number[] } }).result.seqs.length >= k, n);
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 10; i++) hub.emit({ type: 'progress', percent: round * 20 + i });
      await seenAtLeast(round * 10 + 1);
      // Cut the connection mid-burst; EventSource reconnects with Last-Event-ID.
      server.dropConnections();
    }
    log.append({ type: 'progress', runId: 'live', seq: 41, ts: 0, percent: 'much' } as unknown as ProgressEvent);
    hub.emit({ type: 'text.delta', text: 'after the bad one' }); // seq 41 from the hub: the log ignores it as a repeat
    const { seq } = hub.emit({ type: 'run.finished', durationMs: 1, outcome: 'completed' });
    await tab.waitForFunction(() => (globalThis as unknown as { result: { terminal?: string } }).result.terminal !== undefined);
    const result = (await tab.evaluate(() => (globalThis as unknown as { result: unknown }).result)) as {
      seqs: number[];
      invalid: string[];
      terminal: string;
    };
    expect(result.terminal).toBe('run.finished');
    expect(result.seqs).toEqual([...Array.from({ length: 40 }, (_, i) => i + 1), seq]);
    expect(result.invalid).toEqual(['Invalid progress event (type "progress"): percent: invalid input: expected number, received string']);
    await tab.screenshot({ path: fileURLToPath(new URL('../.vitest/browser-client.png', import.meta.url)) });
    await tab.close();
  });

  it('resumes after lastEventId (sent as a query parameter on the first connection)', async () => {
    const tab = await browser.newPage();
    page = `<!doctype html><script type="module">
      import { subscribeToRun } from '/client.js';
      window.result = { seqs: [], invalid: [] };
      subscribeToRun('/events/live', { lastEventId: 38, onEvent: (e) => window.result.seqs.push(e.seq) })
        .then((t) => { window.result.terminal = t.type; }, (e) => { window.result.terminal = 'rejected: ' + e.message; });
    </script>`;
    await tab.goto(server.url);
    await tab.waitForFunction(() => (globalThis as unknown as { result: { terminal?: string } }).result.terminal !== undefined);
    const result = (await tab.evaluate(() => (globalThis as unknown as { result: unknown }).result)) as {
      seqs: number[];
      terminal: string;
    };
    expect(result).toMatchObject({ seqs: [39, 40, 42], terminal: 'run.finished' });
    await tab.close();
  });

  it('rejects when the server refuses the stream', async () => {
    const tab = await browser.newPage();
    page = `<!doctype html><script type="module">
      import { subscribeToRun } from '/client.js';
      window.result = {};
      subscribeToRun('/events/unknown-run', { onEvent: () => {} })
        .then((t) => { window.result.terminal = t.type; }, (e) => { window.result.terminal = 'rejected: ' + e.code; });
    </script>`;
    await tab.goto(server.url);
    await tab.waitForFunction(() => (globalThis as unknown as { result: { terminal?: string } }).result.terminal !== undefined);
    expect(await tab.evaluate(() => (globalThis as unknown as { result: { terminal: string } }).result.terminal)).toBe(
      'rejected: SSE_CONNECTION_FAILED',
    );
    await tab.close();
  });
});
