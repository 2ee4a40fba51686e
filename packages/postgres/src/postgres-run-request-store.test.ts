import { systemClock } from '@headway/protocol';
import { runRequestStoreConformance } from '@headway/runtime/testing/conformance';
import pg from 'pg';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { freshPool, usePostgres } from './testing/postgres-fixture.test-util.js';

const server = await usePostgres();

if (server !== undefined) {
  runRequestStoreConformance('PostgresRunRequestStore', async (now) => {
    const { pool, url } = await freshPool(server);
    // A second pool on the same database: another process's view, for the exclusive-claim case.
    const otherPool = new pg.Pool({ connectionString: url });
    return {
      store: new PostgresCheckpointStore(pool, { clock: { ...systemClock, now } }).runRequests(),
      second: () => new PostgresCheckpointStore(otherPool, { clock: { ...systemClock, now } }).runRequests(),
      cleanup: async () => {
        await pool.end();
        await otherPool.end();
      },
    };
  });
}
