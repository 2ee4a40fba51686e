import { systemClock } from '@headway/protocol';
import {
  SessionError,
  type SessionRecord,
  type SessionRunRecord,
  type SessionStore,
  type SessionStoreOptions,
  type SessionSummary,
} from '@headway/runtime';
import {
  SESSION_SUMMARY_COLUMNS as COLUMNS,
  decodeSessionMessageRows as decodeMessageRows,
  decodeSessionSummaryRow as toSummary,
  encodeSessionRun as encodeRun,
  sessionExists,
  sessionNotFound,
  validateSessionId,
} from '@headway/runtime/store-kit';
import type { Pool, PoolClient } from 'pg';
import { ensureMigrated } from './migrate.js';
import { guardPool, query, transaction } from './pg-connection.js';

/**
 * A {@link SessionStore} in PostgreSQL: session history across runs, appended one row per
 * message. Give it the checkpoint store's pool to keep both in one database.
 *
 * @example
 * ```ts
 * const sessions = new PostgresSessionStore(pool);
 * console.log((await sessions.get('chat-1'))?.messages.length);
 * ```
 */
export class PostgresSessionStore implements SessionStore {
  /** The pool (yours to end). */
  readonly pool: Pool;
  readonly #now: () => number;

  /** Uses `pool`; the tables are created on first use (see `migrate`). */
  constructor(pool: Pool, options: SessionStoreOptions = {}) {
    this.pool = pool;
    guardPool(pool);
    const clock = options.clock ?? systemClock;
    this.#now = () => clock.now();
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    if (id.includes('\u0000')) return undefined;
    await ensureMigrated(this.pool);
    return transaction(
      this.pool,
      async (c) => {
        const row = (await c.query<{ pk: string }>(`SELECT pk, ${COLUMNS} FROM headway_sessions WHERE id = $1`, [id])).rows[0];
        if (row === undefined) return undefined;
        const summary = toSummary(row);
        const rows = (
          await c.query<{ seq: unknown; body: unknown }>('SELECT seq, body FROM headway_session_messages WHERE session = $1 ORDER BY seq', [
            row.pk,
          ])
        ).rows;
        return { ...summary, messages: decodeMessageRows(id, rows, summary.messageCount) };
      },
      'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
    );
  }

  async create(id: string): Promise<SessionRecord> {
    validateSessionId(id);
    if (id.includes('\u0000'))
      throw new SessionError('SESSION_INVALID', 'session id contains U+0000', { issues: [{ path: 'id', message: 'contains U+0000' }] });
    return this.#write(async (c) => {
      const now = this.#now();
      const inserted = await c.query(
        'INSERT INTO headway_sessions (id, created_at, updated_at, message_count, spent_usd, calls, runs) VALUES ($1, $2, $2, 0, 0, 0, 0) ON CONFLICT (id) DO NOTHING',
        [id, now],
      );
      if (inserted.rowCount !== 1) throw sessionExists(id);
      return { id, createdAt: now, updatedAt: now, messageCount: 0, spentUsd: 0, calls: 0, runs: 0, messages: [] };
    });
  }

  async recordRun(id: string, run: SessionRunRecord): Promise<void> {
    const messages = encodeRun(id, run);
    await this.#write(async (c) => {
      const row = (
        await c.query<{ pk: string; message_count: number }>('SELECT pk, message_count FROM headway_sessions WHERE id = $1 FOR UPDATE', [
          id,
        ])
      ).rows[0];
      if (row === undefined) throw sessionNotFound(id);
      if (messages.length > 0) {
        await c.query(
          'INSERT INTO headway_session_messages (session, seq, body) SELECT $1, $2 + o - 1, b FROM unnest($3::text[]) WITH ORDINALITY AS t(b, o)',
          [row.pk, row.message_count, messages],
        );
      }
      await c.query(
        'UPDATE headway_sessions SET message_count = message_count + $1, spent_usd = spent_usd + $2, calls = calls + $3, runs = runs + 1, updated_at = $4 WHERE pk = $5',
        [messages.length, run.spentUsd, run.calls, this.#now(), row.pk],
      );
    });
  }

  async list(): Promise<SessionSummary[]> {
    await ensureMigrated(this.pool);
    return (await query(this.pool, `SELECT ${COLUMNS} FROM headway_sessions ORDER BY updated_at, created_at, id`)).map((row) =>
      toSummary(row),
    );
  }

  async delete(id: string): Promise<boolean> {
    return this.#write(async (c) => ((await c.query('DELETE FROM headway_sessions WHERE id = $1', [id])).rowCount ?? 0) > 0);
  }

  async #write<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
    await ensureMigrated(this.pool);
    return transaction(this.pool, fn);
  }
}
