import type { LocatedAuditEvent } from '@headway/reporter-audit';
import pg from 'pg';
import { readPostgresAuditRecords } from './postgres-audit-bus.js';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { PostgresSessionStore } from './postgres-session-store.js';

/** What {@link createPostgresStores} opens: the stores on one pool, and `close()` to end it. */
export interface PostgresStores {
  checkpoints: PostgresCheckpointStore;
  sessions: PostgresSessionStore;
  /** The pool behind the stores (ended by `close()`). */
  pool: pg.Pool;
  /** Every audit record in storage order, for `verifyAuditChain` (see {@link readPostgresAuditRecords}). */
  auditRecords(): Promise<LocatedAuditEvent[]>;
  /** Releases this worker's leases and ends the pool. */
  close(): Promise<void>;
}

/**
 * Opens the checkpoint and session stores on a new pool for `url` (`postgres://user:pass@host/db`):
 * the entry point `headway runs|cost|audit verify --store postgres://…` loads.
 *
 * @example
 * ```ts
 * const stores = createPostgresStores(process.env.DATABASE_URL ?? 'postgres://localhost/headway');
 * console.log((await stores.checkpoints.list()).length);
 * await stores.close();
 * ```
 */
export function createPostgresStores(url: string): PostgresStores {
  const pool = new pg.Pool({ connectionString: url });
  const checkpoints = new PostgresCheckpointStore(pool);
  return {
    checkpoints,
    sessions: new PostgresSessionStore(pool),
    pool,
    auditRecords: () => readPostgresAuditRecords(pool),
    close: async () => {
      try {
        await checkpoints.close();
      } finally {
        await pool.end();
      }
    },
  };
}
