import { systemClock } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { sessionStoreConformance } from '@headway/runtime/testing/conformance';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';
import { SqliteSessionStore } from './sqlite-session-store.js';
import { freshStore, tempDatabasePath as tempPath } from './temp-database.test-util.js';

sessionStoreConformance('SqliteSessionStore', (now) =>
  freshStore((path) => new SqliteSessionStore(path, { clock: { ...systemClock, now } })),
);

describe('SqliteSessionStore', () => {
  it('shares one file with the checkpoint store', () => {
    const path = tempPath();
    const checkpoints = new SqliteCheckpointStore(path);
    const sessions = new SqliteSessionStore(checkpoints.database);
    sessions.create('s1');
    sessions.recordRun('s1', { messages: ['m'], spentUsd: 0.1, calls: 1 });
    checkpoints.close();
    const reopened = new SqliteSessionStore(path);
    expect(reopened.get('s1')?.messages).toEqual(['m']);
    expect(reopened.database.pragma('journal_mode', { simple: true })).toBe('wal');
    reopened.close();
  });

  it('reports damaged history as SESSION_CORRUPT', () => {
    const store = new SqliteSessionStore(tempPath());
    store.create('s1');
    store.recordRun('s1', { messages: ['a', 'b'], spentUsd: 0, calls: 0 });
    store.database.prepare("UPDATE headway_session_messages SET body = 'nope' WHERE seq = 1").run();
    expect(() => store.get('s1')).toThrow(/session s1: messages\[1\]: invalid JSON/);
    store.database.prepare('DELETE FROM headway_session_messages WHERE seq = 1').run();
    expect(() => store.get('s1')).toThrow(/expected 2 row/);
    store.close();
  });
});
