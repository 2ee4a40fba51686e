// A web process for fleet.test.ts, run under tsx: what `headway serve --store postgres://…
// --redis redis://…` runs (the CLI depends on this package, so the test cannot start the CLI
// itself). Argument: JSON { store, redis, port, token, reports }. It serves the dashboard over the
// Postgres store with each run's live events from Redis on 127.0.0.1:`port` (0: a free one),
// prints `LISTENING <port>`, and runs until it is killed.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeSync } from 'node:fs';
import { systemClock } from '@headway/protocol';
import { createPostgresStores } from '@headway/postgres';
import { connectRedis, createRedisReplayLog } from '@headway/redis';
import { createSseHandler } from '@headway/sse';
import { z } from 'zod';
import { createDashboardHandler } from '../dashboard-server.js';

const args = z
  .strictObject({ store: z.string(), redis: z.string(), port: z.number().int(), token: z.string(), reports: z.string() })
  .parse(JSON.parse(process.argv[2] ?? '{}'));
const say = (line: string): void => {
  writeSync(1, `${line}\n`);
};
const stores = createPostgresStores(args.store);
const log = createRedisReplayLog(await connectRedis(args.redis), {
  onInternalError: (error, { where }) => {
    say(`ERROR redis ${where} ${String(error)}`);
  },
});
const server = createServer(
  createDashboardHandler({
    checkpoints: stores.checkpoints,
    live: createSseHandler({ source: log }),
    clock: systemClock,
    token: args.token,
    // Ten minutes: a run reads interrupted here only because its worker's lease expired.
    activeWithinMs: 600_000,
    reportsDir: args.reports,
    pollMs: 250,
    onInternalError: (error, { where }) => {
      say(`ERROR ${where} ${String(error)}`);
    },
  }),
);
server.listen(args.port, '127.0.0.1', () => {
  say(`LISTENING ${String((server.address() as AddressInfo).port)}`);
});
