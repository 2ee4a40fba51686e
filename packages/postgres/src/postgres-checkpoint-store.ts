// The checkpoint store and its run claims. Over 300 lines because the claim (lease) rules
// touch every write; they are kept together so the fencing is readable in one place.
import { systemClock } from '@headway/protocol';
import type { Clock } from '@headway/protocol';
import { randomUUID } from 'node:crypto';
import {
  CheckpointError,
  type Checkpoint,
  type CheckpointInit,
  type CheckpointListFilter,
  type CheckpointStatus,
  type CheckpointStore,
  type CheckpointSummary,
  type CheckpointUpdate,
  type SessionStore,
} from '@headway/runtime';
import {
  CHECKPOINT_FULL_COLUMNS,
  CHECKPOINT_INSERT_COLUMNS,
  CHECKPOINT_SUMMARY_COLUMNS as SUMMARY_COLUMNS,
  blobRef,
  checkpointInsertValues,
  checkCheckpointExpected as checkExpected,
  checkpointFilterStatuses as filterStatuses,
  checkpointNotFound as notFound,
  checkpointNotRunning as notRunning,
  decodeCheckpointCountsRow as decodeCounts,
  decodeCheckpointSequenceRows as decodeRows,
  decodeCheckpointSummaryRow as toSummary,
  decodeJson,
  decodeState,
  decodeToolCall,
  encodeCheckpointInit as encodeInit,
  encodeCheckpointUpdate as encodeUpdate,
  encodeJson,
  validateCheckpointInit as validateInit,
} from '@headway/runtime/store-kit';
import type { Pool, PoolClient } from 'pg';
import { ensureMigrated } from './migrate.js';
import { PostgresRunRequestStore } from './postgres-run-request-store.js';
import { execute, guardPool, query, transaction } from './pg-connection.js';
import { PostgresSessionStore } from './postgres-session-store.js';

/** How a store takes part in recovery shared by many workers. */
export interface PostgresWorkerOptions {
  /**
   * This worker's id (default: a random one per store). A worker restarted with the same id
   * takes its own runs back at once instead of waiting for their leases to expire.
   */
  id?: string;
  /** How long a claim lasts without renewal (default 30 s); renewed every third of it while held. */
  leaseMs?: number;
}

/** Options of {@link PostgresCheckpointStore}. */
export interface PostgresCheckpointStoreOptions {
  /** Clock for `createdAt`/`updatedAt` (default protocol's `systemClock`). Leases use the database's clock. */
  clock?: Clock;
  /**
   * Claim runs for this worker: `load` of a running checkpoint (what `runtime.resume` calls)
   * claims it with a lease, or throws `CHECKPOINT_CONFLICT` when another live worker holds it;
   * `list` leaves out running checkpoints other live workers hold; every write renews the lease
   * and is refused once another worker has taken the run over. Leave it out for a store that
   * only inspects, or when one process runs everything.
   */
  worker?: PostgresWorkerOptions;
}

// The database's clock in epoch ms: leases compare times written by different machines.
const DB_NOW = '(extract(epoch from clock_timestamp()) * 1000)::float8';

interface ClaimRow {
  status: string;
  lease_owner: string | null;
  lease_live: boolean;
}

interface Head {
  pk: string;
  status: string;
  message_count: number;
  log_count: number;
  lease_owner: string | null;
  lease_live: boolean;
}

interface UpdateRow extends Head {
  stale: boolean;
  written: boolean;
}

