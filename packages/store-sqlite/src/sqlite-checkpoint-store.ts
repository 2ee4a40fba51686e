// Over 300 lines on purpose: one class whose SQL statements and transactions belong together;
// the codec it shares with every store is in @headway/runtime/store-kit.
import { systemClock } from '@headway/protocol';
import type { Clock } from '@headway/protocol';
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
  CHECKPOINT_COLUMNS,
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
  decodeState,
  decodeToolCall,
  encodeCheckpointInit as encodeInit,
  encodeCheckpointUpdate as encodeUpdate,
  renderColumns,
  validateCheckpointInit as validateInit,
} from '@headway/runtime/store-kit';
import { SQLITE_TYPES, openSqliteDatabase, type SqliteDatabase } from './sqlite-database.js';
import { SqliteRunRequestStore } from './sqlite-run-request-store.js';
import { SqliteSessionStore } from './sqlite-session-store.js';

/** Options of {@link SqliteCheckpointStore}. */
export interface SqliteCheckpointStoreOptions {
  /** Clock for `createdAt`/`updatedAt` (default protocol's `systemClock`). */
  clock?: Clock;
}

const SCHEMA_VERSION = 1;
/** Rows one checkpoint may have per child table (2^24); keys stay safe integers up to pk 2^29. */
const ROW_SPAN = 2 ** 24;
const MAX_PK = 2 ** 29;

// Growing contents live in append-only child tables: a round's write inserts its new rows
// and rewrites only the small checkpoint row, so its cost does not depend on how long the
// run has been going. A child row's integer key is checkpoint pk × 2^24 + sequence, so the
// table is its own index: one b-tree (and one page or two) touched per append, and a
// checkpoint's rows are one contiguous key range.
const DDL = `
CREATE TABLE IF NOT EXISTS headway_checkpoints (
  pk INTEGER PRIMARY KEY,
${renderColumns(CHECKPOINT_COLUMNS, SQLITE_TYPES)}
);
CREATE INDEX IF NOT EXISTS headway_checkpoints_status ON headway_checkpoints (status);
CREATE TABLE IF NOT EXISTS headway_checkpoint_messages (
  key INTEGER PRIMARY KEY,
  body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS headway_checkpoint_log (
  key INTEGER PRIMARY KEY,
  body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS headway_checkpoint_tool_calls (
  checkpoint INTEGER NOT NULL,
  tool_call_id TEXT NOT NULL,
  idx INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (checkpoint, tool_call_id)
);
CREATE TABLE IF NOT EXISTS headway_checkpoint_blobs (
  checkpoint INTEGER NOT NULL,
  ref TEXT NOT NULL,
  content TEXT NOT NULL,
  PRIMARY KEY (checkpoint, ref)
);
`;

interface Head {
  pk: number;
  status: string;
  message_count: number;
  log_count: number;
}

/**
 * A {@link CheckpointStore} in a SQLite file (better-sqlite3, WAL). Every checkpoint write
 * is one transaction committed with `synchronous=FULL`; writes are incremental.
 *
 * @example
 * ```ts
 * const store = new SqliteCheckpointStore('agent.db');
 * for (const c of store.list({ status: 'running' })) console.log(c.id, c.iteration);
 * store.close();
 * ```
 */
export class SqliteCheckpointStore implements CheckpointStore {
  /** The connection, to share the file with a `SqliteSessionStore`. */
  readonly database: SqliteDatabase;
  #sessions: SessionStore | undefined;
  #requests: SqliteRunRequestStore | undefined;
  readonly #owned: boolean;
  readonly #clock: Clock;
  readonly #stmt: ReturnType<typeof prepare>;

  /** Opens `path` (created if missing), or uses an open better-sqlite3 connection. */
  constructor(pathOrDatabase: string | SqliteDatabase, options: SqliteCheckpointStoreOptions = {}) {
    const { db, owned } = openSqliteDatabase(pathOrDatabase, {
      component: 'checkpoints',
      version: SCHEMA_VERSION,
      ddl: DDL,
      makeError: (message) => new CheckpointError('CHECKPOINT_CORRUPT', message),
    });
    this.database = db;
    this.#owned = owned;
    this.#clock = options.clock ?? systemClock;
    this.#stmt = prepare(db);
  }

  /** Session history in the same database file: the runtime's default when it is given no `sessionStore`. */
  sessionStore(): SessionStore {
    this.#sessions ??= new SqliteSessionStore(this.database, { clock: this.#clock });
    return this.#sessions;
  }

  /** Requests about runs (Continue, Resume, Cancel from a dashboard) in the same database file. */
  runRequests(): SqliteRunRequestStore {
    this.#requests ??= new SqliteRunRequestStore(this.database, { clock: this.#clock });
    return this.#requests;
  }

