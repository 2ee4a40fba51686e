import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import type { QueryableAuditBus } from './audit-bus.js';
import { AuditChain, type LocatedAuditEvent } from './audit-chain.js';
import { AuditError } from './audit-error.js';
import { assertAuditEvent, decodeAuditRecord, toJson, type AuditEvent } from './audit-event.js';
import { AuditLogError } from './audit-log-error.js';
import { auditQueryConditions, normalizeAuditQuery, type AuditQuery, type NormalizedAuditQuery } from './audit-query.js';

/** Options of {@link SqliteAuditBus}. */
export interface SqliteAuditBusOptions {
  /**
   * `normal` (default): with WAL, a committed event survives a process crash, and the last
   * moments may be lost on power failure. `full`: fsync on every commit.
   */
  synchronous?: 'normal' | 'full';
  /** How long a write waits for another process's lock before failing (default 1000 ms). */
  timeoutMs?: number;
}

/**
 * better-sqlite3 is an optional peer dependency: loaded when the first SQLite bus is made, so a
 * user of the memory or JSONL bus installs nothing native.
 */
function loadDatabase(): typeof Database {
  try {
    return createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  } catch (error) {
    throw new AuditError('AUDIT_INVALID_OPTIONS', 'SqliteAuditBus needs better-sqlite3: npm install better-sqlite3', { cause: error });
  }
}

interface Row {
  id: number;
  event_type: string;
  category: string;
  result: string;
  session_id: string;
  task_id: string;
  timestamp: number;
  detail: string;
  prev_hash: string | null;
  hash: string | null;
}

const SCHEMA_VERSION = 2;

/** The SELECT (with bound parameters) that answers a validated query. */
export function auditQuerySql(q: NormalizedAuditQuery): { sql: string; params: (string | number)[] } {
  const conditions = auditQueryConditions(q);
  const where = conditions.map((c) => `${c.column} ${c.op} ?`);
  const params = conditions.map((c) => c.value);
  const direction = q.order === 'desc' ? 'DESC' : 'ASC';
  let sql = `SELECT * FROM audit_events${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY timestamp ${direction}, id ${direction}`;
  if (q.limit !== undefined) {
    sql += ' LIMIT ?';
    params.push(q.limit);
  }
  return { sql, params };
}

// \`id\` is the rowid: it grows with each insert and rows are never deleted, so the insertion
// order it records needs no AUTOINCREMENT (which costs an extra page write per event).
const SCHEMA = `
CREATE TABLE IF NOT EXISTS audit_events (
  id INTEGER PRIMARY KEY,
  event_type TEXT NOT NULL,
  category TEXT NOT NULL,
  result TEXT NOT NULL,
  session_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  timestamp REAL NOT NULL,
  detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_events_session ON audit_events (session_id, timestamp);
CREATE INDEX IF NOT EXISTS audit_events_task ON audit_events (task_id, timestamp);
CREATE INDEX IF NOT EXISTS audit_events_type ON audit_events (event_type, timestamp);
CREATE INDEX IF NOT EXISTS audit_events_time ON audit_events (timestamp);
`;

// Version 2: the hash chain. Rows written by version 1 keep NULLs (verify calls them unchained).
const CHAIN_COLUMNS = `
ALTER TABLE audit_events ADD COLUMN prev_hash TEXT;
ALTER TABLE audit_events ADD COLUMN hash TEXT;
`;
const CHAIN_INDEX = 'CREATE INDEX IF NOT EXISTS audit_events_chain ON audit_events (session_id, id);';

/**
 * An audit log in a SQLite file (better-sqlite3, WAL): one row per event, indexed by
 * session, task, type and time, queryable with {@link SqliteAuditBus.query}. Writes are
 * synchronous and take tens of microseconds, so the reporter never waits on a promise.
 *
 * @example
 * ```ts
 * const bus = new SqliteAuditBus('audit.db');
 * new AuditReporter({ sessionId: 's1', taskId: 't1', bus }).onStart('demo');
 * const starts = bus.query({ sessionId: 's1', eventType: 'agent.progress.start', limit: 10 });
 * bus.close();
 * ```
 */
export class SqliteAuditBus implements QueryableAuditBus {
  readonly path: string;
  readonly #db: Database.Database;
  readonly #insert: Database.Statement<[string, string, string, string, string, number, string, string, string]>;
  readonly #lastHash: Database.Statement<[string], { hash: string | null }>;
  readonly #queries = new Map<string, Database.Statement<unknown[], Row>>();

