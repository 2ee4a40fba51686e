import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionStoreConformance } from '@headway/runtime/testing';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';
import { SqliteSessionStore } from './sqlite-session-store.js';

const dirs: string[] = [];
function tempPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'headway-session-'));
  dirs.push(dir);
  return join(dir, 'agent.db');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

sessionStoreConformance('SqliteSessionStore', (now) => {
  const path = tempPath();
  let store = new SqliteSessionStore(path, { now });
  return {
    store,
    reopen: () => {
      store.close();
      store = new SqliteSessionStore(path, { now });
      return store;
    },
    cleanup: () => {
      store.close();
    },
  };
});

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
