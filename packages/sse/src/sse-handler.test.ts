import { request } from 'node:http';
import { ManualClock, createProgressHub, type ProgressEvent } from '@headway/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { ev, finished } from './events.test-util.js';
import { get, listen, type TestServer } from './http.test-util.js';
import { createReplayLog, type ReplayLog } from './replay-log.js';
import type { DisconnectReason } from './client-stream.js';
import { createSseHandler, type SseHandlerOptions } from './sse-handler.js';
import { subscribeToRun } from './subscribe-to-run.js';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(options: SseHandlerOptions): Promise<TestServer> {
  const server = await listen(createSseHandler({ heartbeatMs: 0, ...options }));
  servers.push(server);
  return server;
}

function logWith(runId: string, count: number, end = false): ReplayLog {
  const log = createReplayLog();
  for (let s = 1; s <= count; s++) log.append(ev(runId, s));
  if (end) log.append(finished(runId, count + 1));
  return log;
}

const seqs = (events: readonly ProgressEvent[]): number[] => events.map((e) => e.seq);
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('createSseHandler', () => {
  it('writes retry, then id/event/data frames, and closes after the terminal event', async () => {
    const log = createReplayLog();
    log.append(ev('r1', 1, { type: 'run.started', agentName: 'demo' }));
    log.append(ev('r1', 2, { type: 'text.delta', text: 'two\nlines' }));
    log.append(finished('r1', 3));
    const { url } = await serve({ source: log });
    const res = await get(`${url}/runs/r1`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache, no-transform');
    expect(res.body).toMatchInlineSnapshot(`
      "retry: 2000

      id: 1
      event: progress
      data: {"type":"run.started","agentName":"demo","runId":"r1","seq":1,"ts":1001}

      id: 2
      event: progress
      data: {"type":"text.delta","text":"two\\nlines","runId":"r1","seq":2,"ts":1002}

      id: 3
      event: progress
      data: {"type":"run.finished","durationMs":5,"outcome":"completed","runId":"r1","seq":3,"ts":1003}

      "
    `);
  });

  it('streams a live hub run to a real client, which resolves at the terminal event', async () => {
    const hub = createProgressHub({ runId: 'live' });
    const { url } = await serve({ source: hub });
    const received: ProgressEvent[] = [];
    const done = subscribeToRun(`${url}/anything`, {
      onEvent: (e) => {
        received.push(e);
        // Emit the next one only after the previous arrived, so the stream is truly live.
        if (e.seq < 20) hub.emit({ type: 'progress', percent: e.seq * 4 });
        else if (e.seq === 20) hub.emit({ type: 'run.finished', durationMs: 1, outcome: 'completed' });
      },
    });
    // The log attached at handler creation, so the first event is kept even if the client is not there yet.
    hub.emit({ type: 'run.started', agentName: 'a' });
    const terminal = await done;
    expect(terminal?.type).toBe('run.finished');
    expect(seqs(received)).toEqual(range(1, 21));
  });

  it('carries the agent plan and the ETA range to a real client', async () => {
    const hub = createProgressHub({ runId: 'plan' });
    const { url } = await serve({ source: hub });
    const received: ProgressEvent[] = [];
    const done = subscribeToRun(url, { onEvent: (e) => received.push(e) });
    hub.emit({ type: 'run.started', agentName: 'a' });
    const plan = hub.emit({
      type: 'plan.updated',
      items: [
        { id: 'a', text: 'Read', status: 'completed' },
        { text: 'Fix', status: 'in_progress' },
      ],
    });
    const progress = hub.emit({ type: 'progress', percent: 69, etaMs: 90_000, etaLowMs: 20_000, etaHighMs: 600_000 });
    hub.emit({ type: 'run.finished', durationMs: 1, outcome: 'completed' });
    await done;
    expect(received.slice(1, 3)).toEqual([plan, progress]);
  });

  it('resumes after Last-Event-ID with exactly the later events (header, else the lastEventId query; header wins)', async () => {
    const { url } = await serve({ source: logWith('r', 10, true) });
    const after = async (headers: Record<string, string>, query = ''): Promise<number[]> => {
      const res = await get(`${url}/r${query}`, headers);
      return [...res.body.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    };
    expect(await after({ 'last-event-id': '7' })).toEqual([8, 9, 10, 11]);
    expect(await after({}, '?lastEventId=9')).toEqual([10, 11]);
    expect(await after({ 'last-event-id': '10' }, '?lastEventId=2')).toEqual([11]);
    expect(await after({ 'last-event-id': '0' })).toEqual(range(1, 11));
  });

  it('answers bad, ahead, expired, finished and unknown positions with a status, never a hang', async () => {
    const log = createReplayLog({ maxEventsPerRun: 5 });
    for (let s = 1; s <= 10; s++) log.append(ev('r', s));
    log.append(finished('done', 1));
    const { url } = await serve({ source: log });
    const bad = await get(`${url}/r`, { 'last-event-id': 'abc' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({
      code: 'SSE_BAD_LAST_EVENT_ID',
      message: 'Last-Event-ID must be a non-negative integer (an event\'s seq), got "abc"',
    });
    for (const id of ['-1', '1.5', '1e3', '0x3', '99999999999999999'])
      expect((await get(`${url}/r`, { 'last-event-id': id })).status).toBe(400);
    const ahead = await get(`${url}/r`, { 'last-event-id': '11' });
    expect([ahead.status, (JSON.parse(ahead.body) as { code: string }).code]).toEqual([400, 'SSE_LAST_EVENT_ID_AHEAD']);
    const expired = await get(`${url}/r`, { 'last-event-id': '3' });
    expect([expired.status, (JSON.parse(expired.body) as { code: string }).code]).toEqual([410, 'SSE_EVENTS_EXPIRED']);
    expect((await get(`${url}/done`, { 'last-event-id': '1' })).status).toBe(204);
    expect((await get(`${url}/nope`)).status).toBe(404);
    expect((await get(`${url}/`)).status).toBe(404);
    expect((await get(`${url}/r`, {}, 'POST')).status).toBe(405);
    const head = await get(`${url}/done`, {}, 'HEAD');
    expect([head.status, head.headers['content-type'], head.body]).toEqual([200, 'text/event-stream; charset=utf-8', '']);
  });

  it('survives dropped connections: the client resumes with Last-Event-ID, no gap and no duplicate', async () => {
    const hub = createProgressHub({ runId: 'flaky' });
    const server = await serve({ source: hub, retryMs: 1 });
    const received: ProgressEvent[] = [];
    let reconnects = 0;
    const done = subscribeToRun(`${server.url}/flaky`, {
      onEvent: (e) => {
        received.push(e);
        if (e.seq % 10 === 0 && e.seq < 60) {
          // Emit a burst, then cut the connection in the middle of it.
          for (let i = 0; i < 10; i++) hub.emit({ type: 'progress', percent: 1 });
          setImmediate(() => {
            reconnects += 1;
            server.dropConnections();
            for (let i = 0; i < 5; i++) hub.emit({ type: 'progress', percent: 2 });
          });
        }
        if (e.seq === 75) hub.emit({ type: 'run.finished', durationMs: 1, outcome: 'completed' });
      },
    });
    for (let i = 0; i < 10; i++) hub.emit({ type: 'progress', percent: 0 });
    const terminal = await done;
    expect(reconnects).toBeGreaterThanOrEqual(5);
    expect(terminal?.seq).toBeGreaterThan(75);
    expect(seqs(received)).toEqual(range(1, terminal?.seq ?? 0));
  });

  it(
    'disconnects a client that stops reading once its unsent data passes maxBufferedBytes; others are unaffected and it can resume',
    { timeout: 30_000 },
    async () => {
      const log = createReplayLog({ maxBytesPerRun: 64 * 1024 * 1024 });
      log.register('big');
      const ends: DisconnectReason[] = [];
      let cutOff: () => void = () => undefined;
      const slow = new Promise<void>((resolve) => (cutOff = resolve));
      const maxBufferedBytes = 256 * 1024;
      const { url } = await serve({
        source: log,
        maxBufferedBytes,
        onDisconnect: ({ reason }) => {
          ends.push(reason);
          if (reason === 'slow') cutOff();
        },
      });
      // The stalled client: connects, reads the headers, then never reads again.
      const stalled = request(`${url}/big`, (res) => {
        res.pause();
        res.socket.pause();
      });
      stalled.on('error', () => undefined);
      stalled.end();
      let healthy = 0;
      let caughtUp: (() => void) | undefined;
      let waitFor = 0;
      const healthyDone = subscribeToRun(`${url}/big`, {
        onEvent: () => {
          healthy += 1;
          if (healthy >= waitFor) caughtUp?.();
        },
      });
      // Bursts well under the cap, each sent once the healthy client has what came before:
      // the stalled client falls behind by ~16 MiB (more than the kernel's socket buffers).
      const text = 'z'.repeat(16 * 1024);
      for (let s = 1; s <= 1000; s++) {
        log.append(ev('big', s, { type: 'text.delta', text }));
        if (s % 8 === 0) {
          waitFor = s;
          if (healthy < s) await new Promise<void>((resolve) => (caughtUp = resolve));
        }
      }
      log.append(finished('big', 1001));
      await slow;
      await healthyDone;
      stalled.destroy();
      expect(healthy).toBe(1001);
      expect(ends.filter((r) => r === 'slow')).toHaveLength(1);
      expect(ends.filter((r) => r === 'done')).toHaveLength(1);
      // It can resume from where it was cut off.
      const resumed: number[] = [];
      await subscribeToRun(`${url}/big`, { lastEventId: 900, onEvent: (e) => resumed.push(e.seq) });
      expect(resumed).toEqual(range(901, 1001));
    },
  );

  it('asks authorize before anything else: 401, 403, a throwing check is a 500', async () => {
    const calls: string[] = [];
    const { url } = await serve({
      source: logWith('r', 1, true),
      authorize: (req, runId) => {
        calls.push(runId);
        const auth = req.headers.authorization;
        if (auth === 'Bearer boom') throw new Error('db down');
        if (auth === undefined) return 401;
        return auth === 'Bearer good';
      },
    });
    expect((await get(`${url}/r`)).status).toBe(401);
    expect((await get(`${url}/r`, { authorization: 'Bearer bad' })).status).toBe(403);
    expect((await get(`${url}/unknown`, { authorization: 'Bearer bad' })).status).toBe(403);
    expect((await get(`${url}/r`, { authorization: 'Bearer boom' })).status).toBe(500);
    expect((await get(`${url}/r`, { authorization: 'Bearer good' })).status).toBe(200);
    expect(calls).toEqual(['r', 'r', 'unknown', 'r', 'r']);
  });

  it('sends CORS headers only to listed origins, with credentials, and answers preflights', async () => {
    const { url } = await serve({ source: logWith('r', 1, true), cors: { origins: ['https://app.example.com'], credentials: true } });
    const ok = await get(`${url}/r`, { origin: 'https://app.example.com' });
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    expect(ok.headers.vary).toBe('Origin');
    const other = await get(`${url}/r`, { origin: 'https://evil.example.com' });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await get(`${url}/r`, { origin: 'https://app.example.com', 'access-control-request-method': 'GET' }, 'OPTIONS');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toContain('Last-Event-ID');
    expect((await get(`${url}/r`, { origin: 'https://evil.example.com' }, 'OPTIONS')).status).toBe(403);
  });

  it('refuses a wildcard with credentials, and anything that is not exactly an origin', () => {
    const source = createReplayLog();
    expect(() => createSseHandler({ source, cors: { origins: ['*'], credentials: true } })).toThrow(
      /'\*' cannot be combined with credentials/,
    );
    expect(() => createSseHandler({ source, cors: { origins: ['https://a.example.com/'] } })).toThrow(
      /cors.origins\[0\].*is not an origin/,
    );
    expect(() => createSseHandler({ source, cors: { origins: ['a.example.com'] } })).toThrow(/is not an origin/);
    expect(() => createSseHandler({ source, maxBufferedBytes: 0 })).toThrow(/maxBufferedBytes/);
  });

  it('sends a heartbeat comment to an idle client on the injected timer', async () => {
    const clock = new ManualClock();
    const log = createReplayLog();
    log.register('idle');
    const { url } = await serve({ source: log, heartbeatMs: 15_000, clock });
    const body = await new Promise<string>((resolve) => {
      const req = request(`${url}/idle`, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (text === 'retry: 2000\n\n') clock.advanceSync(15_000);
          if (text.endsWith(':\n\n')) {
            req.destroy();
            resolve(text);
          }
        });
      });
      req.end();
    });
    expect(body).toBe('retry: 2000\n\n:\n\n');
  });
});
