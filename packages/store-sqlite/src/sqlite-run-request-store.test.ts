import Database from 'better-sqlite3';
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

  it('upgrades a file written before claims were leases: a request claimed then is taken again', () => {
    const path = tempDatabasePath();
    const old = new Database(path);
    old.exec(`CREATE TABLE headway_schema (component TEXT PRIMARY KEY, version INTEGER NOT NULL);
      INSERT INTO headway_schema VALUES ('run-requests', 1);
      CREATE TABLE headway_run_requests (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, action TEXT NOT NULL, run_id TEXT NOT NULL,
        checkpoint_id TEXT NOT NULL, status TEXT NOT NULL, worker TEXT, outcome TEXT, result_run_id TEXT,
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
      INSERT INTO headway_run_requests (key, action, run_id, checkpoint_id, status, worker, created_at, updated_at)
        VALUES ('resume:r1', 'resume', 'r1', 'c1', 'claimed', 'dead-worker', 1, 1);`);
    old.close();
    const store = new SqliteRunRequestStore(path, { clock: { ...systemClock, now: () => 5_000 } });
    expect(store.list().map((r) => [r.key, r.status, r.worker, r.claimExpiresAt])).toEqual([
      ['resume:r1', 'claimed', 'dead-worker', undefined],
    ]);
    expect(store.claim('worker-2', { actions: ['resume'] }, { leaseMs: 1_000 })).toMatchObject({
      key: 'resume:r1',
      worker: 'worker-2',
      claimExpiresAt: 6_000,
    });
    expect(store.database.prepare("SELECT version FROM headway_schema WHERE component = 'run-requests'").get()).toEqual({ version: 2 });
    store.database.close();
  });

  it('reports a damaged row as CHECKPOINT_CORRUPT', () => {
    const store = new SqliteRunRequestStore(tempDatabasePath());
    store.put({ key: 'resume:r1', action: 'resume', runId: 'r1', checkpointId: 'c1' });
    store.database.prepare("UPDATE headway_run_requests SET action = 'explode'").run();
    expect(() => store.list()).toThrow(expect.objectContaining({ code: 'CHECKPOINT_CORRUPT' }));
    store.database.close();
  });
});
