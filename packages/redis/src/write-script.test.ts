// The write script against a real redis-server (HEADWAY_REDIS_SERVER, else on PATH): a claim that
// finds a run marked abandoned. A lapsed lease is made by deleting the lease key.
import { createProgressHub } from '@headway/protocol';
import { findTestPart } from '@headway/test-utils';
import type { RedisClientType } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from './connect-redis.js';
import { runKeys } from './keys.js';
import { createRedisSink } from './redis-sink.js';
import { reapAbandonedRuns } from './run-index.js';
import { startRedisServer, type RedisServer } from '@headway/test-utils/servers';
import { WRITE_BATCH_SCRIPT } from './write-script.js';

const binary = findTestPart('HEADWAY_REDIS_SERVER');

describe.skipIf(binary === undefined)('WRITE_BATCH_SCRIPT (real redis-server)', () => {
  let server: RedisServer;
  let client: RedisClientType;

  beforeAll(async () => {
    server = await startRedisServer(binary ?? 'redis-server');
    client = await connectRedis(server.url);
  });
  afterAll(async () => {
    client.destroy();
    await server.stop();
  });

  /** A run whose sink wrote seq 1–4, then was reaped (marker at 5). */
  async function abandoned(runId: string): Promise<void> {
    const sink = createRedisSink(client, { leaseMs: 60_000 });
    const hub = createProgressHub({ runId });
    hub.add(sink);
    hub.emit({ type: 'run.started', agentName: 'first' });
    for (let i = 1; i <= 3; i++) hub.emit({ type: 'progress', percent: i * 10 });
    expect(await sink.flush()).toBe(true);
    await sink.close();
    await client.del(runKeys('headway:', runId).lease);
    expect(await reapAbandonedRuns(client)).toEqual([runId]);
  }

  it('the reaped holder is refused before and after the resume; a claim retried after a lost reply is answered the same: nothing is written twice, the shift is not moved again', async () => {
    await abandoned('resume-retry');
    const keys = runKeys('headway:', 'resume-retry');
    const claim = (holder = 'holder-b', claiming = '1'): Promise<unknown> =>
      client.sendCommand([
        'EVAL',
        WRITE_BATCH_SCRIPT,
        '4',
        keys.stream,
        keys.meta,
        keys.lease,
        'headway:runs',
        'resume-retry',
        '1000',
        '60000',
        '10000',
        '',
        '3600000',
        '',
        'w',
        '',
        holder,
        claiming,
        '5',
        '5',
        '{}',
      ]);
    // The reaped holder's own next batch is refused, whether it claims or not.
    const reaped = (await client.hGet(keys.meta, 'holder')) ?? '';
    expect(reaped).not.toBe('');
    expect(await claim(reaped, '0')).toEqual([-1]);
    expect(await claim(reaped, '1')).toEqual([-1]);
    expect(await claim()).toEqual([-2, 1]);
    expect(await claim()).toEqual([-2, 1]);
    // Once another holder claimed the run, the reaped one is still refused.
    expect(await claim(reaped, '0')).toEqual([-1]);
    expect(await client.xLen(keys.stream)).toBe(5);
    expect(await client.hGet(keys.meta, 'attempt')).toBe('2');
  });
});
