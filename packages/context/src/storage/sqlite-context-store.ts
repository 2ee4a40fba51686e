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
    throw new ContextError('CONTEXT_INVALID_CONFIG', 'SqliteContextStore needs better-sqlite3: npm install better-sqlite3', { cause: error });
  }
}

/** Options of {@link SqliteContextStore}. */
export interface SqliteContextStoreOptions {
  /** A file path (`:memory:` for a private in-memory database), or an open better-sqlite3 database. */
  database: string | Database.Database;
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
  readonly #owned: boolean;

  constructor(options: SqliteContextStoreOptions) {
    if (typeof options.database === 'string') {
      const Sqlite = loadDatabase();
      this.#db = new Sqlite(options.database);
      this.#owned = true;
      this.#db.pragma('journal_mode = WAL');
    } else {
      this.#db = options.database;
      this.#owned = false;
    }
    this.#db.exec(
      'CREATE TABLE IF NOT EXISTS headway_playbook (id TEXT PRIMARY KEY, json TEXT NOT NULL);' +
        'CREATE TABLE IF NOT EXISTS headway_learnings (id TEXT PRIMARY KEY, json TEXT NOT NULL);',
    );
  }

  loadPatterns(): unknown[] {
    return this.#db.prepare<[], { json: unknown }>('SELECT json FROM headway_playbook ORDER BY rowid').all().map((r) => r.json);
  }

  savePattern(pattern: PlaybookPattern): void {
    this.#db.prepare('INSERT OR REPLACE INTO headway_playbook (id, json) VALUES (?, ?)').run(pattern.id, JSON.stringify(pattern));
  }

  loadLearnings(): unknown[] {
    return this.#db.prepare<[], { json: unknown }>('SELECT json FROM headway_learnings ORDER BY rowid').all().map((r) => r.json);
  }

  saveLearning(learning: Learning): void {
    this.#db.prepare('INSERT OR REPLACE INTO headway_learnings (id, json) VALUES (?, ?)').run(learning.id, JSON.stringify(learning));
  }

  /** Closes the database when this store opened it. */
  close(): void {
    if (this.#owned) this.#db.close();
  }
}