// A checkpoint write in one statement: $1 id; $2 messages, $3 log entries (JSON text);
// $4 clear the tool calls; $5 ids, $6 indexes, $7 bodies of the tool calls; $8 state,
// $9 iteration, $10 last seq, $11 updated_at; $12 this worker (or NULL), $13 the lease in ms;
// $14/$15 the expected message/log counts (or NULL).
// `head` locks the checkpoint row (FOR UPDATE returns its newest version, after waiting for a
// concurrent writer to commit); the writes happen only when it is running, not held by another
// live worker and matches `expect`. Every sub-statement reads the snapshot taken when the
// statement began, so when the row changed while `head` waited for its lock (`seen` shows the
// older version), the statement writes nothing and says `stale`: run again in the same
// transaction, it reads a snapshot taken with the lock held. Clearing the tool calls deletes
// those not written again and upserts the rest, so no sub-statement touches a row twice.
const UPDATE_SQL = `WITH head AS (
  SELECT pk, xmin::text AS version, status, message_count, log_count, lease_owner,
         coalesce(lease_expires > ${DB_NOW}, false) AS lease_live
  FROM headway_checkpoints WHERE id = $1 FOR UPDATE
), seen AS (
  SELECT xmin::text AS version FROM headway_checkpoints WHERE id = $1
), ok AS (
  SELECT h.pk, h.message_count, h.log_count FROM head h
  WHERE h.status = 'running'
    AND h.version = (SELECT version FROM seen)
    AND ($12::text IS NULL OR h.lease_owner IS NULL OR h.lease_owner = $12::text OR NOT h.lease_live)
    AND ($14::int IS NULL OR (h.message_count = $14::int AND h.log_count = $15::int))
), messages AS (
  INSERT INTO headway_checkpoint_messages (checkpoint, seq, body)
  SELECT ok.pk, ok.message_count + t.o - 1, t.b FROM ok, unnest($2::text[]) WITH ORDINALITY AS t(b, o)
), log AS (
  INSERT INTO headway_checkpoint_log (checkpoint, seq, body)
  SELECT ok.pk, ok.log_count + t.o - 1, t.b FROM ok, unnest($3::text[]) WITH ORDINALITY AS t(b, o)
), cleared AS (
  DELETE FROM headway_checkpoint_tool_calls
  WHERE $4::boolean AND checkpoint = (SELECT pk FROM ok) AND tool_call_id <> ALL($5::text[])
), calls AS (
  INSERT INTO headway_checkpoint_tool_calls (checkpoint, tool_call_id, idx, body)
  SELECT ok.pk, t.id, t.idx, t.body FROM ok, unnest($5::text[], $6::int[], $7::text[]) AS t(id, idx, body)
  ON CONFLICT (checkpoint, tool_call_id) DO UPDATE SET idx = excluded.idx, body = excluded.body
), written AS (
  UPDATE headway_checkpoints c SET
    state = coalesce($8::text, c.state),
    iteration = coalesce($9::int, c.iteration),
    message_count = c.message_count + cardinality($2::text[]),
    log_count = c.log_count + cardinality($3::text[]),
    last_seq = greatest(c.last_seq, coalesce($10::int, c.last_seq)),
    updated_at = $11::float8,
    lease_owner = coalesce($12::text, c.lease_owner),
    lease_expires = CASE WHEN coalesce($12::text, c.lease_owner) IS NULL THEN NULL ELSE ${DB_NOW} + $13::float8 END
  FROM ok WHERE c.pk = ok.pk
  RETURNING 1
)
SELECT h.pk, h.status, h.message_count, h.log_count, h.lease_owner, h.lease_live,
       h.version IS DISTINCT FROM (SELECT version FROM seen) AS stale,
       EXISTS (SELECT 1 FROM written) AS written
FROM head h`;

function claimedElsewhere(id: string, owner: string | null): CheckpointError {
  return new CheckpointError('CHECKPOINT_CONFLICT', `checkpoint ${id}: claimed by worker ${owner ?? '?'}; another worker is running it`);
}

/**
 * A {@link CheckpointStore} in PostgreSQL through a node-postgres `Pool`. Each write is one
 * transaction that inserts only the round's new rows and rewrites the small checkpoint row,
 * so a round costs the same at round 1,000 as at round 10. With `worker`, runs are claimed with
 * a lease so that many workers can share one database and never resume the same run twice.
 *
 * @example
 * ```ts
 * const pool = new Pool({ connectionString: process.env.DATABASE_URL });
 * const store = new PostgresCheckpointStore(pool, { worker: { id: 'worker-1' } });
 * for (const c of await store.list({ status: 'running' })) console.log(c.id, c.iteration);
 * ```
 */
