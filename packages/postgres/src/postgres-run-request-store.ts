import { systemClock, type Clock } from '@headway/protocol';
import type {
  RunRequest,
  RunRequestClaimFilter,
  RunRequestClaimOptions,
  RunRequestInit,
  RunRequestOutcome,
  RunRequestStore,
} from '@headway/runtime';
import { RUN_REQUEST_COLUMNS, decodeRunRequestRow, runRequestLeaseMs, validateRunRequestInit } from '@headway/runtime/store-kit';
import type { Pool } from 'pg';
import { ensureMigrated } from './migrate.js';
import { execute, guardPool, query } from './pg-connection.js';

/**
 * A {@link RunRequestStore} in PostgreSQL: the requests a dashboard writes (Continue, Resume,
 * Cancel) and workers claim. A claim is one `UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED)`,
 * so any number of worker processes take each request once. A claim lasts until `claim_expires`
 * (the store's clock: keep the workers' clocks in sync) unless its worker renews it; a request whose
 * worker died is then claimed again.
 *
 * @example
 * ```ts
 * const requests = new PostgresRunRequestStore(pool);
 * const next = await requests.claim('worker-1', { actions: ['continue', 'resume'] });
 * ```
 */
export class PostgresRunRequestStore implements RunRequestStore {
  /** The pool (yours to end). */
  readonly pool: Pool;
  readonly #clock: Clock;

  /** Uses `pool`; the table is created on first use (see `migrate`). */
  constructor(pool: Pool, options: { clock?: Clock } = {}) {
    this.pool = pool;
    guardPool(pool);
    this.#clock = options.clock ?? systemClock;
  }

  async put(init: RunRequestInit): Promise<{ request: RunRequest; created: boolean }> {
    const valid = validateRunRequestInit(init);
    await ensureMigrated(this.pool);
    const now = this.#clock.now();
    const inserted = await execute(
      this.pool,
      `INSERT INTO headway_run_requests (key, action, run_id, checkpoint_id, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'pending', $5, $5) ON CONFLICT (key) DO NOTHING RETURNING ${RUN_REQUEST_COLUMNS}`,
      [valid.key, valid.action, valid.runId, valid.checkpointId, now],
    );
    if (inserted[0] !== undefined) return { request: decodeRunRequestRow(inserted[0]), created: true };
    const rows = await query(this.pool, `SELECT ${RUN_REQUEST_COLUMNS} FROM headway_run_requests WHERE key = $1`, [valid.key]);
    return { request: decodeRunRequestRow(rows[0]), created: false };
  }

  async claim(worker: string, filter: RunRequestClaimFilter, options?: RunRequestClaimOptions): Promise<RunRequest | undefined> {
    const leaseMs = runRequestLeaseMs(options);
    if (filter.actions.length === 0 || filter.runIds?.length === 0) return undefined;
    await ensureMigrated(this.pool);
    const now = this.#clock.now();
    const params: unknown[] = [worker, now, [...filter.actions], now + leaseMs];
    // A claim without an expiry was written before claims were leases: it counts as expired.
    let where = `(status = 'pending' OR (status = 'claimed' AND coalesce(claim_expires, 0) <= $2)) AND action = ANY($3::text[])`;
    if (filter.runIds !== undefined) {
      params.push([...filter.runIds]);
      where += ' AND run_id = ANY($5::text[])';
    }
    const rows = await execute(
      this.pool,
      `UPDATE headway_run_requests SET status = 'claimed', worker = $1, updated_at = $2, claim_expires = $4
       WHERE id = (SELECT id FROM headway_run_requests WHERE ${where} ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING ${RUN_REQUEST_COLUMNS}`,
      params,
    );
    return rows[0] === undefined ? undefined : decodeRunRequestRow(rows[0]);
  }

  async renew(worker: string, ids: readonly string[], options?: RunRequestClaimOptions): Promise<string[]> {
    const leaseMs = runRequestLeaseMs(options);
    const numbers = ids.filter((id) => /^\d{1,18}$/.test(id));
    if (numbers.length === 0) return [];
    await ensureMigrated(this.pool);
    const rows = await execute<{ id: string | number }>(
      this.pool,
      `UPDATE headway_run_requests SET claim_expires = $1
       WHERE id = ANY($2::bigint[]) AND status = 'claimed' AND worker = $3 RETURNING id`,
      [this.#clock.now() + leaseMs, numbers, worker],
    );
    return rows.map((row) => String(row.id)).sort((a, b) => Number(a) - Number(b));
  }

  async finish(id: string, outcome: RunRequestOutcome): Promise<void> {
    if (!/^\d{1,18}$/.test(id)) return;
    await ensureMigrated(this.pool);
    await execute(
      this.pool,
      'UPDATE headway_run_requests SET status = $1, outcome = $2, result_run_id = $3, updated_at = $4, claim_expires = NULL WHERE id = $5',
      [outcome.status, outcome.outcome.slice(0, 2000), outcome.resultRunId ?? null, this.#clock.now(), id],
    );
  }

  async list(filter: { runId?: string } = {}): Promise<RunRequest[]> {
    await ensureMigrated(this.pool);
    const rows =
      filter.runId === undefined
        ? await query(this.pool, `SELECT ${RUN_REQUEST_COLUMNS} FROM headway_run_requests ORDER BY id`)
        : await query(this.pool, `SELECT ${RUN_REQUEST_COLUMNS} FROM headway_run_requests WHERE run_id = $1 ORDER BY id`, [filter.runId]);
    return rows.map(decodeRunRequestRow);
  }
}