  /**
   * Opens (creating it and its directory if needed) the database at `path`.
   *
   * @throws {AuditError} `AUDIT_INVALID_OPTIONS` when the file holds a newer audit schema;
   * better-sqlite3's error when the file cannot be opened; `AUDIT_INVALID_OPTIONS` when better-sqlite3
   * (an optional peer dependency) is not installed.
   */
  constructor(path: string, options: SqliteAuditBusOptions = {}) {
    this.path = path;
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const db = new (loadDatabase())(path, { timeout: options.timeoutMs ?? 1000 });
    try {
      db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version > SCHEMA_VERSION) {
        throw new AuditError(
          'AUDIT_INVALID_OPTIONS',
          `${path} holds audit schema version ${version}; this version reads up to ${SCHEMA_VERSION}`,
        );
      }
      if (version < SCHEMA_VERSION) {
        db.transaction(() => {
          db.exec(SCHEMA);
          const columns = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('audit_events')").all();
          if (!columns.some((c) => c.name === 'hash')) db.exec(CHAIN_COLUMNS);
          db.exec(CHAIN_INDEX);
          db.pragma(`user_version = ${SCHEMA_VERSION}`);
        }).immediate();
      }
      this.#insert = db.prepare(
        'INSERT INTO audit_events (event_type, category, result, session_id, task_id, timestamp, detail, prev_hash, hash) ' +
          'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      this.#lastHash = db.prepare<[string], { hash: string | null }>(
        'SELECT hash FROM audit_events WHERE session_id = ? ORDER BY id DESC LIMIT 1',
      );
    } catch (error) {
      db.close();
      throw error;
    }
    this.#db = db;
  }

  /**
   * Stores the event as one row.
   *
   * @throws {AuditError} `AUDIT_INVALID_EVENT` (nothing stored) or `AUDIT_BUS_CLOSED`;
   * better-sqlite3's error when the write fails.
   */
  publish(event: AuditEvent): void {
    if (!this.#db.open) throw new AuditError('AUDIT_BUS_CLOSED', `SqliteAuditBus ${this.path} is closed`);
    const json = toJson(assertAuditEvent(event));
    // Read the session's newest hash and insert in one write transaction, so two processes writing
    // one database still chain each record to the one stored before it.
    this.#db
      .transaction(() => {
        const chain = new AuditChain();
        const last = this.#lastHash.get(event.sessionId)?.hash;
        if (typeof last === 'string') chain.seed(event.sessionId, last);
        const e = chain.link(event, json);
        this.#insert.run(
          e.eventType,
          e.category,
          e.result,
          e.sessionId,
          e.taskId,
          e.timestamp,
          toJson(e.detail),
          e.prevHash ?? '',
          e.hash ?? '',
        );
      })
      .immediate();
  }

  /**
   * Events matching every given field, by time then insertion (`order: 'desc'` for newest
   * first), at most `limit`. Each row is validated as it is read.
   *
   * @throws {AuditError} `AUDIT_INVALID_QUERY` for an invalid query, `AUDIT_BUS_CLOSED`.
   * @throws {AuditLogError} `AUDIT_INVALID_ROW` (naming `path#id`) for a row that is not an audit event.
   */
  query(query: AuditQuery = {}): AuditEvent[] {
    if (!this.#db.open) throw new AuditError('AUDIT_BUS_CLOSED', `SqliteAuditBus ${this.path} is closed`);
    const { sql, params } = auditQuerySql(normalizeAuditQuery(query));
    return this.#statement(sql)
      .all(...params)
      .map((row) => this.#toEvent(row));
  }

  /** Checkpoints the WAL into the main file and closes the database. Idempotent. */
  close(): void {
    if (!this.#db.open) return;
    try {
      this.#db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      this.#db.close();
    }
  }

  #statement(sql: string): Database.Statement<unknown[], Row> {
    let stmt = this.#queries.get(sql);
    if (stmt === undefined) {
      stmt = this.#db.prepare<unknown[], Row>(sql);
      this.#queries.set(sql, stmt);
    }
    return stmt;
  }

  #toEvent(row: Row): AuditEvent {
    return rowToEvent(row, this.path);
  }
}

/**
 * Every record of a SQLite audit log in storage order (row id), each with its `path#id`, for
 * `verifyAuditChain`. Opens the file read-only.
 *
 * @throws {AuditLogError} `AUDIT_INVALID_ROW` for a row that is not an audit event.
 * @throws better-sqlite3's error when the file is not a SQLite database or has no audit table.
 */
export function readSqliteAuditRecords(path: string): LocatedAuditEvent[] {
  const db = new (loadDatabase())(path, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare<[], Row>('SELECT * FROM audit_events ORDER BY id')
      .all()
      .map((row) => ({ event: rowToEvent(row, path), location: `${path}#${row.id}` }));
  } finally {
    db.close();
  }
}

function rowToEvent(row: Row, path: string): AuditEvent {
  const location = `${path}#${row.id}`;
  let detail: unknown;
  try {
    detail = JSON.parse(row.detail);
  } catch (cause) {
    throw new AuditLogError('AUDIT_INVALID_ROW', `${location}: detail is not JSON`, {
      location,
      issues: [{ path: 'detail', message: 'not JSON' }],
      cause,
    });
  }
  return decodeAuditRecord(
    {
      eventType: row.event_type,
      category: row.category,
      result: row.result,
      sessionId: row.session_id,
      taskId: row.task_id,
      timestamp: row.timestamp,
      detail,
      ...(row.hash === null ? {} : { hash: row.hash }),
      ...(row.prev_hash === null ? {} : { prevHash: row.prev_hash }),
    },
    location,
  );
}
