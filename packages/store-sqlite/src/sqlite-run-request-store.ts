import { systemClock, type Clock } from '@headway/protocol';
import {
  CheckpointError,
  type RunRequest,
  type RunRequestClaimFilter,
  type RunRequestClaimOptions,
  type RunRequestInit,
  type RunRequestOutcome,
  type RunRequestStore,
} from '@headway/runtime';
import { RUN_REQUEST_COLUMNS, decodeRunRequestRow, runRequestLeaseMs, validateRunRequestInit } from '@headway/runtime/store-kit';
import { openSqliteDatabase, type SqliteDatabase } from './sqlite-database.js';

const DDL = `
CREATE TABLE IF NOT EXISTS headway_run_requests (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  action TEXT NOT NULL,
  run_id TEXT NOT NULL,
  checkpoint_id TEXT NOT NULL,
  status TEXT NOT NULL,
  worker TEXT,
  outcome TEXT,
  result_run_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS headway_run_requests_pending ON headway_run_requests (status, id);
CREATE INDEX IF NOT EXISTS headway_run_requests_run ON headway_run_requests (run_id);
`;

// Version 2: claims are leases. The table above is version 1's; a file written at version 1 gets
// the column added, a new file gets both (openSqliteDatabase runs the DDL when the version differs).
const DDL_V2 = `${DDL}
ALTER TABLE headway_run_requests ADD COLUMN claim_expires INTEGER;
`;

/** Options of {@link SqliteRunRequestStore}. */
export interface SqliteRunRequestStoreOptions {
  /** Clock for `createdAt`/`updatedAt` (default protocol's `systemClock`). */
  clock?: Clock;
}

/**
 * A {@link RunRequestStore} in SQLite: the requests a dashboard writes (Continue, Resume, Cancel)
 * and workers claim, in the checkpoints' file. A claim is one `UPDATE … RETURNING` in an immediate
 * transaction, so two worker processes never take the same request; it lasts until `claim_expires`
 * (the store's clock) unless its worker renews it, so a request whose worker died is taken again.
 *
 * @example
 * ```ts
 * const checkpoints = new SqliteCheckpointStore('agent.db');
 * const requests = checkpoints.runRequests(); // the same file
 * const next = requests.claim('worker-1', { actions: ['continue', 'resume'] });
 * ```
 */
export class SqliteRunRequestStore implements RunRequestStore {
  /** The connection. */
  readonly database: SqliteDatabase;
  readonly #clock: Clock;

  /** Opens `path` (created if missing), or uses an open better-sqlite3 connection. */
  constructor(pathOrDatabase: string | SqliteDatabase, options: SqliteRunRequestStoreOptions = {}) {
    const { db } = openSqliteDatabase(pathOrDatabase, {
      component: 'run-requests',
      version: 2,
      ddl: DDL_V2,
      makeError: (message) => new CheckpointError('CHECKPOINT_CORRUPT', message),
    });
    this.database = db;
    this.#clock = options.clock ?? systemClock;
  }

  put(init: RunRequestInit): { request: RunRequest; created: boolean } {
    const valid = validateRunRequestInit(init);
    const now = this.#clock.now();
    const inserted = this.database
      .prepare(
        `INSERT INTO headway_run_requests (key, action, run_id, checkpoint_id, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'pending', ?, ?) ON CONFLICT (key) DO NOTHING`,
      )
      .run(valid.key, valid.action, valid.runId, valid.checkpointId, now, now);
    const row = this.database.prepare(`SELECT ${RUN_REQUEST_COLUMNS} FROM headway_run_requests WHERE key = ?`).get(valid.key);
    return { request: decodeRunRequestRow(row), created: inserted.changes === 1 };
  }

  claim(worker: string, filter: RunRequestClaimFilter, options?: RunRequestClaimOptions): RunRequest | undefined {
    const leaseMs = runRequestLeaseMs(options);
    if (filter.actions.length === 0 || filter.runIds?.length === 0) return undefined;
    const now = this.#clock.now();
    const params: unknown[] = [worker, now, now + leaseMs, now, ...filter.actions];
    // A claim without an expiry was written before claims were leases: it counts as expired.
    let where = `(status = 'pending' OR (status = 'claimed' AND coalesce(claim_expires, 0) <= ?)) AND action IN (${filter.actions.map(() => '?').join(', ')})`;
    if (filter.runIds !== undefined) {
      where += ` AND run_id IN (${filter.runIds.map(() => '?').join(', ')})`;
      params.push(...filter.runIds);
    }
    const row = this.database
      .transaction(() =>
        this.database
          .prepare(
            `UPDATE headway_run_requests SET status = 'claimed', worker = ?, updated_at = ?, claim_expires = ?
             WHERE id = (SELECT id FROM headway_run_requests WHERE ${where} ORDER BY id LIMIT 1)
             RETURNING ${RUN_REQUEST_COLUMNS}`,
          )
          .get(...params),
      )
      .immediate();
    return row === undefined ? undefined : decodeRunRequestRow(row);
  }

  renew(worker: string, ids: readonly string[], options?: RunRequestClaimOptions): string[] {
    const leaseMs = runRequestLeaseMs(options);
    const numbers = ids.filter((id) => /^\d{1,15}$/.test(id)).map(Number);
    if (numbers.length === 0) return [];
    const rows = this.database
      .prepare(
        `UPDATE headway_run_requests SET claim_expires = ?
         WHERE id IN (${numbers.map(() => '?').join(', ')}) AND status = 'claimed' AND worker = ?
         RETURNING id`,
      )
      .all(this.#clock.now() + leaseMs, ...numbers, worker) as { id: number }[];
    return rows.map((row) => String(row.id)).sort((a, b) => Number(a) - Number(b));
  }

  finish(id: string, outcome: RunRequestOutcome): void {
    this.database
      .prepare(
        'UPDATE headway_run_requests SET status = ?, outcome = ?, result_run_id = ?, updated_at = ?, claim_expires = NULL WHERE id = ?',
      )
      .run(outcome.status, outcome.outcome.slice(0, 2000), outcome.resultRunId ?? null, this.#clock.now(), Number(id));
  }

  list(filter: { runId?: string } = {}): RunRequest[] {
    const rows =
      filter.runId === undefined
        ? this.database.prepare(`SELECT ${RUN_REQUEST_COLUMNS} FROM headway_run_requests ORDER BY id`).all()
        : this.database.prepare(`SELECT ${RUN_REQUEST_COLUMNS} FROM headway_run_requests WHERE run_id = ? ORDER BY id`).all(filter.runId);
    return rows.map(decodeRunRequestRow);
  }
}
