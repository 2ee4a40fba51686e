import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHECKPOINT_WRITE_KILL_POINTS, checkpointWriteInFlightCall, crashRecoverySuite } from '@headway/runtime/testing/conformance';

// The generic kill points with SQLite's own in between: its crash module's temporary triggers
// call `crash` inside the transactions that write a message or a tool call's status.
crashRecoverySuite('SqliteCheckpointStore', {
  storeModule: fileURLToPath(new URL('./crash-store.test-util.ts', import.meta.url)),
  location: (dir) => join(dir, 'agent.db'),
  killPoints: CHECKPOINT_WRITE_KILL_POINTS,
  inFlightCall: checkpointWriteInFlightCall,
  external: ['better-sqlite3'],
  // 25 child processes, one after another: 98 s while the whole suite ran on 2 cores at load 30,
  // over half the suite's default of 180 s. Nothing in it is timed.
  timeoutMs: 600_000,
});
