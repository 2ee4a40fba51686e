import { AUDIT_GENESIS_HASH, auditRecordHash, verifyAuditChain, type AuditEvent } from '@headway/reporter-audit';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PostgresAuditBus, readPostgresAuditRecords } from './postgres-audit-bus.js';
import { freshPool, usePostgres } from './testing/postgres-fixture.test-util.js';

const server = await usePostgres();

const event = (sessionId: string, n: number): AuditEvent => ({
  eventType: 'agent.progress.tool_start',
  category: 'agent',
  result: 'allow',
  sessionId,
  taskId: 't',
  timestamp: 1_000 + n,
  detail: { tool: `tool-${n}` },
});

if (server !== undefined) {
  const pgServer = server;

  /** A database holding rows 1..5 of session s1 and row 6 of session s2, written by one bus. */
  async function chained(): Promise<pg.Pool> {
    const { pool } = await freshPool(pgServer);
    const bus = new PostgresAuditBus(pool);
    for (let n = 1; n <= 5; n++) await bus.publish(event('s1', n));
    await bus.publish(event('s2', 6));
    return pool;
  }

  async function verify(pool: pg.Pool): Promise<{ kind: string | undefined; at: string | undefined }> {
    const result = verifyAuditChain(await readPostgresAuditRecords(pool));
    await pool.end();
    return { kind: result.break?.kind, at: result.break?.location.replace(/^.*#/, '#') };
  }

  describe('PostgresAuditBus hash chain', () => {
    it('stamps prevHash and hash per session, and query returns them', async () => {
      const pool = await chained();
      const bus = new PostgresAuditBus(pool);
      const s1 = await bus.query({ sessionId: 's1' });
      expect(s1[0]?.prevHash).toBe(AUDIT_GENESIS_HASH);
      expect(s1.slice(1).map((e) => e.prevHash)).toEqual(s1.slice(0, -1).map((e) => e.hash));
      expect(s1.every((e) => e.hash === auditRecordHash(e))).toBe(true);
      expect((await bus.query({ sessionId: 's2' }))[0]?.prevHash).toBe(AUDIT_GENESIS_HASH);
      const records = await readPostgresAuditRecords(pool);
      expect(records.map((r) => r.location.replace(/^.*#/, '#'))).toEqual(['#1', '#2', '#3', '#4', '#5', '#6']);
      expect(verifyAuditChain(records)).toEqual({ ok: true, records: 6, sessions: 2 });
      await pool.end();
    });

    it('makes one valid chain per session from concurrent publishers on two pools', async () => {
      const { pool: first, url } = await freshPool(pgServer, { max: 4 });
      const second = new pg.Pool({ connectionString: url, max: 4 });
      // Two publishers per pool, each alternating between the two sessions, all at once.
      await Promise.all(
        [0, 1, 2, 3].map(async (w) => {
          const bus = w % 2 === 0 ? first : second;
          const publisher = new PostgresAuditBus(bus);
          await Promise.all(Array.from({ length: 20 }, (_, i) => publisher.publish(event(i % 2 === 0 ? 'a' : 'b', w * 100 + i))));
        }),
      );
      const records = await readPostgresAuditRecords(second);
      expect(verifyAuditChain(records)).toEqual({ ok: true, records: 80, sessions: 2 });
      await Promise.all([first.end(), second.end()]);
    });

    it('query keeps insertion order among equal timestamps past row 9 (ids sort as numbers)', async () => {
      const { pool } = await freshPool(pgServer);
      const bus = new PostgresAuditBus(pool);
      for (let n = 1; n <= 12; n++) await bus.publish({ ...event('s', n), timestamp: 5 });
      expect((await bus.query()).map((e) => e.detail.tool)).toEqual(Array.from({ length: 12 }, (_, i) => `tool-${i + 1}`));
      await pool.end();
    });

    it('names the row whose body was edited', async () => {
      const pool = await chained();
      await pool.query("UPDATE headway_audit_events SET body = replace(body, 'tool-3', 'tool-X') WHERE id = 3");
      expect(await verify(pool)).toEqual({ kind: 'edited', at: '#3' });
    });

    it('names the row after a deleted one', async () => {
      const pool = await chained();
      await pool.query('DELETE FROM headway_audit_events WHERE id = 3');
      expect(await verify(pool)).toEqual({ kind: 'removed', at: '#4' });
    });

    it('names a row moved before the one it follows (ids swapped)', async () => {
      const pool = await chained();
      await pool.query('UPDATE headway_audit_events SET id = -2 WHERE id = 2');
      await pool.query('UPDATE headway_audit_events SET id = 2 WHERE id = 3');
      await pool.query('UPDATE headway_audit_events SET id = 3 WHERE id = -2');
      expect(await verify(pool)).toEqual({ kind: 'reordered', at: '#2' });
    });

    it('names a forged row inserted with a valid hash of its own', async () => {
      const pool = await chained();
      const [second] = (await pool.query<{ hash: string }>('SELECT hash FROM headway_audit_events WHERE id = 2')).rows;
      const forged: AuditEvent = { ...event('s1', 99), prevHash: second?.hash ?? '' };
      forged.hash = auditRecordHash(forged);
      await pool.query('UPDATE headway_audit_events SET id = id + 100 WHERE id >= 3');
      await pool.query(
        "INSERT INTO headway_audit_events (id, event_type, session_id, task_id, timestamp, body, prev_hash, hash) VALUES (3, $1, 's1', 't', 1099, $2, $3, $4)",
        [forged.eventType, JSON.stringify(forged), forged.prevHash, forged.hash],
      );
      expect(await verify(pool)).toEqual({ kind: 'inserted', at: '#3' });
    });

    it('a row written before the chain existed is unchained', async () => {
      const pool = await chained();
      await pool.query(
        "INSERT INTO headway_audit_events (event_type, session_id, task_id, timestamp, body) VALUES ('x', 's3', 't', 1, $1)",
        [JSON.stringify(event('s3', 1))],
      );
      expect(await verify(pool)).toEqual({ kind: 'unchained', at: '#7' });
    });
  });
}
