import Database from 'better-sqlite3';
import { HeadwayError, systemClock } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { checkpointInit as init, checkpointRound, checkpointStoreConformance } from '@headway/runtime/testing/conformance';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';
import { freshStore, tempDatabasePath as tempPath } from './temp-database.test-util.js';

checkpointStoreConformance('SqliteCheckpointStore', (now) =>
  freshStore((path) => new SqliteCheckpointStore(path, { clock: { ...systemClock, now } })),
);

describe('SqliteCheckpointStore', () => {
  it('uses WAL and commits checkpoints with synchronous=FULL', () => {
    const store = new SqliteCheckpointStore(tempPath());
    expect(store.database.pragma('journal_mode', { simple: true })).toBe('wal');
    store.create(init('cp-1'));
    store.update('cp-1', { lastSeq: 4 });
    // 2 = FULL; a seq-only update relaxes it for its own commit and restores it.
    expect(store.database.pragma('synchronous', { simple: true })).toBe(2);
    store.close();
  });

  it('writes only the new rows and the checkpoint row on each iteration', () => {
    const store = new SqliteCheckpointStore(tempPath());
    store.create(init('cp-1'));
    const changes = (): number => (store.database.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
    let before = changes();
    const round = (i: number): void => {
      store.update('cp-1', checkpointRound(i));
    };
    for (let i = 1; i <= 50; i++) {
      round(i);
      // 2 messages + 1 log entry + the checkpoint row; nothing earlier is rewritten.
      expect(changes() - before).toBe(4);
      before = changes();
    }
    expect(store.load('cp-1')?.messages).toHaveLength(100);
    store.close();
  });

  it('reports a damaged checkpoint as CHECKPOINT_CORRUPT naming what is wrong', () => {
    const store = new SqliteCheckpointStore(tempPath());
    store.create(init('cp-1', { messages: ['m0', 'm1', 'm2'] }));
    const db = store.database;
    db.prepare("UPDATE headway_checkpoint_messages SET body = '{oops' WHERE key % 16777216 = 1").run();
    expect(() => store.load('cp-1')).toThrow(/checkpoint cp-1: messages\[1\]: invalid JSON/);
    db.prepare('UPDATE headway_checkpoint_messages SET body = \'"m1"\' WHERE key % 16777216 = 1').run();
    db.prepare('DELETE FROM headway_checkpoint_messages WHERE key % 16777216 = 2').run();
    expect(() => store.load('cp-1')).toThrow(/messages: expected 3 row\(s\), found 2/);
    db.prepare('UPDATE headway_checkpoints SET message_count = 2').run();
    expect(store.load('cp-1')?.messages).toEqual(['m0', 'm1']);
    db.prepare(`UPDATE headway_checkpoints SET state = '{"iteration":"x"}'`).run();
    expect(() => store.load('cp-1')).toThrow(/state\.iteration/);
    db.prepare(`UPDATE headway_checkpoints SET status = 'weird'`).run();
    let caught: unknown;
    try {
      store.list();
    } catch (error) {
      caught = error;
    }
    expect(HeadwayError.isInstance(caught, 'CHECKPOINT_CORRUPT')).toBe(true);
    expect((caught as Error).message).toMatch(/row\.status/);
    store.close();
  });

  it('refuses a database written by a newer schema', () => {
    const path = tempPath();
    new SqliteCheckpointStore(path).close();
    const db = new Database(path);
    db.prepare("UPDATE headway_schema SET version = 99 WHERE component = 'checkpoints'").run();
    db.close();
    expect(() => new SqliteCheckpointStore(path)).toThrow(/version 99, newer than this package supports/);
  });

  it('works on a connection it was given and leaves it open', () => {
    const db = new Database(tempPath());
    const store = new SqliteCheckpointStore(db);
    store.create(init('cp-1'));
    store.close();
    expect(db.open).toBe(true);
    expect(new SqliteCheckpointStore(db).load('cp-1')?.status).toBe('running');
    db.close();
  });
});
