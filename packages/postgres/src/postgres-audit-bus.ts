import { describeIssues, toValidationIssues } from '@headway/protocol';
import { AuditError, AuditLogError, auditEventSchema, type AuditBus, type AuditEvent, normalizeAuditQuery, type AuditQuery } from '@headway/reporter-audit';
import type { Pool } from 'pg';
import { ensureMigrated } from './migrate.js';
import { describeServer, execute, guardPool, query } from './pg-connection.js';

/**
 * An {@link AuditBus} in PostgreSQL: one row per audit event, indexed by session, task, type
 * and time, queryable with {@link PostgresAuditBus.query}. Many workers can write one audit
 * trail. `publish` returns a promise: the reporter's `flush()` waits for the writes.
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
    let parsed;
    try {
      parsed = auditEventSchema.safeParse(event);
    } catch (cause) {
      throw new AuditError('AUDIT_INVALID_EVENT', 'Invalid audit event: input could not be read', { cause });
    }
    if (!parsed.success) {
      const issues = toValidationIssues(parsed.error);
      throw new AuditError('AUDIT_INVALID_EVENT', `Invalid audit event: ${describeIssues(issues)}`, { issues });
    }
    const e = parsed.data;
    for (const field of ['eventType', 'sessionId', 'taskId'] as const) {
      // Indexed text columns cannot hold U+0000 in PostgreSQL (the JSON body escapes it).
      if (e[field].includes('\u0000')) throw new AuditError('AUDIT_INVALID_EVENT', `Invalid audit event: ${field}: contains U+0000`, { issues: [{ path: field, message: 'contains U+0000' }] });
    }
    await ensureMigrated(this.pool);
    await execute(this.pool, 'INSERT INTO headway_audit_events (event_type, session_id, task_id, timestamp, body) VALUES ($1, $2, $3, $4, $5)', [
      e.eventType,
      e.sessionId,
      e.taskId,
      e.timestamp,
      JSON.stringify(e),
    ]);
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
    const where: string[] = [];
    const params: (string | number)[] = [];
    for (const [column, op, value] of [
      ['session_id', '=', f.sessionId],
      ['task_id', '=', f.taskId],
      ['event_type', '=', f.eventType],
      ['timestamp', '>=', f.since],
      ['timestamp', '<', f.until],
    ] as const) {
      if (value === undefined) continue;
      params.push(value);
      where.push(`${column} ${op} $${params.length}`);
    }
    const direction = f.order === 'desc' ? 'DESC' : 'ASC';
    let sql = `SELECT id::text, body FROM headway_audit_events${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY timestamp ${direction}, id ${direction}`;
    if (f.limit !== undefined) {
      params.push(f.limit);
      sql += ` LIMIT $${params.length}`;
    }
    await ensureMigrated(this.pool);
    const rows = await query<{ id: string; body: string }>(this.pool, sql, params);
    return rows.map((row) => {
      const location = `${describeServer(this.pool)}#${row.id}`;
      let value: unknown;
      try {
        value = JSON.parse(row.body) as unknown;
      } catch (cause) {
        throw new AuditLogError('AUDIT_INVALID_ROW', `${location}: not JSON`, { location, cause });
      }
      const event = auditEventSchema.safeParse(value);
      if (!event.success) {
        const issues = toValidationIssues(event.error);
        throw new AuditLogError('AUDIT_INVALID_ROW', `${location}: not an audit event: ${describeIssues(issues)}`, { location, issues });
      }
      return event.data;
    });
  }
}
