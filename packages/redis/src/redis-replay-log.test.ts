import { request } from 'node:http';
import { createProgressHub, HeadwayError, systemClock, type ProgressEvent } from '@headway/protocol';
import { createSseHandler } from '@headway/sse';
import type { RedisClientType } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectRedis } from './connect-redis.js';
import { runKeys } from './keys.js';
import { createRedisReplayLog, type RedisReplayLog } from './redis-replay-log.js';
import type { RedisError } from './redis-error.js';
import { createRedisSink } from './redis-sink.js';
import { frameIds, get, listen } from './testing/sse.test-util.js';
import { findTestPart } from '@headway/test-utils';
import { startRedisServer, type RedisServer } from '@headway/test-utils/servers';

const binary = findTestPart('HEADWAY_REDIS_SERVER');

describe.skipIf(binary === undefined)('@headway/redis against a real redis-server', () => {
  let server: RedisServer;
  let client: RedisClientType;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    server = await startRedisServer(binary ?? 'redis-server');
    client = await connectRedis(server.url);
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    client.destroy();
    await server.stop();
  });

  async function serve(log: RedisReplayLog): Promise<string> {
    const http = await listen(createSseHandler({ source: log, heartbeatMs: 0, retryMs: 10 }));
    closers.push(http.close, () => log.close());
    return http.url;
  }

  function emitRun(runId: string, count: number): ProgressEvent[] {
    const hub = createProgressHub({ runId });
    const sink = createRedisSink(client, { leaseMs: 60_000 });
    hub.add(sink);
    const events = [hub.emit({ type: 'run.started', agentName: 'demo' })];
    for (let i = 1; i < count; i++) events.push(hub.emit({ type: 'progress', percent: i }));
    events.push(hub.emit({ type: 'run.finished', durationMs: 5, outcome: 'completed' }));
    closers.push(async () => {
      await sink.close();
    });
    return events;
  }

  it('connectRedis refuses an unreachable Redis with REDIS_UNREACHABLE naming the URL, never its password', async () => {
    const error: unknown = await connectRedis(`redis://app:s3cret@127.0.0.1:${server.port + 1}/0`, {
      attempts: 2,
      connectTimeoutMs: 500,
    }).catch((e: unknown) => e);
    expect(HeadwayError.isInstance(error, 'REDIS_UNREACHABLE')).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain(`redis://app:***@127.0.0.1:${server.port + 1}/0`);
    expect(message).not.toContain('s3cret');
  });

  it('connectRedis refuses a URL that is not redis:// without echoing it', async () => {
    const error: unknown = await connectRedis('http://user:pw@host').catch((e: unknown) => e);
    expect(HeadwayError.isInstance(error, 'REDIS_INVALID_OPTIONS')).toBe(true);
    expect((error as Error).message).not.toContain(':pw@');
  });

  it('a web process whose Redis is down answers 503, and serves again once Redis is back', async () => {
    const own = await startRedisServer(binary ?? 'redis-server');
    closers.push(() => own.stop());
    const ownClient = await connectRedis(own.url, { maxReconnectDelayMs: 100 });
    closers.push(() => {
      ownClient.destroy();
      return Promise.resolve();
    });
    const log = createRedisReplayLog(ownClient, { reapIntervalMs: 0, onInternalError: () => undefined });
    const url = await serve(log);
    await own.crash();
    // The client notices the crash, and after the restart reconnects and answers an HTTP round trip:
    // on a loaded machine either may take seconds. A generous limit, not a timing.
    await vi.waitFor(
      () => {
        expect(ownClient.isReady).toBe(false);
      },
      { timeout: 30_000 },
    );
    const down = await get(`${url}/runs/any-run`);
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body)).toMatchObject({ code: 'SSE_SOURCE_UNAVAILABLE' });
    await own.restart();
    await vi.waitFor(
      async () => {
        expect((await get(`${url}/runs/any-run`)).status).toBe(404);
      },
      { timeout: 30_000 },
    );
  }, 120_000);

  it('a 2 MB run.finished is written cut to the 1 MiB the reader reads, with a marker: subscribers get it and end', async () => {
    const errors: unknown[] = [];
    const hub = createProgressHub({ runId: 'huge-end-1' });
    const sink = createRedisSink(client, { leaseMs: 60_000, onInternalError: (error) => errors.push(error) });
    hub.add(sink);
    closers.push(async () => {
      await sink.close();
    });
    const invalid: RedisError[] = [];
    const log = createRedisReplayLog(client, { reapIntervalMs: 0, onInvalid: (error) => invalid.push(error) });
    // Room for two 1 MiB frames at once: the SSE handler would otherwise cut this client off as slow.
    const http = await listen(createSseHandler({ source: log, heartbeatMs: 0, retryMs: 10, maxBufferedBytes: 8 * 1024 * 1024 }));
    closers.push(http.close, () => log.close());
    const url = http.url;
    hub.emit({ type: 'run.started', agentName: 'huge' });
    hub.emit({ type: 'tool.completed', toolName: 'dump', durationMs: 1, ok: true, preview: 'p'.repeat(3_000_000) });
    hub.emit({ type: 'run.finished', durationMs: 5, outcome: 'completed', summary: `Done. ${'s'.repeat(2_000_000)}` });
    expect(await sink.flush()).toBe(true);
    expect(sink.stats()).toMatchObject({ written: 3, truncated: 2, oversized: 0, dropped: 0 });
    expect(errors.map((e) => (e as RedisError).code)).toEqual(['REDIS_EVENT_TOO_LARGE', 'REDIS_EVENT_TOO_LARGE']);
    // The whole body arrives: the server ends the stream after the terminal event.
    const all = await get(`${url}/runs/huge-end-1`);
    expect(all.status).toBe(200);
    expect(frameIds(all.body)).toEqual([1, 2, 3]);
    const frames = [...all.body.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1] ?? 'null') as ProgressEvent);
    const finished = frames[2] as ProgressEvent & { summary: string };
    expect(finished).toMatchObject({ type: 'run.finished', outcome: 'completed', durationMs: 5, seq: 3 });
    expect(finished.summary.startsWith('Done. sss')).toBe(true);
    expect(finished.summary.endsWith('… [truncated: 2,000,006 characters]')).toBe(true);
    expect(JSON.stringify(finished).length).toBeLessThanOrEqual(1024 * 1024);
    expect((frames[1] as ProgressEvent & { preview: string }).preview.endsWith('… [truncated: 3,000,000 characters]')).toBe(true);
    expect(invalid).toEqual([]);
    expect(await log.listRuns()).toContainEqual(expect.objectContaining({ runId: 'huge-end-1', state: 'finished', lastSeq: 3 }));
  }, 120_000);

  it('trims an active run by age (MINID) when maxAgeMs is set', async () => {
    let t = 1_000_000;
    // Time is read from t; the sink's timers are the real ones.
    const clock = { ...systemClock, now: () => t };
    const hub = createProgressHub({ runId: 'age-1', clock });
    const sink = createRedisSink(client, { maxAgeMs: 1000, clock });
    hub.add(sink);
    for (let i = 0; i < 300; i++) hub.emit({ type: 'progress', percent: i % 99 });
    await sink.flush();
    t += 5000;
    hub.emit({ type: 'progress', percent: 99 });
    await sink.flush();
    hub.emit({ type: 'progress', percent: 99 });
    await sink.flush();
    expect(Number(await client.sendCommand(['XLEN', runKeys('headway:', 'age-1').stream]))).toBeLessThanOrEqual(102);
    await sink.close();
  });

  it('a web process serves a run written by a sink: every event once, in order, then the end; 404 / 400 / 204 / resume as in memory', async () => {
    const events = emitRun('serve-1', 20);
    const log = createRedisReplayLog(client, { reapIntervalMs: 0 });
    const url = await serve(log);
    await vi.waitFor(
      async () => {
        expect(await client.sendCommand(['XLEN', runKeys('headway:', 'serve-1').stream])).toBe(21);
      },
      { timeout: 30_000 },
    );
    const all = await get(`${url}/runs/serve-1`);
    expect(all.status).toBe(200);
    expect(frameIds(all.body)).toEqual(events.map((e) => e.seq));
    const first = /^data: (.*)$/m.exec(all.body)?.[1];
    expect(JSON.parse(first ?? 'null')).toEqual(events[0]);
    expect(frameIds((await get(`${url}/runs/serve-1`, { 'last-event-id': '17' })).body)).toEqual([18, 19, 20, 21]);
    expect((await get(`${url}/runs/serve-1`, { 'last-event-id': '21' })).status).toBe(204);
    expect((await get(`${url}/runs/serve-1`, { 'last-event-id': '99' })).status).toBe(400);
    expect((await get(`${url}/runs/nope`)).status).toBe(404);
    // A run id that would escape the key prefix is never looked up.
    expect((await get(`${url}/runs/${encodeURIComponent('x}:*')}`)).status).toBe(404);
    expect(await log.listRuns()).toContainEqual(
      expect.objectContaining({ runId: 'serve-1', state: 'finished', lastSeq: 21, agentName: 'demo' }),
    );
    // A finished run expires with its TTL (1 hour by default); its lease is gone.
    const keys = runKeys('headway:', 'serve-1');
    for (const key of [keys.stream, keys.meta]) expect(Number(await client.sendCommand(['PTTL', key]))).toBeGreaterThan(3_500_000);
    expect(await client.sendCommand(['EXISTS', keys.lease])).toBe(0);
  });

  it('a client that stops reading is cut off (slow) as with the in-memory log', async () => {
    const log = createRedisReplayLog(client, { reapIntervalMs: 0 });
    const reasons: string[] = [];
    const http = await listen(
      createSseHandler({ source: log, heartbeatMs: 0, maxBufferedBytes: 64 * 1024, onDisconnect: ({ reason }) => reasons.push(reason) }),
    );
    closers.push(http.close, () => log.close());
    const hub = createProgressHub({ runId: 'slow-1' });
    const sink = createRedisSink(client);
    hub.add(sink);
    hub.emit({ type: 'run.started', agentName: 'slow' });
    await sink.flush();
    const stalled = request(`${http.url}/runs/slow-1`, (res) => {
      res.pause();
      res.socket.pause();
    });
    stalled.on('error', () => undefined);
    stalled.end();
    await vi.waitFor(
      () => {
        expect(log.stats().readers).toBe(1);
      },
      { timeout: 30_000 },
    );
    const text = 'x'.repeat(8 * 1024);
    for (let i = 0; i < 2000 && !reasons.includes('slow'); i++) {
      hub.emit({ type: 'text.delta', text });
      if (i % 100 === 99) {
        await sink.flush();
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    await vi.waitFor(
      () => {
        expect(reasons).toContain('slow');
      },
      { timeout: 30_000 },
    );
    stalled.destroy();
    await sink.close();
  }, 120_000);

  it('a retried write is refused as a duplicate, not stored twice', async () => {
    const sink = createRedisSink(client);
    const event: ProgressEvent = { type: 'run.started', agentName: 'dup', runId: 'dup-1', seq: 1, ts: 1 };
    void sink.handle(event);
    void sink.handle(event);
    expect(await sink.flush()).toBe(true);
    expect(sink.stats()).toMatchObject({ written: 1, duplicates: 1, queued: 0 });
    expect(await client.sendCommand(['XLEN', runKeys('headway:', 'dup-1').stream])).toBe(1);
    await sink.close();
  });

  it('refuses a run id that would escape its key prefix, and reports it', async () => {
    const errors: unknown[] = [];
    const sink = createRedisSink(client, { onInternalError: (error) => errors.push(error) });
    void sink.handle({ type: 'run.started', agentName: 'x', runId: 'a}:*', seq: 1, ts: 1 });
    expect(await sink.flush()).toBe(true);
    expect(sink.stats()).toMatchObject({ refused: 1, written: 0 });
    expect(HeadwayError.isInstance(errors[0], 'REDIS_INVALID_RUN_ID')).toBe(true);
    expect(await client.sendCommand(['KEYS', '*a}*'])).toEqual([]);
    await sink.close();
  });

  it('an entry that is not a valid event is skipped, counted and reported; the clients get the rest', async () => {
    const invalid: RedisError[] = [];
    const log = createRedisReplayLog(client, { reapIntervalMs: 0, onInvalid: (error) => invalid.push(error) });
    const url = await serve(log);
    const key = runKeys('headway:', 'bad-1').stream;
    const good = (seq: number, type = 'progress'): string =>
      JSON.stringify(
        type === 'progress'
          ? { type, percent: seq, runId: 'bad-1', seq, ts: seq }
          : { type, durationMs: 1, outcome: 'completed', runId: 'bad-1', seq, ts: seq },
      );
    await client.sendCommand(['XADD', key, '1-0', 'e', good(1)]);
    await client.sendCommand(['XADD', key, '2-0', 'e', '{"type":"progress","perc']); // a partial write
    await client.sendCommand(['XADD', key, '3-0', 'e', JSON.stringify({ type: 'progress', percent: 3, runId: 'other', seq: 3, ts: 3 })]);
    await client.sendCommand(['XADD', key, '4-0', 'e', good(4)]);
    const res = fetch(`${url}/runs/bad-1`).then((r) => r.text());
    await vi.waitFor(
      () => {
        expect(log.stats().readers).toBe(1);
      },
      { timeout: 30_000 },
    );
    await client.sendCommand(['XADD', key, '5-5', 'junk', 'x']); // another writer
    await client.sendCommand(['XADD', key, '6-0', 'e', good(6, 'run.finished')]);
    expect(frameIds(await res)).toEqual([1, 4, 6]);
    expect(invalid.map((e) => [e.code, e.entryId])).toEqual([
      ['REDIS_INVALID_ENTRY', '2-0'],
      ['REDIS_INVALID_ENTRY', '3-0'],
      ['REDIS_INVALID_ENTRY', '5-5'],
    ]);
    expect(log.stats().invalid).toBe(3);
  });

  it('reads every run this process serves on ONE blocking connection', async () => {
    const log = createRedisReplayLog(client, { reapIntervalMs: 0 });
    const url = await serve(log);
    const hubs = Array.from({ length: 12 }, (_, i) => createProgressHub({ runId: `many-${i}` }));
    const sink = createRedisSink(client);
    for (const hub of hubs) {
      hub.add(sink);
      hub.emit({ type: 'run.started', agentName: 'many' });
    }
    await sink.flush();
    const before = Number(/connected_clients:(\d+)/.exec(await client.sendCommand<string>(['INFO', 'clients']))?.[1]);
    const bodies = hubs.map((hub) => fetch(`${url}/runs/${hub.runId}`).then((r) => r.text()));
    // Twelve requests on a loaded machine may take seconds to reach the server: a generous limit, not a timing.
    await vi.waitFor(
      () => {
        expect(log.stats()).toMatchObject({ readers: 12, runs: 12 });
      },
      { timeout: 30_000, interval: 20 },
    );
    for (const hub of hubs) hub.emit({ type: 'run.finished', durationMs: 1, outcome: 'completed' });
    for (const body of await Promise.all(bodies)) expect(frameIds(body)).toEqual([1, 2]);
    const after = Number(/connected_clients:(\d+)/.exec(await client.sendCommand<string>(['INFO', 'clients']))?.[1]);
    expect(after - before).toBeLessThanOrEqual(1);
    await sink.close();
  });

  it('a full queue drops new events (never the terminal one), counts them and reports it; `wait` holds them instead', async () => {
    const errors: unknown[] = [];
    const hub = createProgressHub({ runId: 'full-1' });
    const sink = createRedisSink(client, { maxQueue: 5, onInternalError: (error) => errors.push(error) });
    hub.add(sink);
    for (let i = 0; i < 20; i++) hub.emit({ type: 'progress', percent: i });
    hub.emit({ type: 'run.finished', durationMs: 1, outcome: 'completed' });
    await sink.flush();
    const { dropped, written } = sink.stats();
    expect(dropped).toBeGreaterThan(0);
    expect(written + dropped).toBe(21);
    expect(errors.filter((e) => HeadwayError.isInstance(e, 'REDIS_QUEUE_FULL'))).toHaveLength(1);
    const entries = await client.sendCommand<[string, string[]][]>(['XRANGE', runKeys('headway:', 'full-1').stream, '-', '+']);
    expect(entries.at(-1)?.[0]).toBe('21-0');

    const waiting = createProgressHub({ runId: 'full-2' });
    const patient = createRedisSink(client, { maxQueue: 5, overflow: 'wait' });
    waiting.add(patient);
    for (let i = 0; i < 20; i++) waiting.emit({ type: 'progress', percent: i });
    waiting.emit({ type: 'run.finished', durationMs: 1, outcome: 'completed' });
    await waiting.flush();
    await patient.flush();
    expect(patient.stats()).toMatchObject({ dropped: 0, written: 21 });
    await sink.close();
    await patient.close();
  });

  it('trims a stream by length, and a resume from before what is kept gets 410', async () => {
    const hub = createProgressHub({ runId: 'trim-1' });
    const sink = createRedisSink(client, { maxLength: 100 });
    hub.add(sink);
    for (let i = 0; i < 1000; i++) hub.emit({ type: 'progress', percent: i % 99 });
    await sink.flush();
    const length = Number(await client.sendCommand(['XLEN', runKeys('headway:', 'trim-1').stream]));
    expect(length).toBeLessThan(1000);
    const log = createRedisReplayLog(client, { reapIntervalMs: 0 });
    const url = await serve(log);
    expect((await get(`${url}/runs/trim-1`, { 'last-event-id': '3' })).status).toBe(410);
    hub.emit({ type: 'run.finished', durationMs: 1, outcome: 'completed' });
    await sink.close();
    const tail = frameIds((await get(`${url}/runs/trim-1`, { 'last-event-id': '995' })).body);
    expect(tail).toEqual([996, 997, 998, 999, 1000, 1001]);
  });
});