export class PostgresCheckpointStore implements CheckpointStore {
  /** The pool, to share with a `PostgresSessionStore` or your own queries. */
  readonly pool: Pool;
  /** This store's worker id when it claims runs, else `undefined`. */
  readonly workerId: string | undefined;
  readonly #leaseMs: number;
  readonly #clock: Clock;
  readonly #held = new Set<string>();
  /** When (this store's clock) each held lease was last confirmed by the database. */
  readonly #confirmedAt = new Map<string, number>();
  #renewal: ReturnType<typeof setInterval> | undefined;
  #sessions: SessionStore | undefined;
  #requests: PostgresRunRequestStore | undefined;

  /** Uses `pool` (which stays yours to end); the tables are created on first use (see `migrate`). */
  constructor(pool: Pool, options: PostgresCheckpointStoreOptions = {}) {
    this.pool = pool;
    guardPool(pool);
    this.#clock = options.clock ?? systemClock;
    this.workerId = options.worker === undefined ? undefined : (options.worker.id ?? `worker-${randomUUID()}`);
    this.#leaseMs = options.worker?.leaseMs ?? 30_000;
    if (!(this.#leaseMs > 0))
      throw new CheckpointError('CHECKPOINT_INVALID', `worker.leaseMs must be positive, got ${String(this.#leaseMs)}`);
  }

  /** Session history in the same database: the runtime's default when it is given no `sessionStore`. */
  sessionStore(): SessionStore {
    this.#sessions ??= new PostgresSessionStore(this.pool, { clock: this.#clock });
    return this.#sessions;
  }

  /** Requests about runs (Continue, Resume, Cancel from a dashboard) in the same database. */
  runRequests(): PostgresRunRequestStore {
    this.#requests ??= new PostgresRunRequestStore(this.pool, { clock: this.#clock });
    return this.#requests;
  }

  async create(init: CheckpointInit): Promise<void> {
    validateInit(init);
    for (const field of ['id', 'runId', 'sessionId', 'taskId'] as const) {
      // PostgreSQL text cannot hold U+0000; contents are JSON-escaped, ids must do without it.
      if (init[field].includes('\u0000')) {
        throw new CheckpointError(
          'CHECKPOINT_INVALID',
          `checkpoint ${init.id.replaceAll('\u0000', '\\0')}: init.${field} contains U+0000`,
          { issues: [{ path: `init.${field}`, message: 'contains U+0000' }] },
        );
      }
    }
    // JSON text: the input may hold U+0000, which PostgreSQL text cannot.
    const input = encodeJson(init.input, 'init.input', init.id);
    const encoded = encodeInit(init);
    const { messages, log } = encoded;
    await this.#write(async (c) => {
      // $1…$13 are the row's values, $14 the worker that claims it, $15 the lease.
      const inserted = await c.query<{ pk: string }>(
        `INSERT INTO headway_checkpoints (${CHECKPOINT_INSERT_COLUMNS}, lease_owner, lease_expires)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::text, CASE WHEN $14::text IS NULL THEN NULL ELSE ${DB_NOW} + $15 END)
         ON CONFLICT (id) DO NOTHING RETURNING pk`,
        [...checkpointInsertValues(init, input, encoded, this.#clock.now()), this.workerId ?? null, this.#leaseMs],
      );
      const pk = inserted.rows[0]?.pk;
      if (pk === undefined) throw new CheckpointError('CHECKPOINT_EXISTS', `checkpoint ${init.id} exists already`);
      await appendRows(c, 'headway_checkpoint_messages', pk, 0, messages);
      await appendRows(c, 'headway_checkpoint_log', pk, 0, log);
    });
    this.#hold(init.id);
  }

  async update(id: string, update: CheckpointUpdate): Promise<void> {
    const { state, messages, log, calls } = encodeUpdate(id, update);
    const values = [
      id,
      messages,
      log,
      update.clearToolCalls === true,
      calls.map((x) => x.c.toolCallId),
      calls.map((x) => x.c.index),
      calls.map((x) => x.body),
      state,
      update.state?.iteration ?? null,
      update.lastSeq ?? null,
      this.#clock.now(),
      this.workerId ?? null,
      this.#leaseMs,
      update.expect?.messages ?? null,
      update.expect?.log ?? null,
    ];
    await this.#write(async (c) => {
      // One statement per write: a round trip each is what a write costs on a busy machine.
      // A head whose row changed while this statement waited for its lock is run again, now
      // that the lock is held (see UPDATE_SQL).
      for (let attempt = 1; ; attempt++) {
        const head = (await c.query<UpdateRow>({ name: 'headway_checkpoint_update', text: UPDATE_SQL, values })).rows[0];
        if (head === undefined) throw notFound(id);
        if (head.status !== 'running') throw notRunning(id, head.status);
        if (this.workerId !== undefined && head.lease_owner !== null && head.lease_owner !== this.workerId && head.lease_live) {
          this.#held.delete(id);
          throw claimedElsewhere(id, head.lease_owner);
        }
        checkExpected(id, update, head);
        if (head.written) {
          if (this.workerId !== undefined && head.lease_owner !== this.workerId) this.#hold(id);
          return;
        }
        if (!head.stale || attempt >= 3)
          throw new CheckpointError('CHECKPOINT_CONFLICT', `checkpoint ${id}: the write was refused; another writer keeps changing it`);
      }
    });
  }

