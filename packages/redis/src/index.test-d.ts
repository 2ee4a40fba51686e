import { createClient } from '@redis/client';
import { expectTypeOf, test } from 'vitest';
import type { RedisCommandClient, RedisDuplicableClient } from './index.js';
import { connectRedis, createRedisReplayLog, createRedisSink } from './index.js';

test('a node-redis client is what the sink and the replay log take', () => {
  const client = createClient();
  expectTypeOf(client).toExtend<RedisCommandClient>();
  expectTypeOf(client).toExtend<RedisDuplicableClient>();
  expectTypeOf(createRedisSink).parameter(0).toEqualTypeOf<RedisCommandClient>();
  expectTypeOf(createRedisReplayLog).parameter(0).toEqualTypeOf<RedisDuplicableClient>();
  expectTypeOf(connectRedis).returns.resolves.toExtend<RedisDuplicableClient>();
});
