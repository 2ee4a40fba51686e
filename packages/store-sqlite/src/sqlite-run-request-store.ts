import { systemClock, type Clock } from '@headway/protocol';
import {
  CheckpointError,
  type RunRequest,
  type RunRequestClaimFilter,
  type RunRequestInit,
  type RunRequestOutcome,
  type RunRequestStore,
} from '@headway/runtime';
import { RUN_REQUEST_COLUMNS, decodeRunRequestRow, validateRunRequestInit } from '@headway/runtime/store-kit';
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

/** Options of {@link SqliteRunRequestStore}. */
export interface SqliteRunRequestStoreOptions {
  /** Clock for `createdAt`/`updatedAt` (default protocol's `systemClock`). */
  clock?: Clock;
}

/**
 * A {@link RunRequestStore} in SQLite: the requests a dashboard writes (Continue, Resume, Cancel)
 * and workers claim, in the checkpoints' file. A claim is one `UPDATE … RETURNING` in an immediate
 * transaction, so two worker processes never take the same request.
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
      version: 1,
      ddl: DDL,
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

  claim(worker: string, filter: RunRequestClaimFilter): RunRequest | undefined {
    if (filter.actions.length === 0 || filter.runIds?.length === 0) return undefined;
    const params: unknown[] = [worker, this.#clock.now(), ...filter.actions];
    let where = `status = 'pending' AND action IN (${filter.actions.map(() => '?').join(', ')})`;
    if (filter.runIds !== undefined) {
      where += ` AND run_id IN (${filter.runIds.map(() => '?').join(', ')})`;
      params.push(...filter.runIds);
    }
    const row = this.database
      .transaction(() =>
        this.database
          .prepare(
            `UPDATE headway_run_requests SET status = 'claimed', worker = ?, updated_at = ?
             WHERE id = (SELECT id FROM headway_run_requests WHERE ${where} ORDER BY id LIMIT 1)
             RETURNING ${RUN_REQUEST_COLUMNS}`,
          )
          .get(...params),
      )
      .immediate();
    return row === undefined ? undefined : decodeRunRequestRow(row);
  }

  finish(id: string, outcome: RunRequestOutcome): void {
    this.database
      .prepare('UPDATE headway_run_requests SET status = ?, outcome = ?, result_run_id = ?, updated_at = ? WHERE id = ?')
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
