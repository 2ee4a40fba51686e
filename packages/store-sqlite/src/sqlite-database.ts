import Database from 'better-sqlite3';
import type { HeadwayError } from '@headway/protocol';
import type { StoreColumnTypes } from '@headway/runtime/store-kit';

/** A better-sqlite3 connection, as the SQLite stores take it. */
export type SqliteDatabase = Database.Database;

/** How SQLite spells the store-kit column types: times are integer epoch milliseconds. */
export const SQLITE_TYPES: StoreColumnTypes = { text: 'TEXT', integer: 'INTEGER', real: 'REAL', time: 'INTEGER' };

/** A store's tables: created once by {@link migrate}. */
export interface SqliteSchema {
  component: string;
  version: number;
  ddl: string;
  /** The store's error for a database written by a newer version. */
  makeError: (message: string) => HeadwayError;
}

/**
 * Opens (or adopts) the SQLite database the checkpoint and session stores share, in WAL
 * mode with `synchronous=FULL` (a committed checkpoint survives a crash of the process or
 * of the machine), and migrates `schema`; a database it opened is closed again if that fails.
 */
export function openSqliteDatabase(pathOrDatabase: string | SqliteDatabase, schema: SqliteSchema): { db: SqliteDatabase; owned: boolean } {
  const owned = typeof pathOrDatabase === 'string';
  const db = owned ? new Database(pathOrDatabase) : pathOrDatabase;
  // WAL lets readers (a recovery scan, a dashboard) work while a run writes.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  try {
    db.exec('CREATE TABLE IF NOT EXISTS headway_schema (component TEXT PRIMARY KEY, version INTEGER NOT NULL)');
    migrate(db, schema.component, schema.version, schema.ddl, schema.makeError);
  } catch (error) {
    if (owned) db.close();
    throw error;
  }
  return { db, owned };
}

/**
 * Creates a component's tables once and records its schema version; refuses a database
 * written by a newer version of the component.
 */
function migrate(db: SqliteDatabase, component: string, version: number, ddl: string, makeError: (message: string) => HeadwayError): void {
  const row = db.prepare('SELECT version FROM headway_schema WHERE component = ?').get(component) as { version: number } | undefined;
  if (row !== undefined && row.version > version) {
    throw makeError(`database schema of ${component} is version ${row.version}, newer than this package supports (${version})`);
  }
  if (row?.version === version) return;
  db.transaction(() => {
    db.exec(ddl);
    db.prepare(
      'INSERT INTO headway_schema (component, version) VALUES (?, ?) ON CONFLICT (component) DO UPDATE SET version = excluded.version',
    ).run(component, version);
  }).immediate();
}
