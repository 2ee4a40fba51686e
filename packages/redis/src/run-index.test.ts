// The abandoned marker ends an attempt, not the run: a resumed run is followable, a stale worker
// stays fenced. Needs a real redis-server (HEADWAY_REDIS_SERVER, else on PATH). A lapsed lease is
// made by deleting the lease key (what its expiry does), so nothing here waits on time.
import { createProgressHub, type ProgressEvent } from '@headway/protocol';
import { createSseHandler } from '@headway/sse';
import { findTestPart } from '@headway/test-utils';
import type { RedisClientType } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from './connect-redis.js';
import { runKeys } from './keys.js';
import type { RedisError } from './redis-error.js';
import { createRedisReplayLog } from './redis-replay-log.js';
import { createRedisSink, type RedisSink } from './redis-sink.js';
import { ABANDONED_MESSAGE, isAbandonedMarker, listRuns, reapAbandonedRuns } from './run-index.js';
import { startRedisServer, type RedisServer } from '@headway/test-utils/servers';
import { frameIds, get, listen } from './testing/sse.test-util.js';

const binary = findTestPart('HEADWAY_REDIS_SERVER');

/** The events of an SSE body, in order. */
function framesOf(body: string): ProgressEvent[] {
  return [...body.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1] ?? 'null') as ProgressEvent);
}