  create(init: CheckpointInit): void {
    validateInit(init);
    const encoded = encodeInit(init);
    const { messages, log } = encoded;
    const s = this.#stmt;
    this.database
      .transaction(() => {
        if (s.head.get(init.id) !== undefined) throw new CheckpointError('CHECKPOINT_EXISTS', `checkpoint ${init.id} exists already`);
        const { lastInsertRowid } = s.insert.run(...checkpointInsertValues(init, init.input, encoded, this.#clock.now()));
        const pk = Number(lastInsertRowid);
        if (pk >= MAX_PK)
          throw new CheckpointError('CHECKPOINT_INVALID', `checkpoint ${init.id}: the database has used all ${MAX_PK} checkpoint keys`);
        const base = pk * ROW_SPAN;
        messages.forEach((body, i) => s.insertMessage.run(base + i, body));
        log.forEach((body, i) => s.insertLog.run(base + i, body));
      })
      .immediate();
  }

  update(id: string, update: CheckpointUpdate): void {
    const { state, messages, log, calls } = encodeUpdate(id, update);
    const s = this.#stmt;
    const seqOnly = state === null && messages.length === 0 && log.length === 0 && calls.length === 0 && update.clearToolCalls !== true;
    const write = this.database.transaction(() => {
      const head = this.#running(id);
      checkExpected(id, update, head);
      if (head.message_count + messages.length >= ROW_SPAN || head.log_count + log.length >= ROW_SPAN) {
        throw new CheckpointError('CHECKPOINT_INVALID', `checkpoint ${id}: more than ${ROW_SPAN - 1} messages or log entries`);
      }
      const base = head.pk * ROW_SPAN;
      messages.forEach((body, i) => s.insertMessage.run(base + head.message_count + i, body));
      log.forEach((body, i) => s.insertLog.run(base + head.log_count + i, body));
      if (update.clearToolCalls === true) s.clearCalls.run(head.pk);
      for (const { c, body } of calls) s.upsertCall.run(head.pk, c.toolCallId, c.index, body);
      s.touch.run({
        pk: head.pk,
        state,
        iteration: update.state?.iteration ?? null,
        messages: messages.length,
        log: log.length,
        lastSeq: update.lastSeq ?? null,
        now: this.#clock.now(),
      });
    });
    if (!seqOnly) {
      write.immediate();
      return;
    }
    // Only the event counter: losing it to a power cut costs a few reused seq numbers, not
    // data, so it skips the fsync (it still survives the process being killed).
    s.syncNormal.run();
    try {
      write.immediate();
    } finally {
      s.syncFull.run();
    }
  }

  complete(id: string): void {
    this.#finish(id, 'completed', null);
  }

  fail(id: string, error: string): void {
    this.#finish(id, 'failed', error);
  }

  abandon(id: string): void {
    this.#finish(id, 'abandoned', null);
  }

  load(id: string): Checkpoint | undefined {
    const s = this.#stmt;
    // One read transaction: a concurrent writer cannot show us half of its round.
    return this.database.transaction((): Checkpoint | undefined => {
      const row = s.full.get(id) as (Record<string, unknown> & Head & { input: unknown; state: unknown; last_seq: unknown }) | undefined;
      if (row === undefined) return undefined;
      const summary = toSummary(row);
      const counts = decodeCounts(row, id);
      const range = [row.pk * ROW_SPAN, row.pk * ROW_SPAN, (row.pk + 1) * ROW_SPAN] as const;
      const messages = decodeRows(s.messages.all(...range), counts.message_count, 'messages', id);
      const log = decodeRows(s.log.all(...range), counts.log_count, 'log', id);
      const toolCalls = (s.calls.all(row.pk) as { body: unknown }[]).map((r, i) => decodeToolCall(r.body, `toolCalls[${i}]`, id));
      return {
        ...summary,
        input: counts.input,
        state: decodeState(row.state, id),
        messages,
        log,
        toolCalls,
        lastSeq: counts.last_seq,
      };
    })();
  }

  list(filter: CheckpointListFilter = {}): CheckpointSummary[] {
    const statuses = filterStatuses(filter);
    const where: string[] = [];
    const params: unknown[] = [];
    if (statuses !== undefined) {
      where.push(`status IN (${statuses.map(() => '?').join(', ') || 'NULL'})`);
      params.push(...statuses);
    }
    if (filter.sessionId !== undefined) {
      where.push('session_id = ?');
      params.push(filter.sessionId);
    }
    const sql = `SELECT ${SUMMARY_COLUMNS} FROM headway_checkpoints ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY updated_at, created_at, id`;
    return this.database
      .prepare(sql)
      .all(...params)
      .map((row) => toSummary(row));
  }

  delete(id: string): boolean {
    const s = this.#stmt;
    return this.database
      .transaction(() => {
        const head = s.head.get(id) as Head | undefined;
        if (head === undefined) return false;
        s.deleteMessages.run(head.pk * ROW_SPAN, (head.pk + 1) * ROW_SPAN);
        s.deleteLog.run(head.pk * ROW_SPAN, (head.pk + 1) * ROW_SPAN);
        s.clearCalls.run(head.pk);
        s.deleteBlobs.run(head.pk);
        s.deleteHead.run(head.pk);
        return true;
      })
      .immediate();
  }

  putBlob(id: string, content: string): string {
    if (typeof content !== 'string') throw new CheckpointError('CHECKPOINT_INVALID', `checkpoint ${id}: a blob must be a string`);
    const head = this.#stmt.head.get(id) as Head | undefined;
    if (head === undefined) throw notFound(id);
    const ref = blobRef(content);
    this.#stmt.putBlob.run(head.pk, ref, content);
    return ref;
  }

  getBlob(id: string, ref: string): string | undefined {
    const row = this.#stmt.getBlob.get(id, ref) as { content: unknown } | undefined;
    if (row === undefined) return undefined;
    if (typeof row.content !== 'string') throw new CheckpointError('CHECKPOINT_CORRUPT', `checkpoint ${id}: blob ${ref} is not text`);
    return row.content;
  }

  /** Closes the database if this store opened it (not one it was given). */
  close(): void {
    if (this.#owned && this.database.open) this.database.close();
  }

  #running(id: string): Head {
    const head = this.#stmt.head.get(id) as Head | undefined;
    if (head === undefined) throw notFound(id);
    if (head.status !== 'running') throw notRunning(id, head.status);
    return head;
  }

  #finish(id: string, status: Exclude<CheckpointStatus, 'running'>, error: string | null): void {
    this.database
      .transaction(() => {
        const head = this.#running(id);
        this.#stmt.finish.run(status, error, this.#clock.now(), head.pk);
      })
      .immediate();
  }
}

function prepare(db: SqliteDatabase) {
  return {
    head: db.prepare('SELECT pk, status, message_count, log_count FROM headway_checkpoints WHERE id = ?'),
    full: db.prepare(`SELECT pk, ${CHECKPOINT_FULL_COLUMNS} FROM headway_checkpoints WHERE id = ?`),
    insert: db.prepare(
      `INSERT INTO headway_checkpoints (${CHECKPOINT_INSERT_COLUMNS}) VALUES (${CHECKPOINT_INSERT_COLUMNS.split(',')
        .map(() => '?')
        .join(', ')})`,
    ),
    insertMessage: db.prepare('INSERT INTO headway_checkpoint_messages (key, body) VALUES (?, ?)'),
    insertLog: db.prepare('INSERT INTO headway_checkpoint_log (key, body) VALUES (?, ?)'),
    clearCalls: db.prepare('DELETE FROM headway_checkpoint_tool_calls WHERE checkpoint = ?'),
    upsertCall: db.prepare(
      `INSERT INTO headway_checkpoint_tool_calls (checkpoint, tool_call_id, idx, body) VALUES (?, ?, ?, ?)
       ON CONFLICT (checkpoint, tool_call_id) DO UPDATE SET idx = excluded.idx, body = excluded.body`,
    ),
    touch: db.prepare(
      `UPDATE headway_checkpoints SET
         state = coalesce(@state, state),
         iteration = coalesce(@iteration, iteration),
         message_count = message_count + @messages,
         log_count = log_count + @log,
         last_seq = max(last_seq, coalesce(@lastSeq, last_seq)),
         updated_at = @now
       WHERE pk = @pk`,
    ),
    finish: db.prepare('UPDATE headway_checkpoints SET status = ?, error = ?, updated_at = ? WHERE pk = ?'),
    messages: db.prepare('SELECT key - ? AS seq, body FROM headway_checkpoint_messages WHERE key >= ? AND key < ? ORDER BY key'),
    log: db.prepare('SELECT key - ? AS seq, body FROM headway_checkpoint_log WHERE key >= ? AND key < ? ORDER BY key'),
    calls: db.prepare('SELECT body FROM headway_checkpoint_tool_calls WHERE checkpoint = ? ORDER BY idx, tool_call_id'),
    deleteMessages: db.prepare('DELETE FROM headway_checkpoint_messages WHERE key >= ? AND key < ?'),
    deleteLog: db.prepare('DELETE FROM headway_checkpoint_log WHERE key >= ? AND key < ?'),
    deleteBlobs: db.prepare('DELETE FROM headway_checkpoint_blobs WHERE checkpoint = ?'),
    deleteHead: db.prepare('DELETE FROM headway_checkpoints WHERE pk = ?'),
    putBlob: db.prepare(
      'INSERT INTO headway_checkpoint_blobs (checkpoint, ref, content) VALUES (?, ?, ?) ON CONFLICT (checkpoint, ref) DO NOTHING',
    ),
    getBlob: db.prepare(
      'SELECT b.content FROM headway_checkpoint_blobs b JOIN headway_checkpoints c ON c.pk = b.checkpoint WHERE c.id = ? AND b.ref = ?',
    ),
    syncNormal: db.prepare('PRAGMA synchronous = NORMAL'),
    syncFull: db.prepare('PRAGMA synchronous = FULL'),
  };
}
