import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { ContextError } from '../context-error.js';
import type { LearningsStore, PlaybookStore } from './context-store.js';
import type { Learning, PlaybookPattern } from './records.js';

// One table per kind of record, each an id and the record's JSON.
const TABLES = ['headway_playbook', 'headway_learnings'] as const;
type Table = (typeof TABLES)[number];

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
    for (const table of TABLES) this.#db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, json TEXT NOT NULL)`);
  }

  loadPatterns(): unknown[] {
    return this.#loadAll('headway_playbook');
  }

  savePattern(pattern: PlaybookPattern): void {
    this.#save('headway_playbook', pattern);
  }

  loadLearnings(): unknown[] {
    return this.#loadAll('headway_learnings');
  }

  saveLearning(learning: Learning): void {
    this.#save('headway_learnings', learning);
  }

  /** Every stored item's JSON text, in the order first saved. */
  #loadAll(table: Table): unknown[] {
    return this.#db
      .prepare<[], { json: unknown }>(`SELECT json FROM ${table} ORDER BY rowid`)
      .all()
      .map((r) => r.json);
  }

  /** Stores `item` under its id, replacing what was there. */
  #save(table: Table, item: { id: string }): void {
    this.#db.prepare(`INSERT OR REPLACE INTO ${table} (id, json) VALUES (?, ?)`).run(item.id, JSON.stringify(item));
  }

  /** Closes the database. */
  close(): void {
    this.#db.close();
  }
}
