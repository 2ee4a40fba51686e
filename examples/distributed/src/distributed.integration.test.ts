// Needs a real redis-server (HEADWAY_REDIS_SERVER, else on PATH) and for the page a Chromium
// (HEADWAY_CHROMIUM_PATH, else on PATH); what is missing is skipped, with a message.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findTestPart } from '@headway/test-utils';
import { connectRedis } from '@headway/redis';
import { subscribeToRun } from '@headway/sse';
import { launchTestBrowser } from '@headway/test-utils/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb, type WebServer } from './web.js';
import { runAgent } from './worker.js';

const chromiumPath = findTestPart('HEADWAY_CHROMIUM_PATH');
const binary = findTestPart('HEADWAY_REDIS_SERVER');

describe.skipIf(binary === undefined)('distributed example', () => {
  let stopRedis: () => void = () => undefined;
  let url = '';
  beforeAll(async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const address = probe.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    await new Promise<void>((resolve) =>
      probe.close(() => {
        resolve();
      }),
    );
    const dir = mkdtempSync(join(tmpdir(), 'headway-example-redis-'));
    const child = spawn(binary ?? 'redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', ''], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Ready to accept connections')) resolve();
      });
    });
    url = `redis://127.0.0.1:${port}`;
    stopRedis = () => {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    };
  });
  afterAll(() => {
    stopRedis();
  });

  it('a run from a worker is listed and streamed, identically, by whichever web process a page reaches', async () => {
    const client = await connectRedis(url);
    const webs: WebServer[] = [await startWeb(client, { name: 'web-a' }), await startWeb(client, { name: 'web-b' })];
    try {
      const run = runAgent(client, { runId: 'example-run', steps: 3, stepDelayMs: 20 });
      const follow = (web: WebServer): Promise<string[]> => {
        const seen: string[] = [];
        return subscribeToRun(`${web.url}api/runs/example-run/events`, {
          onEvent: (e) => seen.push(`${e.seq} ${e.type}`),
          retryMs: 20,
        }).then(() => seen);
      };
      // The run's first events reach Redis before anyone asks for it.
      const { result } = await run;
      expect(result.status).toBe('completed');
      const [a, b] = await Promise.all(webs.map(follow));
      expect(a).toEqual(b);
      expect(a?.at(0)).toBe('1 run.started');
      expect(a?.at(-1)).toMatch(/run\.finished$/);
      expect(a?.some((line) => line.endsWith(' tool.executing'))).toBe(true);
      for (const web of webs) {
        const res = await fetch(`${web.url}api/runs`);
        const body = (await res.json()) as { servedBy: string; runs: { runId: string; state: string; worker?: string }[] };
        expect(body.runs).toContainEqual(expect.objectContaining({ runId: 'example-run', state: 'finished' }));
        expect(res.headers.get('x-served-by')).toBe(body.servedBy);
      }
      expect(await (await fetch(webs[0]?.url ?? '')).text()).toContain('<title>headway — distributed runs</title>');
    } finally {
      for (const web of webs) await web.close();
      client.destroy();
    }
  });

  it.skipIf(chromiumPath === undefined)(
    'the page, on either web process, lists the run and follows it live to its end (headless Chromium)',
    async () => {
      const client = await connectRedis(url);
      const webs: WebServer[] = [await startWeb(client, { name: 'web-a' }), await startWeb(client, { name: 'web-b' })];
      const scratch = mkdtempSync(join(tmpdir(), 'headway-distributed-page-'));
      const browser = await launchTestBrowser({ executablePath: chromiumPath ?? '', profileDir: scratch });
      try {
        const run = runAgent(client, { runId: 'page-run', steps: 4, stepDelayMs: 300 });
        const logs: string[] = [];
        for (const web of webs) {
          const { page } = browser;
          await page.goto(web.url);
          await page.getByText(/list served by web-[ab]/).waitFor();
          expect(await page.locator('#served').textContent()).toBe(`(list served by ${web === webs[0] ? 'web-a' : 'web-b'})`);
          await page.locator('#runs tr', { hasText: 'page-run'.slice(0, 8) }).click();
          await page.locator('#log', { hasText: 'run.finished' }).waitFor({ timeout: 30_000 });
          expect(await page.locator('#bar').evaluate((bar) => (bar as HTMLProgressElement).value)).toBe(100);
          logs.push((await page.locator('#log').textContent()) ?? '');
        }
        expect((await run).result.status).toBe('completed');
        expect(logs[0]).toMatch(/^1 run\.started\n/);
        expect(logs[1]).toBe(logs[0]);
      } finally {
        await browser.close();
        rmSync(scratch, { recursive: true, force: true });
        for (const web of webs) await web.close();
        client.destroy();
      }
    },
  );
});
