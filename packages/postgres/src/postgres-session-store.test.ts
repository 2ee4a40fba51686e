import { systemClock } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { sessionStoreConformance } from '@headway/runtime/testing/conformance';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { PostgresSessionStore } from './postgres-session-store.js';
import { freshPool, freshStore, usePostgres } from './testing/postgres-fixture.test-util.js';

const server = await usePostgres();

if (server !== undefined) {
  sessionStoreConformance('PostgresSessionStore', (now) =>
    freshStore(server, (pool) => new PostgresSessionStore(pool, { clock: { ...systemClock, now } })),
  );

  describe('PostgresSessionStore', () => {
    it('shares the database with the checkpoint store', async () => {
      const { pool } = await freshPool(server);
      const sessions = new PostgresCheckpointStore(pool).sessionStore();
      await sessions.create('s1');
      await sessions.recordRun('s1', { messages: ['m'], spentUsd: 0.1, calls: 1 });
      expect((await new PostgresSessionStore(pool).get('s1'))?.messages).toEqual(['m']);
      await pool.end();
    });

    it('reports damaged history as SESSION_CORRUPT', async () => {
      const { pool } = await freshPool(server);
      const store = new PostgresSessionStore(pool);
      await store.create('s1');
      await store.recordRun('s1', { messages: ['a', 'b'], spentUsd: 0, calls: 0 });
      await pool.query("UPDATE headway_session_messages SET body = 'nope' WHERE seq = 1");
      await expect(store.get('s1')).rejects.toThrow(/session s1: messages\[1\]: invalid JSON/);
      await pool.query('DELETE FROM headway_session_messages WHERE seq = 1');
      await expect(store.get('s1')).rejects.toThrow(/expected 2 row/);
      await pool.end();
    });
  });
}