  async complete(id: string): Promise<void> {
    await this.#finish(id, 'completed', null);
  }

  async fail(id: string, error: string): Promise<void> {
    // A thrown message may carry U+0000, which PostgreSQL text cannot hold.
    await this.#finish(id, 'failed', error.replaceAll('\u0000', '\uFFFD'));
  }

  async abandon(id: string): Promise<void> {
    await this.#finish(id, 'abandoned', null);
  }

  /**
   * Reads a checkpoint back in full, validated. With `worker`, a running checkpoint is claimed
   * for this worker first (`SELECT … FOR UPDATE SKIP LOCKED`).
   *
   * @throws {CheckpointError} `CHECKPOINT_CORRUPT` naming the checkpoint, its run and the row;
   * `CHECKPOINT_CONFLICT` when another live worker holds the run.
   */
  async load(id: string): Promise<Checkpoint | undefined> {
    // No stored id holds U+0000 (PostgreSQL text cannot), so none matches.
    if (id.includes('\u0000')) return undefined;
    await ensureMigrated(this.pool);
    if (this.workerId !== undefined) await this.#claim(id);
    // REPEATABLE READ: one snapshot, so a concurrent writer cannot show us half of its round.
    return transaction(
      this.pool,
      async (c) => {
        const row = (
          await c.query<Record<string, unknown> & { pk: string }>(
            `SELECT pk, ${CHECKPOINT_FULL_COLUMNS} FROM headway_checkpoints WHERE id = $1`,
            [id],
          )
        ).rows[0];
        if (row === undefined) return undefined;
        const where = typeof row.run_id === 'string' ? `${id} (run ${row.run_id})` : id;
        const summary = toSummary(row);
        const counts = decodeCounts(row, where);
        const messages = decodeRows(
          (await c.query('SELECT seq, body FROM headway_checkpoint_messages WHERE checkpoint = $1 ORDER BY seq', [row.pk])).rows,
          counts.message_count,
          'messages',
          where,
        );
        const log = decodeRows(
          (await c.query('SELECT seq, body FROM headway_checkpoint_log WHERE checkpoint = $1 ORDER BY seq', [row.pk])).rows,
          counts.log_count,
          'log',
          where,
        );
        const toolCalls = (
          await c.query<{ body: unknown }>(
            'SELECT body FROM headway_checkpoint_tool_calls WHERE checkpoint = $1 ORDER BY idx, tool_call_id',
            [row.pk],
          )
        ).rows.map((r, i) => decodeToolCall(r.body, `toolCalls[${i}]`, where));
        const input = decodeJson(counts.input, 'input', where);
        if (typeof input !== 'string')
          throw new CheckpointError('CHECKPOINT_CORRUPT', `checkpoint ${where}: input: expected text`, {
            issues: [{ path: 'input', message: 'expected text' }],
          });
        return { ...summary, input, state: decodeState(row.state, where), messages, log, toolCalls, lastSeq: counts.last_seq };
      },
      'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
    );
  }

