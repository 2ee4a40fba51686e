import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { HeadwayError, systemClock } from '@headway/protocol';
import type { CheckpointToolCall } from '@headway/runtime';
import { checkpointInit as init, checkpointRound, checkpointStoreConformance } from '@headway/runtime/testing/conformance';
import { migrate, SCHEMA_VERSION } from './migrate.js';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { freshPool, freshStore, usePostgres } from './testing/postgres-fixture.test-util.js';
import { TEST_PASSWORD } from '@headway/test-utils/servers';

const server = await usePostgres();

async function codeOf(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

if (server !== undefined) {
  checkpointStoreConformance('PostgresCheckpointStore', (now) =>
    freshStore(server, (pool) => new PostgresCheckpointStore(pool, { clock: { ...systemClock, now } })),
  );

  describe('PostgresCheckpointStore', () => {
    it('writes only the new rows and the checkpoint row on each iteration', async () => {
      const { pool } = await freshPool(server);
      const store = new PostgresCheckpointStore(pool);
      await store.create(init('cp-1'));
      for (let i = 1; i <= 20; i++) {
        await store.update('cp-1', checkpointRound(i));
      }
      expect((await store.load('cp-1'))?.messages).toHaveLength(40);
      expect((await store.load('cp-1'))?.iteration).toBe(20);
      // Every row keeps the transaction id (xmin) of the round that inserted it: nothing earlier is rewritten.
      const xmins = (
        await pool.query<{ seq: number; xmin: string }>('SELECT seq, xmin::text FROM headway_checkpoint_messages ORDER BY seq')
      ).rows;
      expect(new Set(xmins.map((r) => r.xmin)).size).toBe(20);
      for (let i = 0; i < 40; i += 2) expect(xmins[i]?.xmin).toBe(xmins[i + 1]?.xmin);
      await pool.end();
    });

    it('a write that waited for the row lock while another writer committed sees that writer: its rows follow, its tool calls are cleared', async () => {
      const { pool } = await freshPool(server);
      const store = new PostgresCheckpointStore(pool);
      await store.create(init('cp-1', { messages: ['m0'] }));
      const started = (id: string): CheckpointToolCall => ({ toolCallId: id, name: 'lookup', args: {}, index: 0, status: 'started' });
      await store.update('cp-1', { appendMessages: ['m1'], toolCalls: [started('c1')] });
      // Another writer holds the row lock and commits a message and a tool call while the store's write waits.
      const other = await pool.connect();
      await other.query('BEGIN');
      const { pk } = (await other.query<{ pk: string }>("SELECT pk FROM headway_checkpoints WHERE id = 'cp-1' FOR UPDATE")).rows[0]!;
      const waiting = store.update('cp-1', {
        appendMessages: ['m3'],
        clearToolCalls: true,
        toolCalls: [started('c3')],
        expect: { messages: 3, log: 0 },
      });
      // Until the server shows the store's statement waiting for the lock (no fixed sleep).
      for (;;) {
        const blocked = await pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'WITH head AS%'",
        );
        if (blocked.rows[0]!.n > 0) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      await other.query('INSERT INTO headway_checkpoint_messages (checkpoint, seq, body) VALUES ($1, 2, \'"m2"\')', [pk]);
      await other.query('INSERT INTO headway_checkpoint_tool_calls (checkpoint, tool_call_id, idx, body) VALUES ($1, $2, 0, $3)', [
        pk,
        'c2',
        JSON.stringify({ ...started('c2'), status: 'finished', ok: true, result: 'found', durationMs: 5 }),
      ]);
      await other.query('UPDATE headway_checkpoints SET message_count = 3 WHERE pk = $1', [pk]);
      await other.query('COMMIT');
      other.release();
      await waiting;
      const cp = await store.load('cp-1');
      expect(cp?.messages).toEqual(['m0', 'm1', 'm2', 'm3']);
      expect(cp?.toolCalls.map((c) => `${c.toolCallId} ${c.status}`)).toEqual(['c3 started']);
      await pool.end();
    }, 30_000);

    it('runs its migrations once, from two processes at once, and refuses a newer schema before writing', async () => {
      const { pool, url } = await freshPool(server);
      const other = new pg.Pool({ connectionString: url });
      const [a, b] = await Promise.all([migrate(pool), migrate(other)]);
      expect([a, b].map((r) => r.from).sort()).toEqual([0, SCHEMA_VERSION]);
      expect(await migrate(pool)).toEqual({ from: SCHEMA_VERSION, to: SCHEMA_VERSION });
      await pool.query("UPDATE headway_schema SET version = 99 WHERE component = 'postgres'");
      const fresh = new pg.Pool({ connectionString: url });
      const store = new PostgresCheckpointStore(fresh);
      const error = await codeOf(() => store.create(init('cp-1')));
      expect(HeadwayError.isInstance(error, 'POSTGRES_SCHEMA_NEWER')).toBe(true);
      expect((error as Error).message).toContain(
        `schema is version 99, newer than this package supports (${SCHEMA_VERSION}); upgrade @headway/postgres. Nothing was written.`,
      );
      expect((await pool.query('SELECT count(*)::int AS n FROM headway_checkpoints')).rows[0]).toEqual({ n: 0 });
      await Promise.all([pool.end(), other.end(), fresh.end()]);
    });

    it('names the host, never the password, when the login or the address is wrong', async () => {
      const wrongPassword = new pg.Pool({ connectionString: `postgres://postgres:not-${TEST_PASSWORD}@127.0.0.1:${server.port}/postgres` });
      const error = await codeOf(() => new PostgresCheckpointStore(wrongPassword).list());
      expect(HeadwayError.isInstance(error, 'POSTGRES_CONNECT_FAILED')).toBe(true);
      expect((error as Error).message).toContain(`postgres 127.0.0.1:${server.port}/postgres: login refused`);
      expect((error as Error).message).not.toContain(TEST_PASSWORD);
      expect(JSON.stringify(error)).not.toContain(TEST_PASSWORD);
      await wrongPassword.end();
      const nowhere = new pg.Pool({ connectionString: `postgres://postgres:${TEST_PASSWORD}@127.0.0.1:1/headway` });
      const refused = await codeOf(() => new PostgresCheckpointStore(nowhere).load('cp-1'));
      expect(HeadwayError.isInstance(refused, 'POSTGRES_CONNECT_FAILED')).toBe(true);
      expect((refused as Error).message).toMatch(/^postgres 127\.0\.0\.1:1\/headway: cannot connect: /);
      expect((refused as Error).message).not.toContain(TEST_PASSWORD);
      await nowhere.end();
    });

    it('keeps U+0000 in a task, a tool result and an error (PostgreSQL text cannot), and refuses it in an id', async () => {
      const { pool } = await freshPool(server);
      const store = new PostgresCheckpointStore(pool);
      await store.create(init('cp-1', { input: 'grep for \u0000 bytes' }));
      const ref = await store.putBlob('cp-1', 'binary\u0000result');
      expect(await store.getBlob('cp-1', ref)).toBe('binary\u0000result');
      expect((await store.load('cp-1'))?.input).toBe('grep for \u0000 bytes');
      expect(await store.load('cp\u00001')).toBeUndefined();
      await store.fail('cp-1', 'tool threw \u0000');
      expect((await store.load('cp-1'))?.error).toBe('tool threw \uFFFD');
      expect(await codeOf(() => store.create(init('cp-\u00002')))).toMatchObject({ code: 'CHECKPOINT_INVALID' });
      await pool.end();
    });

    it('reports a hand-edited row as CHECKPOINT_CORRUPT naming the run and the row', async () => {
      const { pool } = await freshPool(server);
      const store = new PostgresCheckpointStore(pool);
      await store.create(init('cp-1', { messages: ['m0', 'm1', 'm2'] }));
      await pool.query("UPDATE headway_checkpoint_messages SET body = '{oops' WHERE seq = 1");
      const error = await codeOf(() => store.load('cp-1'));
      expect(HeadwayError.isInstance(error, 'CHECKPOINT_CORRUPT')).toBe(true);
      expect((error as Error).message).toBe('checkpoint cp-1 (run run-cp-1): messages[1]: invalid JSON');
      await pool.query('UPDATE headway_checkpoint_messages SET body = \'"m1"\' WHERE seq = 1');
      await pool.query('DELETE FROM headway_checkpoint_messages WHERE seq = 2');
      expect(await codeOf(() => store.load('cp-1'))).toMatchObject({
        code: 'CHECKPOINT_CORRUPT',
        message: 'checkpoint cp-1 (run run-cp-1): messages: expected 3 row(s), found 2',
      });
      await pool.query(`UPDATE headway_checkpoints SET state = '{"iteration":"x"}', message_count = 2`);
      expect(await codeOf(() => store.load('cp-1'))).toMatchObject({
        code: 'CHECKPOINT_CORRUPT',
        message: expect.stringMatching(/run run-cp-1.*state\.iteration/) as unknown,
      });
      // The damaged run is still listed, so it can be abandoned rather than resumed.
      expect((await store.list({ status: 'running' })).map((c) => c.id)).toEqual(['cp-1']);
      await store.abandon('cp-1');
      expect(await store.list({ status: 'running' })).toEqual([]);
      await pool.end();
    });
  });
}
