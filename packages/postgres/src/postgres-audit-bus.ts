import {
  AuditChain,
  AuditError,
  AuditLogError,
  assertAuditEvent,
  auditQueryConditions,
  decodeAuditRecord,
  normalizeAuditQuery,
  type AuditBus,
  type AuditEvent,
  type AuditQuery,
  type LocatedAuditEvent,
} from '@headway/reporter-audit';
import type { Pool } from 'pg';
import { ensureMigrated } from './migrate.js';
import { describeServer, guardPool, query, transaction } from './pg-connection.js';

// First key of the per-session advisory lock (the second is hashtext(session_id)): "HWAC".
const CHAIN_LOCK_CLASS = 0x4857_4143;

/**
 * An {@link AuditBus} in PostgreSQL: one row per audit event, indexed by session, task, type
 * and time, queryable with {@link PostgresAuditBus.query}. Many workers can write one audit
 * trail. `publish` returns a promise: the reporter's `flush()` waits for the writes.
 *
 * Each record carries `prevHash` and `hash` (the hash chain of `@headway/reporter-audit`, per
 * session), stamped under a per-session advisory lock so writers in many processes make one chain;
 * check it with {@link readPostgresAuditRecords} and `verifyAuditChain`.
 *
 * @example
 * ```ts
 * const bus = new PostgresAuditBus(pool);
 * new AuditReporter({ sessionId: 's1', taskId: 't1', bus }).onStart('demo');
 * const starts = await bus.query({ sessionId: 's1', eventType: 'agent.progress.start' });
 * ```
 */
export class PostgresAuditBus implements AuditBus {
  /** The pool (yours to end). */
  readonly pool: Pool;

  /** Uses `pool`; the table is created on first use (see `migrate`). */
  constructor(pool: Pool) {
    this.pool = pool;
    guardPool(pool);
  }

  /**
   * Stores one event (validated first).
   *
   * @throws {AuditError} `AUDIT_INVALID_EVENT` naming each bad path; nothing is written.
   */
  async publish(event: AuditEvent): Promise<void> {
    const e = assertAuditEvent(event);
    for (const field of ['eventType', 'sessionId', 'taskId'] as const) {
      // Indexed text columns cannot hold U+0000 in PostgreSQL (the JSON body escapes it).
      if (e[field].includes('\u0000'))
        throw new AuditError('AUDIT_INVALID_EVENT', `Invalid audit event: ${field}: contains U+0000`, {
          issues: [{ path: field, message: 'contains U+0000' }],
        });
    }
    await ensureMigrated(this.pool);
    const json = JSON.stringify(e);
    // Lock the session, read its newest hash and insert in one transaction: writers in other
    // processes wait their turn, so the session keeps one chain. The lock is released at COMMIT.
    await transaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [CHAIN_LOCK_CLASS, e.sessionId]);
      const last = await client.query<{ hash: string | null }>(
        'SELECT hash FROM headway_audit_events WHERE session_id = $1 ORDER BY id DESC LIMIT 1',
        [e.sessionId],
      );
      const chain = new AuditChain();
      const lastHash = last.rows[0]?.hash;
      if (typeof lastHash === 'string') chain.seed(e.sessionId, lastHash);
      const linked = chain.link(e, json);
      await client.query(
        'INSERT INTO headway_audit_events (event_type, session_id, task_id, timestamp, body, prev_hash, hash) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [e.eventType, e.sessionId, e.taskId, e.timestamp, JSON.stringify(linked), linked.prevHash, linked.hash],
      );
    });
  }

  /**
   * Events matching `q`, by time then insertion, each validated as it is read.
   *
   * @throws {AuditError} `AUDIT_INVALID_QUERY`. @throws {AuditLogError} `AUDIT_INVALID_ROW` naming `host:port/db#id`.
   */
  async query(q: AuditQuery = {}): Promise<AuditEvent[]> {
    const f = normalizeAuditQuery(q);
    // No stored event holds U+0000 in these columns (publish refuses it), so none matches.
    if ([f.sessionId, f.taskId, f.eventType].some((v) => v?.includes('\u0000') === true)) return [];
    const conditions = auditQueryConditions(f);
    const where = conditions.map((c, i) => `${c.column} ${c.op} $${i + 1}`);
    const params = conditions.map((c) => c.value);
    const direction = f.order === 'desc' ? 'DESC' : 'ASC';
    // `e.id`, not `id`: ORDER BY would take the output column `id` (text) and sort 10 before 9.
    let sql =
      `SELECT e.id::text AS id, e.body FROM headway_audit_events e${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ` +
      `ORDER BY e.timestamp ${direction}, e.id ${direction}`;
    if (f.limit !== undefined) {
      params.push(f.limit);
      sql += ` LIMIT $${params.length}`;
    }
    await ensureMigrated(this.pool);
    const rows = await query<{ id: string; body: string }>(this.pool, sql, params);
    return rows.map((row) => toEvent(this.pool, row));
  }
}

/**
 * Every record of the Postgres audit log in storage order (row id), each with its
 * `host:port/db#id`, for `verifyAuditChain` from `@headway/reporter-audit`.
 *
 * @throws {AuditLogError} `AUDIT_INVALID_ROW` for a row that is not an audit event;
 * `PostgresError` `POSTGRES_CONNECT_FAILED` naming the server.
 * @example
 * ```ts
 * const result = verifyAuditChain(await readPostgresAuditRecords(pool));
 * if (!result.ok) console.error(result.break?.message);
 * ```
 */
export async function readPostgresAuditRecords(pool: Pool): Promise<LocatedAuditEvent[]> {
  guardPool(pool);
  await ensureMigrated(pool);
  const rows = await query<{ id: string; body: string }>(pool, 'SELECT e.id::text AS id, e.body FROM headway_audit_events e ORDER BY e.id');
  return rows.map((row) => ({ event: toEvent(pool, row), location: `${describeServer(pool)}#${row.id}` }));
}

function toEvent(pool: Pool, row: { id: string; body: string }): AuditEvent {
  const location = `${describeServer(pool)}#${row.id}`;
  let value: unknown;
  try {
    value = JSON.parse(row.body) as unknown;
  } catch (cause) {
    throw new AuditLogError('AUDIT_INVALID_ROW', `${location}: not JSON`, { location, cause });
  }
  return decodeAuditRecord(value, location);
}
