export { RedisError } from './redis-error.js';
export type { RedisErrorCode, RedisErrorOptions } from './redis-error.js';
export type { RedisBlockingClient, RedisCommandClient, RedisDuplicableClient } from './redis-client.js';
// eslint-disable-next-line @typescript-eslint/no-deprecated -- kept as an alias for one minor
export type { Timers } from './redis-sink.js';
export { connectRedis, redactRedisUrl } from './connect-redis.js';
export type { ConnectRedisOptions } from './connect-redis.js';
export { assertRunId, isValidRunId, runKeys } from './keys.js';
export type { RunKeys } from './keys.js';
export { decodeStreamEntry } from './stream-entry.js';
export type { DecodedEntry } from './stream-entry.js';
export { createRedisSink } from './redis-sink.js';
export type { RedisSink, RedisSinkErrorContext, RedisSinkOptions, RedisSinkStats } from './redis-sink.js';
export { createRedisReplayLog } from './redis-replay-log.js';
export type { RedisReplayLog, RedisReplayLogErrorContext, RedisReplayLogOptions, RedisReplayLogStats } from './redis-replay-log.js';
export { ABANDONED_MESSAGE, listRuns, reapAbandonedRuns } from './run-index.js';
export type { ListRunsOptions, ReapAbandonedRunsOptions, RunInfo, RunStatus } from './run-index.js';
// eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated aliases, removed in the next minor
export { redisSink } from './redis-sink.js';
// eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated aliases, removed in the next minor
export type { RunState } from './run-index.js';