describe.skipIf(binary === undefined)('a run marked abandoned, then resumed (real redis-server)', () => {
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

  function sinkFor(errors: unknown[] = []): RedisSink {
    const sink = createRedisSink(client, { leaseMs: 60_000, onInternalError: (error) => errors.push(error) });
    closers.push(async () => {
      await sink.close();
    });
    return sink;
  }

  async function serve(): Promise<string> {
    const log = createRedisReplayLog(client, { reapIntervalMs: 0 });
    const http = await listen(createSseHandler({ source: log, heartbeatMs: 0, retryMs: 10 }));
    closers.push(http.close, () => log.close());
    return http.url;
  }

  /** Worker A writes run.started and 3 progress events (seq 1–4), then its lease lapses and the run is reaped (marker at 5). */
  async function abandoned(runId: string, errors: unknown[] = []): Promise<{ hub: ReturnType<typeof createProgressHub>; sink: RedisSink }> {
    const sink = sinkFor(errors);
    const hub = createProgressHub({ runId });
    hub.add(sink);
    hub.emit({ type: 'run.started', agentName: 'first' });
    for (let i = 1; i <= 3; i++) hub.emit({ type: 'progress', percent: i * 10 });
    expect(await sink.flush()).toBe(true);
    await client.del(runKeys('headway:', runId).lease);
    expect(await reapAbandonedRuns(client)).toContain(runId);
    return { hub, sink };
  }

  /** Worker B resumes the run from a checkpoint that says `lastSeq`: two more events, then the end. */
  async function resume(runId: string, lastSeq: number, sink = sinkFor()): Promise<RedisSink> {
    const hub = createProgressHub({ runId, lastSeq });
    hub.add(sink);
    hub.emit({ type: 'progress', percent: 60, message: 'resumed' });
    hub.emit({ type: 'run.finished', durationMs: 9, outcome: 'completed' });
    expect(await sink.flush()).toBe(true);
    return sink;
  }

  it('the resumed run follows the abandoned marker in the stream, its seqs moved past it; a reader from the start gets both attempts to the end', async () => {
    await abandoned('resume-1');
    const url = await serve();
    const b = await resume('resume-1', 4);
    expect(b.stats()).toMatchObject({ written: 2, duplicates: 0, failed: 0 });
    const all = await get(`${url}/runs/resume-1`);
    expect(all.status).toBe(200);
    const frames = framesOf(all.body);
    expect(frameIds(all.body)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(frames.map((e) => e.type)).toEqual(['run.started', 'progress', 'progress', 'progress', 'run.error', 'progress', 'run.finished']);
    expect(frames[4]).toMatchObject({ type: 'run.error', error: ABANDONED_MESSAGE, seq: 5 });
    expect(frames[5]).toMatchObject({ type: 'progress', message: 'resumed', seq: 6, runId: 'resume-1' });
    // Resuming from the marker gets the resumed attempt; from its end, nothing (204).
    expect(frameIds((await get(`${url}/runs/resume-1`, { 'last-event-id': '5' })).body)).toEqual([6, 7]);
    expect((await get(`${url}/runs/resume-1`, { 'last-event-id': '7' })).status).toBe(204);
    expect(await listRuns(client)).toContainEqual(
      expect.objectContaining({ runId: 'resume-1', state: 'finished', lastSeq: 7, attempts: 2 }),
    );
  });

  it('a resumed run whose checkpoint is past the marker keeps its own seqs', async () => {
    await abandoned('resume-gap');
    await resume('resume-gap', 9);
    const ids = (await client.sendCommand<[string, unknown][]>(['XRANGE', runKeys('headway:', 'resume-gap').stream, '-', '+'])).map(
      ([id]) => id,
    );
    expect(ids).toEqual(['1-0', '2-0', '3-0', '4-0', '5-0', '10-0', '11-0']);
  });

  it('a reader connected when the run was abandoned ends with the marker; reconnecting from it: 204 until the run is resumed, then the resumed events', async () => {
    const a = createProgressHub({ runId: 'resume-live' });
    const aSink = sinkFor();
    a.add(aSink);
    a.emit({ type: 'run.started', agentName: 'first' });
    a.emit({ type: 'progress', percent: 10 });
    expect(await aSink.flush()).toBe(true);
    const url = await serve();
    // Connected before the abandonment: the body ends after the marker.
    const live = get(`${url}/runs/resume-live`);
    await client.del(runKeys('headway:', 'resume-live').lease);
    expect(await reapAbandonedRuns(client)).toEqual(['resume-live']);
    const first = await live;
    expect(frameIds(first.body)).toEqual([1, 2, 3]);
    expect(framesOf(first.body).at(-1)).toMatchObject({ type: 'run.error', error: ABANDONED_MESSAGE });
    expect((await get(`${url}/runs/resume-live`, { 'last-event-id': '3' })).status).toBe(204);
    await resume('resume-live', 2);
    const again = await get(`${url}/runs/resume-live`, { 'last-event-id': '3' });
    expect(again.status).toBe(200);
    expect(framesOf(again.body).map((e) => [e.seq, e.type])).toEqual([
      [4, 'progress'],
      [5, 'run.finished'],
    ]);
    // This web process held the run through the abandonment: a new reader gets everything too.
    expect(frameIds((await get(`${url}/runs/resume-live`)).body)).toEqual([1, 2, 3, 4, 5]);
  });

  it('the stale worker is refused after the reaping and after the resume; the reaper never reaps the new lease', async () => {
    const errors: unknown[] = [];
    const { hub: stale, sink: staleSink } = await abandoned('resume-stale', errors);
    // Comes back before anyone resumed: refused.
    stale.emit({ type: 'progress', percent: 40 });
    expect(await staleSink.flush()).toBe(true);
    expect(errors.map((e) => (e as RedisError).code)).toEqual(['REDIS_WRITE_FAILED']);
    const b = createProgressHub({ runId: 'resume-stale', lastSeq: 4 });
    const bSink = sinkFor();
    b.add(bSink);
    b.emit({ type: 'progress', percent: 60 });
    expect(await bSink.flush()).toBe(true);
    expect(await reapAbandonedRuns(client)).toEqual([]);
    // Comes back after the resume: still refused, without a round trip; B goes on.
    stale.emit({ type: 'progress', percent: 50 });
    stale.emit({ type: 'run.finished', durationMs: 1, outcome: 'completed' });
    expect(await staleSink.flush()).toBe(true);
    expect(staleSink.stats()).toMatchObject({ written: 4, failed: 3 });
    b.emit({ type: 'run.finished', durationMs: 2, outcome: 'completed' });
    expect(await bSink.flush()).toBe(true);
    const entries = await client.sendCommand<[string, [string, string]][]>([
      'XRANGE',
      runKeys('headway:', 'resume-stale').stream,
      '-',
      '+',
    ]);
    const events = entries.map(([, [, json]]) => JSON.parse(json) as ProgressEvent);
    expect(events.map((e) => [e.seq, e.type])).toEqual([
      [1, 'run.started'],
      [2, 'progress'],
      [3, 'progress'],
      [4, 'progress'],
      [5, 'run.error'],
      [6, 'progress'],
      [7, 'run.finished'],
    ]);
    expect(events[6]).toMatchObject({ durationMs: 2 });
    expect(isAbandonedMarker(events[4]!)).toBe(true);
  });

  it('a worker that resumes a run it was not reaped from (its lease still there) takes it over and fences the first one', async () => {
    const errors: unknown[] = [];
    const a = createProgressHub({ runId: 'resume-takeover' });
    const aSink = sinkFor(errors);
    a.add(aSink);
    a.emit({ type: 'run.started', agentName: 'first' });
    expect(await aSink.flush()).toBe(true);
    await resume('resume-takeover', 1);
    a.emit({ type: 'progress', percent: 99 });
    expect(await aSink.flush()).toBe(true);
    expect(errors.map((e) => (e as RedisError).code)).toEqual(['REDIS_WRITE_FAILED']);
    const ids = (await client.sendCommand<[string, unknown][]>(['XRANGE', runKeys('headway:', 'resume-takeover').stream, '-', '+'])).map(
      ([id]) => id,
    );
    expect(ids).toEqual(['1-0', '2-0', '3-0']);
  });
});
