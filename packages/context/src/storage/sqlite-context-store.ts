import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { ContextError } from '../context-error.js';
import type { LearningsStore, PlaybookStore } from './context-store.js';
import type { Learning, PlaybookPattern } from './records.js';

/**
 * better-sqlite3 is an optional peer dependency: loaded when the first SQLite store is made, so
 * `@headway/context` itself installs nothing native.
 */
function loadDatabase(): typeof Database {
  try {
    return createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  } catch (error) {
    throw new ContextError('CONTEXT_INVALID_CONFIG', 'SqliteContextStore needs better-sqlite3: npm install better-sqlite3', {
      cause: error,
    });
  }
}

/** Options of {@link SqliteContextStore}. */
export interface SqliteContextStoreOptions {
  /** A file path (`:memory:` for a private in-memory database). */
  database: string;
}

/**
 * Patterns and learnings in a SQLite file (better-sqlite3, WAL): one row per record, its JSON
 * in a text column, read back through the same validation as any store.
 *
 * @example
 * ```ts
 * const store = new SqliteContextStore({ database: 'agent-memory.db' });
 * const playbook = new Playbook({ store });
 * ```
 */
export class SqliteContextStore implements PlaybookStore, LearningsStore {
  readonly #db: Database.Database;

  /**
   * @throws {ContextError} `CONTEXT_INVALID_CONFIG` when better-sqlite3 is not installed or `database` is not a path;
   * better-sqlite3's error when the file cannot be opened.
   */
  constructor(options: SqliteContextStoreOptions) {
    const path: unknown = (options as Partial<SqliteContextStoreOptions> | undefined)?.database;
    if (typeof path !== 'string' || path === '') {
      throw new ContextError('CONTEXT_INVALID_CONFIG', 'Invalid SqliteContextStore options: database: expected a file path or ":memory:"', {
        issues: [{ path: 'database', message: 'expected a file path or ":memory:"' }],
      });
    }
    const Sqlite = loadDatabase();
    this.#db = new Sqlite(path, { timeout: 1000 });
    this.#db.pragma('journal_mode = WAL');
    this.#db.exec(
      'CREATE TABLE IF NOT EXISTS headway_playbook (id TEXT PRIMARY KEY, json TEXT NOT NULL);' +
        'CREATE TABLE IF NOT EXISTS headway_learnings (id TEXT PRIMARY KEY, json TEXT NOT NULL);',
    );
  }

  loadPatterns(): unknown[] {
    return this.#load('headway_playbook');
  }

  savePattern(pattern: PlaybookPattern): void {
    this.#save('headway_playbook', pattern.id, pattern);
  }

  loadLearnings(): unknown[] {
    return this.#load('headway_learnings');
  }

  saveLearning(learning: Learning): void {
    this.#save('headway_learnings', learning.id, learning);
  }

  /** The records of a table as stored (JSON text), oldest first. */
  #load(table: 'headway_playbook' | 'headway_learnings'): unknown[] {
    return this.#db
      .prepare<[], { json: unknown }>(`SELECT json FROM ${table} ORDER BY rowid`)
      .all()
      .map((r) => r.json);
  }

  #save(table: 'headway_playbook' | 'headway_learnings', id: string, record: PlaybookPattern | Learning): void {
    this.#db.prepare(`INSERT OR REPLACE INTO ${table} (id, json) VALUES (?, ?)`).run(id, JSON.stringify(record));
  }

  /** Closes the database. */
  close(): void {
    this.#db.close();
  }
}