  async list(filter: CheckpointListFilter = {}): Promise<CheckpointSummary[]> {
    await ensureMigrated(this.pool);
    const statuses = filterStatuses(filter);
    const where: string[] = [];
    const params: unknown[] = [];
    if (statuses !== undefined) {
      params.push(statuses);
      where.push(`status = ANY($${params.length}::text[])`);
    }
    if (filter.sessionId !== undefined) {
      params.push(filter.sessionId);
      where.push(`session_id = $${params.length}`);
    }
    if (this.workerId !== undefined) {
      // Runs other live workers hold are theirs, not pending.
      params.push(this.workerId);
      where.push(`NOT (status = 'running' AND lease_owner IS NOT NULL AND lease_owner <> $${params.length} AND lease_expires > ${DB_NOW})`);
    }
    // The lease of each running checkpoint, judged by the database's clock (the one leases are written with).
    const sql = `SELECT ${SUMMARY_COLUMNS}, lease_owner, coalesce(lease_expires > ${DB_NOW}, false) AS lease_live FROM headway_checkpoints ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY updated_at, created_at, id`;
    return (await query<Record<string, unknown>>(this.pool, sql, params)).map((row) => {
      const summary = toSummary(row);
      const owner = row.lease_owner;
      if (summary.status !== 'running' || typeof owner !== 'string') return summary;
      return { ...summary, lease: { owner, live: row.lease_live === true } };
    });
  }

  async delete(id: string): Promise<boolean> {
    this.#held.delete(id);
    return this.#write(async (c) => ((await c.query('DELETE FROM headway_checkpoints WHERE id = $1', [id])).rowCount ?? 0) > 0);
  }

