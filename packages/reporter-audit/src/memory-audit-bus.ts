import type { QueryableAuditBus } from './audit-bus.js';
import { AuditError } from './audit-error.js';
import { AuditChain } from './audit-chain.js';
import { assertAuditEvent, toJson, type AuditEvent } from './audit-event.js';
import { matchesAuditQuery, normalizeAuditQuery, type AuditQuery } from './audit-query.js';

/** Options of {@link MemoryAuditBus}. */
export interface MemoryAuditBusOptions {
  /** Events kept; beyond this the oldest are dropped and counted (default 10 000). */
  maxEvents?: number;
}

/** Receives every event published to a {@link MemoryAuditBus}. */
export type AuditSubscriber = (event: AuditEvent) => void;

/**
 * An in-process audit bus: keeps the latest events and tells subscribers about each one.
 * For tests, for showing an audit trail in a UI, and for fanning events out in-process.
 *
 * @example
 * ```ts
 * const bus = new MemoryAuditBus();
 * const stop = bus.subscribe((event) => console.log(event.eventType));
 * new AuditReporter({ sessionId: 's1', taskId: 't1', bus }).onStart('demo');
 * stop();
 * ```
 */
export class MemoryAuditBus implements QueryableAuditBus {
  #closed = false;
  readonly #maxEvents: number;
  #events: AuditEvent[] = [];
  #subscribers: AuditSubscriber[] = [];
  #dropped = 0;
  readonly #chain = new AuditChain();

  /** @throws {AuditError} `AUDIT_INVALID_OPTIONS` when `maxEvents` is not a positive integer. */
  constructor(options: MemoryAuditBusOptions = {}) {
    const max = options.maxEvents ?? 10_000;
    if (!Number.isInteger(max) || max <= 0) {
      throw new AuditError('AUDIT_INVALID_OPTIONS', 'Invalid MemoryAuditBus options: maxEvents: expected a positive integer', {
        issues: [{ path: 'maxEvents', message: 'expected a positive integer' }],
      });
    }
    this.#maxEvents = max;
  }

  /** The kept events, oldest first, as stored: each with its `prevHash` and `hash` (the hash chain). */
  get events(): readonly AuditEvent[] {
    return this.#events;
  }

  /** Events dropped because more than `maxEvents` were published. */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * Keeps the event and passes it to every subscriber. A throwing subscriber does not stop
   * the others; their errors are thrown together afterwards.
   *
   * @throws {AuditError} `AUDIT_INVALID_EVENT` for an invalid event (not kept),
   * `AUDIT_SUBSCRIBER_FAILED` after delivery when a subscriber threw.
   */
  publish(event: AuditEvent): void {
    if (this.#closed) throw new AuditError('AUDIT_BUS_CLOSED', 'MemoryAuditBus is closed');
    const valid = Object.freeze(this.#chain.link(event, toJson(assertAuditEvent(event))));
    this.#events.push(valid);
    this.#chain.commit(valid);
    if (this.#events.length > this.#maxEvents) {
      // V8 left-trims on shift, so a full bus stays O(1) per event.
      this.#events.shift();
      this.#dropped += 1;
    }
    const errors: unknown[] = [];
    for (const subscriber of this.#subscribers) {
      try {
        subscriber(valid);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) {
      throw new AuditError('AUDIT_SUBSCRIBER_FAILED', `${errors.length} audit subscriber(s) threw for "${valid.eventType}"`, {
        cause: errors.length === 1 ? errors[0] : new AggregateError(errors),
      });
    }
  }

  /** Calls `fn` with every event published from now on; returns a function that stops it. */
  subscribe(fn: AuditSubscriber): () => void {
    this.#subscribers = [...this.#subscribers, fn];
    return () => {
      this.#subscribers = this.#subscribers.filter((s) => s !== fn);
    };
  }

  /**
   * The kept events matching `query`, by time (then publication order), like
   * `SqliteAuditBus.query`.
   *
   * @throws {AuditError} `AUDIT_INVALID_QUERY` for an invalid query, `AUDIT_BUS_CLOSED`.
   */
  query(query: AuditQuery = {}): AuditEvent[] {
    if (this.#closed) throw new AuditError('AUDIT_BUS_CLOSED', 'MemoryAuditBus is closed');
    const q = normalizeAuditQuery(query);
    const found = this.#events.filter((e) => matchesAuditQuery(e, q)).sort((a, b) => a.timestamp - b.timestamp);
    if (q.order === 'desc') found.reverse();
    return q.limit === undefined ? found : found.slice(0, q.limit);
  }

  /**
   * Forgets the events and the subscribers; later `publish` and `query` calls throw
   * `AUDIT_BUS_CLOSED` (as the file and SQLite buses do). Idempotent.
   */
  close(): void {
    this.#closed = true;
    this.#events = [];
    this.#subscribers = [];
  }

  /** Forgets every kept event (subscribers stay). */
  clear(): void {
    this.#events = [];
  }
}
