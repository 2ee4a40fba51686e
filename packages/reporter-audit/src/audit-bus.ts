import type { AuditEvent } from './audit-event.js';
import type { AuditQuery } from './audit-query.js';

/**
 * Where an {@link AuditReporter} sends its events: any object with `publish`. A bus may be
 * sync or async; the reporter never lets its errors or its slowness reach the caller.
 *
 * @example
 * ```ts
 * const bus: AuditBus = { publish: (event) => fetch(url, { method: 'POST', body: JSON.stringify(event) }).then(() => undefined) };
 * ```
 */
export interface AuditBus {
  publish(event: AuditEvent): void | PromiseLike<void>;
}

/**
 * What the shipped buses (`MemoryAuditBus`, `JsonlAuditBus`, `SqliteAuditBus`) have in common,
 * so one can replace another: `publish` synchronously, `query` the stored events (an array from
 * the memory and SQLite buses, a promise of one from the JSONL bus, so `await` it), and `close`.
 *
 * After `close()`, `publish` and `query` throw (or reject with) `AuditError` `AUDIT_BUS_CLOSED`;
 * `close()` again does nothing. An invalid query is `AUDIT_INVALID_QUERY`.
 *
 * @example
 * ```ts
 * const bus: QueryableAuditBus = process.env.AUDIT_DB ? new SqliteAuditBus(process.env.AUDIT_DB) : new MemoryAuditBus();
 * const starts = await bus.query({ eventType: 'agent.progress.start' });
 * bus.close();
 * ```
 */
export interface QueryableAuditBus extends AuditBus {
  publish(event: AuditEvent): void;
  /** Stored events matching `query`, by time then insertion (`order: 'desc'` for newest first), at most `limit`. */
  query(query?: AuditQuery): AuditEvent[] | Promise<AuditEvent[]>;
  /** Releases the bus (file, database); idempotent. */
  close(): void;
}