  async putBlob(id: string, content: string): Promise<string> {
    if (typeof content !== 'string') throw new CheckpointError('CHECKPOINT_INVALID', `checkpoint ${id}: a blob must be a string`);
    const ref = blobRef(content);
    await this.#write(async (c) => {
      const pk = (await c.query<{ pk: string }>('SELECT pk FROM headway_checkpoints WHERE id = $1', [id])).rows[0]?.pk;
      if (pk === undefined) throw notFound(id);
      // JSON text: a tool result may hold U+0000, which PostgreSQL text cannot.
      await c.query(
        'INSERT INTO headway_checkpoint_blobs (checkpoint, ref, content) VALUES ($1, $2, $3) ON CONFLICT (checkpoint, ref) DO NOTHING',
        [pk, ref, JSON.stringify(content)],
      );
    });
    return ref;
  }

  async getBlob(id: string, ref: string): Promise<string | undefined> {
    if (id.includes('\u0000') || ref.includes('\u0000')) return undefined;
    await ensureMigrated(this.pool);
    const rows = await query<{ content: unknown }>(
      this.pool,
      'SELECT b.content FROM headway_checkpoint_blobs b JOIN headway_checkpoints c ON c.pk = b.checkpoint WHERE c.id = $1 AND b.ref = $2',
      [id, ref],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    const content = decodeJson(row.content, `blob ${ref}`, id);
    if (typeof content !== 'string') throw new CheckpointError('CHECKPOINT_CORRUPT', `checkpoint ${id}: blob ${ref} is not text`);
    return content;
  }

  /**
   * True while this worker holds the lease on the running checkpoint `id` (what the runtime asks
   * before every tool call). The database answers; when it cannot within a third of the lease (an
   * outage), the lease counts as held only if the database confirmed it less than `leaseMs` ago,
   * so a worker cut off for longer than its lease stops instead of racing the worker that took
   * the run over. Without `worker`, always true.
   */
  async checkLease(id: string): Promise<boolean> {
    if (this.workerId === undefined) return true;
    const asked = this.#clock.now();
    let timer: unknown;
    const late = new Promise<'late'>((resolve) => {
      timer = this.#clock.setTimeout(
        () => {
          resolve('late');
        },
        Math.max(50, Math.floor(this.#leaseMs / 3)),
      );
    });
    try {
      const answer = await Promise.race([
        query<{ lease_owner: string | null; lease_live: boolean; status: string }>(
          this.pool,
          `SELECT lease_owner, coalesce(lease_expires > ${DB_NOW}, false) AS lease_live, status FROM headway_checkpoints WHERE id = $1`,
          [id],
        ),
        late,
      ]);
      if (answer !== 'late') {
        const row = answer[0];
        const held = row?.status === 'running' && row.lease_owner === this.workerId && row.lease_live;
        if (held) this.#confirmedAt.set(id, asked);
        else this.#held.delete(id);
        return held;
      }
    } catch {
      // The database cannot answer: what it last confirmed decides, below.
    } finally {
      this.#clock.clearTimeout(timer);
    }
    const confirmed = this.#confirmedAt.get(id);
    return this.#held.has(id) && confirmed !== undefined && this.#clock.now() - confirmed < this.#leaseMs;
  }

  /**
   * Stops renewing this worker's leases and releases them, so another worker can take the
   * runs at once. The pool stays open: it is yours to `end()`.
   */
  async close(): Promise<void> {
    if (this.#renewal !== undefined) clearInterval(this.#renewal);
    this.#renewal = undefined;
    const held = [...this.#held];
    this.#held.clear();
    if (this.workerId === undefined || held.length === 0) return;
    await execute(
      this.pool,
      'UPDATE headway_checkpoints SET lease_owner = NULL, lease_expires = NULL WHERE id = ANY($1::text[]) AND lease_owner = $2 RETURNING 1',
      [held, this.workerId],
    );
  }

  async #write<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
    await ensureMigrated(this.pool);
    return transaction(this.pool, fn);
  }

  /** The running checkpoint's row, locked for this transaction; refuses when another live worker holds it. */
  async #running(c: PoolClient, id: string): Promise<Head> {
    const head = (
      await c.query<Head>(
        `SELECT pk, status, message_count, log_count, lease_owner, coalesce(lease_expires > ${DB_NOW}, false) AS lease_live FROM headway_checkpoints WHERE id = $1 FOR UPDATE`,
        [id],
      )
    ).rows[0];
    if (head === undefined) throw notFound(id);
    if (head.status !== 'running') throw notRunning(id, head.status);
    if (this.workerId !== undefined) {
      if (head.lease_owner !== null && head.lease_owner !== this.workerId && head.lease_live) {
        this.#held.delete(id);
        throw claimedElsewhere(id, head.lease_owner);
      }
      if (head.lease_owner !== this.workerId) {
        await c.query(`UPDATE headway_checkpoints SET lease_owner = $2, lease_expires = ${DB_NOW} + $3 WHERE pk = $1`, [
          head.pk,
          this.workerId,
          this.#leaseMs,
        ]);
        this.#hold(id);
      }
    }
    return head;
  }

  async #finish(id: string, status: Exclude<CheckpointStatus, 'running'>, error: string | null): Promise<void> {
    await this.#write(async (c) => {
      const head = await this.#running(c, id);
      await c.query(
        'UPDATE headway_checkpoints SET status = $1, error = $2, updated_at = $3, lease_owner = NULL, lease_expires = NULL WHERE pk = $4',
        [status, error, this.#clock.now(), head.pk],
      );
    });
    this.#held.delete(id);
  }

  /**
   * Claims a running checkpoint for this worker. A row another transaction has locked is
   * skipped (`FOR UPDATE SKIP LOCKED`): another worker is claiming or writing it. Only when the
   * lock is this worker's own (an earlier incarnation killed mid-write, whose transaction the
   * server is still rolling back) does it wait for the lock, up to 10 s.
   */
  async #claim(id: string): Promise<void> {
    const outcome = await transaction(this.pool, async (c) => {
      const select = `SELECT status, lease_owner, coalesce(lease_expires > ${DB_NOW}, false) AS lease_live FROM headway_checkpoints WHERE id = $1`;
      let row = (await c.query<ClaimRow>(`${select} FOR UPDATE SKIP LOCKED`, [id])).rows[0];
      if (row === undefined) {
        const seen = (await c.query<ClaimRow>(select, [id])).rows[0];
        if (seen === undefined) return 'missing';
        if (seen.lease_owner !== this.workerId) return { owner: seen.lease_owner };
        await c.query("SET LOCAL lock_timeout = '10s'");
        row = (await c.query<ClaimRow>(`${select} FOR UPDATE`, [id])).rows[0];
        if (row === undefined) return 'missing';
      }
      if (row.status !== 'running') return 'not-running';
      if (row.lease_owner !== null && row.lease_owner !== this.workerId && row.lease_live) return { owner: row.lease_owner };
      await c.query(`UPDATE headway_checkpoints SET lease_owner = $2, lease_expires = ${DB_NOW} + $3 WHERE id = $1`, [
        id,
        this.workerId,
        this.#leaseMs,
      ]);
      return 'claimed';
    });
    if (typeof outcome === 'object') throw claimedElsewhere(id, outcome.owner);
    if (outcome === 'claimed') this.#hold(id);
  }

  #hold(id: string): void {
    if (this.workerId === undefined) return;
    this.#held.add(id);
    this.#confirmedAt.set(id, this.#clock.now());
    if (this.#renewal !== undefined) return;
    this.#renewal = setInterval(
      () => {
        void this.#renew();
      },
      Math.max(10, Math.floor(this.#leaseMs / 3)),
    );
    this.#renewal.unref();
  }

  /** Extends the leases this worker holds; a run another worker has taken over is dropped. */
  async #renew(): Promise<void> {
    const held = [...this.#held];
    if (held.length === 0) {
      if (this.#renewal !== undefined) clearInterval(this.#renewal);
      this.#renewal = undefined;
      return;
    }
    try {
      const rows = await execute<{ id: string }>(
        this.pool,
        `UPDATE headway_checkpoints SET lease_expires = ${DB_NOW} + $3 WHERE id = ANY($1::text[]) AND lease_owner = $2 AND status = 'running' RETURNING id`,
        [held, this.workerId, this.#leaseMs],
      );
      const kept = new Set(rows.map((r) => r.id));
      for (const id of held) if (!kept.has(id)) this.#held.delete(id);
      for (const id of kept) this.#confirmedAt.set(id, this.#clock.now());
    } catch {
      // The next renewal tries again; a lease that lapses meanwhile is fenced on the next write.
    }
  }
}

/** Appends `bodies` at `from`, `from + 1`, … in one statement. */
async function appendRows(c: PoolClient, table: string, pk: string, from: number, bodies: readonly string[]): Promise<void> {
  if (bodies.length === 0) return;
  await c.query(
    `INSERT INTO ${table} (checkpoint, seq, body) SELECT $1, $2 + o - 1, b FROM unnest($3::text[]) WITH ORDINALITY AS t(b, o)`,
    [pk, from, bodies],
  );
}
