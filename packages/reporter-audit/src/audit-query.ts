import { describeIssues, toValidationIssues } from '@headway/protocol';
import { z } from 'zod';
import { AuditError } from './audit-error.js';
import type { AuditEvent } from './audit-event.js';

/** Which events to return from a bus's `query`; every given field must match. */
export interface AuditQuery {
  sessionId?: string;
  taskId?: string;
  eventType?: string;
  /** Only events at or after this time (epoch ms or a Date). */
  since?: number | Date;
  /** Only events before this time (epoch ms or a Date). */
  until?: number | Date;
  /** At most this many events. */
  limit?: number;
  /** By time, then by insertion: `asc` (default) oldest first, `desc` newest first. */
  order?: 'asc' | 'desc';
}

/** An {@link AuditQuery} after validation: times as epoch ms. */
export interface NormalizedAuditQuery {
  sessionId?: string;
  taskId?: string;
  eventType?: string;
  since?: number;
  until?: number;
  limit?: number;
  order: 'asc' | 'desc';
}

const time = z.union([z.number().nonnegative(), z.date().transform((d) => d.getTime())]);

const querySchema = z.strictObject({
  sessionId: z.string().exactOptional(),
  taskId: z.string().exactOptional(),
  eventType: z.string().exactOptional(),
  since: time.exactOptional(),
  until: time.exactOptional(),
  limit: z.number().int().positive().exactOptional(),
  order: z.enum(['asc', 'desc']).default('asc'),
});

/**
 * Validates a query (a typo'd key or a bad limit is an error, not a silent full scan); every
 * audit bus with a `query` (JSONL, SQLite, memory, PostgreSQL) reads its argument through this.
 *
 * @throws {AuditError} `AUDIT_INVALID_QUERY` naming each bad field.
 */
export function normalizeAuditQuery(query: AuditQuery = {}): NormalizedAuditQuery {
  let result;
  try {
    result = querySchema.safeParse(query);
  } catch (cause) {
    // A query from outside may be a revoked proxy or have throwing getters.
    throw new AuditError('AUDIT_INVALID_QUERY', 'Invalid audit query: input could not be read', { cause });
  }
  if (!result.success) {
    const issues = toValidationIssues(result.error);
    throw new AuditError('AUDIT_INVALID_QUERY', `Invalid audit query: ${describeIssues(issues)}`, { issues });
  }
  return result.data;
}

/** One condition of a query on a SQL audit table: `column op value`. */
export interface AuditQueryCondition {
  column: 'session_id' | 'task_id' | 'event_type' | 'timestamp';
  op: '=' | '>=' | '<';
  value: string | number;
}

/**
 * The conditions a validated query puts on a SQL audit table's indexed columns, in order; a
 * dialect joins them with `AND`, each with its own placeholder.
 *
 * @example
 * ```ts
 * const where = auditQueryConditions(q).map((c, i) => `${c.column} ${c.op} $${i + 1}`);
 * ```
 */
export function auditQueryConditions(q: NormalizedAuditQuery): AuditQueryCondition[] {
  const all: [AuditQueryCondition['column'], AuditQueryCondition['op'], string | number | undefined][] = [
    ['session_id', '=', q.sessionId],
    ['task_id', '=', q.taskId],
    ['event_type', '=', q.eventType],
    ['timestamp', '>=', q.since],
    ['timestamp', '<', q.until],
  ];
  return all.flatMap(([column, op, value]) => (value === undefined ? [] : [{ column, op, value }]));
}

/** True when `event` matches every field of `query` except `limit` and `order`. */
export function matchesAuditQuery(event: AuditEvent, query: NormalizedAuditQuery): boolean {
  return (
    (query.sessionId === undefined || event.sessionId === query.sessionId) &&
    (query.taskId === undefined || event.taskId === query.taskId) &&
    (query.eventType === undefined || event.eventType === query.eventType) &&
    (query.since === undefined || event.timestamp >= query.since) &&
    (query.until === undefined || event.timestamp < query.until)
  );
}
