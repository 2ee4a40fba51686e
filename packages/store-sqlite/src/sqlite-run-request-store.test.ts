import { systemClock } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { runRequestStoreConformance } from '@headway/runtime/testing/conformance';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';
import { SqliteRunRequestStore } from './sqlite-run-request-store.js';
import { tempDatabasePath } from './temp-database.test-util.js';

runRequestStoreConformance('SqliteRunRequestStore', (now) => {
  const path = tempDatabasePath();
  const checkpoints = new SqliteCheckpointStore(path, { clock: { ...systemClock, now } });
  const other = new SqliteCheckpointStore(path, { clock: { ...systemClock, now } });
  return {
    store: checkpoints.runRequests(),
    second: () => other.runRequests(),
    cleanup: () => {
      checkpoints.close();
      other.close();
    },
  };
});

describe('SqliteRunRequestStore', () => {
  it('keeps requests in the checkpoints file, read back by another connection', () => {
    const path = tempDatabasePath();
    const checkpoints = new SqliteCheckpointStore(path);
    checkpoints.runRequests().put({ key: 'resume:r1', action: 'resume', runId: 'r1', checkpointId: 'c1' });
    checkpoints.close();
    const reopened = new SqliteRunRequestStore(path);
    expect(reopened.list().map((r) => [r.key, r.status])).toEqual([['resume:r1', 'pending']]);
    reopened.database.close();
  });

  it('reports a damaged row as CHECKPOINT_CORRUPT', () => {
    const store = new SqliteRunRequestStore(tempDatabasePath());
    store.put({ key: 'resume:r1', action: 'resume', runId: 'r1', checkpointId: 'c1' });
    store.database.prepare("UPDATE headway_run_requests SET action = 'explode'").run();
    expect(() => store.list()).toThrow(expect.objectContaining({ code: 'CHECKPOINT_CORRUPT' }));
    store.database.close();
  });
});
