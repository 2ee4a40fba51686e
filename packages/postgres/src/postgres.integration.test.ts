import { fileURLToPath } from 'node:url';
import { CHECKPOINT_WRITE_KILL_POINTS, checkpointWriteInFlightCall, crashRecoverySuite } from '@headway/runtime/testing/conformance';
import { usePostgres } from './testing/postgres-fixture.test-util.js';

// The generic kill points with the store's own in between: its crash module calls `crash` inside
// the transactions that write a message or a tool call's status, after the row went to the
// server and before COMMIT. The same points as the SQLite store's.
const server = await usePostgres();
if (server !== undefined) {
  const url = await server.createDatabase('crash');
  crashRecoverySuite('PostgresCheckpointStore', {
    storeModule: fileURLToPath(new URL('./crash-store.test-util.ts', import.meta.url)),
    location: () => url,
    killPoints: CHECKPOINT_WRITE_KILL_POINTS,
    inFlightCall: checkpointWriteInFlightCall,
    external: ['pg'],
    // 25 child processes, one after another: 162 and 170 s while the whole suite ran with both
    // cores busy, near the suite's default of 180 s (as the SQLite store's). Nothing in it is timed.
    timeoutMs: 600_000,
  });
}
