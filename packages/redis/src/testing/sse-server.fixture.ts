// An SSE web process for the distributed tests: serves any run from Redis.
// argv[2]: JSON { url, reapIntervalMs }. Prints { port } once listening.
import { createServer } from 'node:http';
import { createSseHandler } from '@headway/sse';
import { connectRedis } from '../connect-redis.js';
import { createRedisReplayLog } from '../redis-replay-log.js';

const args = JSON.parse(process.argv[2] ?? '{}') as { url: string; reapIntervalMs: number };
const client = await connectRedis(args.url, { maxReconnectDelayMs: 200 });
const log = createRedisReplayLog(client, { reapIntervalMs: args.reapIntervalMs, blockMs: 2000 });
const server = createServer(createSseHandler({ source: log, heartbeatMs: 0, retryMs: 10 }));
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address !== null ? address.port : 0 })}\n`);
});
