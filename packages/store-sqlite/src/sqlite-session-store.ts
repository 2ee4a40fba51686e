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
  SESSION_COLUMNS,
  renderColumns,
} from '@headway/runtime/store-kit';
import { SQLITE_TYPES, openSqliteDatabase, type SqliteDatabase } from './sqlite-database.js';

const DDL = `
CREATE TABLE IF NOT EXISTS headway_sessions (
  pk INTEGER PRIMARY KEY,
${renderColumns(SESSION_COLUMNS, SQLITE_TYPES)}
);
CREATE TABLE IF NOT EXISTS headway_session_messages (
  session INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (session, seq)
);
`;

/**
 * A {@link SessionStore} in SQLite. Give it the checkpoint store's `database` to keep
 * sessions and checkpoints in one file.
 *
 * @example
 * ```ts
 * const checkpoints = new SqliteCheckpointStore('agent.db');
 * const sessions = new SqliteSessionStore(checkpoints.database);
 * ```
 */
export class SqliteSessionStore implements SessionStore {
  /** The connection. */
  readonly database: SqliteDatabase;
  readonly #owned: boolean;
  readonly #now: () => number;

  /** Opens `path` (created if missing), or uses an open better-sqlite3 connection. */
  constructor(pathOrDatabase: string | SqliteDatabase, options: SessionStoreOptions = {}) {
    const { db, owned } = openSqliteDatabase(pathOrDatabase, {
      component: 'sessions',
      version: 1,
      ddl: DDL,
      makeError: (message) => new SessionError('SESSION_CORRUPT', message),
    });
    this.database = db;
    this.#owned = owned;
    const clock = options.clock ?? systemClock;
    this.#now = () => clock.now();
  }

  get(id: string): SessionRecord | undefined {
    const db = this.database;
    return db.transaction((): SessionRecord | undefined => {
      const row = db.prepare(`SELECT pk, ${COLUMNS} FROM headway_sessions WHERE id = ?`).get(id) as { pk: number } | undefined;
      if (row === undefined) return undefined;
      const summary = toSummary(row);
      const rows = db.prepare('SELECT seq, body FROM headway_session_messages WHERE session = ? ORDER BY seq').all(row.pk) as {
        seq: unknown;
        body: unknown;
      }[];
      return { ...summary, messages: decodeMessageRows(id, rows, summary.messageCount) };
    })();
  }

  create(id: string): SessionRecord {
    validateSessionId(id);
    const db = this.database;
    return db
      .transaction((): SessionRecord => {
        if (db.prepare('SELECT 1 FROM headway_sessions WHERE id = ?').get(id) !== undefined) throw sessionExists(id);
        const now = this.#now();
        db.prepare(
          'INSERT INTO headway_sessions (id, created_at, updated_at, message_count, spent_usd, calls, runs) VALUES (?, ?, ?, 0, 0, 0, 0)',
        ).run(id, now, now);
        return { id, createdAt: now, updatedAt: now, messageCount: 0, spentUsd: 0, calls: 0, runs: 0, messages: [] };
      })
      .immediate();
  }

  recordRun(id: string, run: SessionRunRecord): void {
    const messages = encodeRun(id, run);
    const db = this.database;
    db.transaction(() => {
      const row = db.prepare('SELECT pk, message_count FROM headway_sessions WHERE id = ?').get(id) as
        { pk: number; message_count: number } | undefined;
      if (row === undefined) throw sessionNotFound(id);
      const insert = db.prepare('INSERT INTO headway_session_messages (session, seq, body) VALUES (?, ?, ?)');
      messages.forEach((body, i) => insert.run(row.pk, row.message_count + i, body));
      db.prepare(
        'UPDATE headway_sessions SET message_count = message_count + ?, spent_usd = spent_usd + ?, calls = calls + ?, runs = runs + 1, updated_at = ? WHERE pk = ?',
      ).run(messages.length, run.spentUsd, run.calls, this.#now(), row.pk);
    }).immediate();
  }

  list(): SessionSummary[] {
    return this.database
      .prepare(`SELECT ${COLUMNS} FROM headway_sessions ORDER BY updated_at, created_at, id`)
      .all()
      .map((row) => toSummary(row));
  }

  delete(id: string): boolean {
    const db = this.database;
    return db
      .transaction(() => {
        const row = db.prepare('SELECT pk FROM headway_sessions WHERE id = ?').get(id) as { pk: number } | undefined;
        if (row === undefined) return false;
        db.prepare('DELETE FROM headway_session_messages WHERE session = ?').run(row.pk);
        db.prepare('DELETE FROM headway_sessions WHERE pk = ?').run(row.pk);
        return true;
      })
      .immediate();
  }

  /** Closes the database if this store opened it. */
  close(): void {
    if (this.#owned && this.database.open) this.database.close();
  }
}
