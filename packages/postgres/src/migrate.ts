import { CHECKPOINT_COLUMNS, SESSION_COLUMNS, renderColumns, type StoreColumnTypes } from '@headway/runtime/store-kit';
import type { Pool } from 'pg';
import { describeServer, transaction } from './pg-connection.js';
import { PostgresError } from './postgres-error.js';

// The column lists of the checkpoint and session tables are store-kit's, shared with SQLite;
// rendering them gives the same statements as the first release wrote out by hand.
const POSTGRES_TYPES: StoreColumnTypes = { text: 'TEXT', integer: 'INTEGER', real: 'DOUBLE PRECISION', time: 'DOUBLE PRECISION' };

// Each migration moves the schema from version i to i + 1; append, never edit a released one.
// Timestamps are epoch milliseconds in double precision (they come back as JS numbers);
// contents are JSON text, validated when read back, exactly as the SQLite store keeps them.
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE headway_checkpoints (
    pk BIGSERIAL PRIMARY KEY,
${renderColumns(CHECKPOINT_COLUMNS, POSTGRES_TYPES, '    ')},
    lease_owner TEXT,
    lease_expires DOUBLE PRECISION
  );
  CREATE INDEX headway_checkpoints_status ON headway_checkpoints (status, updated_at);
  CREATE TABLE headway_checkpoint_messages (
    checkpoint BIGINT NOT NULL REFERENCES headway_checkpoints (pk) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (checkpoint, seq)
  );
  CREATE TABLE headway_checkpoint_log (
    checkpoint BIGINT NOT NULL REFERENCES headway_checkpoints (pk) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (checkpoint, seq)
  );
  CREATE TABLE headway_checkpoint_tool_calls (
    checkpoint BIGINT NOT NULL REFERENCES headway_checkpoints (pk) ON DELETE CASCADE,
    tool_call_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (checkpoint, tool_call_id)
  );
  CREATE TABLE headway_checkpoint_blobs (
    checkpoint BIGINT NOT NULL REFERENCES headway_checkpoints (pk) ON DELETE CASCADE,
    ref TEXT NOT NULL,
    content TEXT NOT NULL,
    PRIMARY KEY (checkpoint, ref)
  );
  CREATE TABLE headway_sessions (
    pk BIGSERIAL PRIMARY KEY,
${renderColumns(SESSION_COLUMNS, POSTGRES_TYPES, '    ')}
  );
  CREATE TABLE headway_session_messages (
    session BIGINT NOT NULL REFERENCES headway_sessions (pk) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (session, seq)
  );
  `,
  // 2: the audit log of PostgresAuditBus, one row per event.
  `
  CREATE TABLE headway_audit_events (
    id BIGSERIAL PRIMARY KEY,
    event_type TEXT NOT NULL,
    session_id TEXT NOT NULL,
    task_id TEXT NOT NULL,
    timestamp DOUBLE PRECISION NOT NULL,
    body TEXT NOT NULL
  );
  CREATE INDEX headway_audit_events_session ON headway_audit_events (session_id, timestamp);
  CREATE INDEX headway_audit_events_task ON headway_audit_events (task_id, timestamp);
  CREATE INDEX headway_audit_events_type ON headway_audit_events (event_type, timestamp);
  CREATE INDEX headway_audit_events_time ON headway_audit_events (timestamp);
  `,
  // 3: the audit hash chain. The body holds the whole record (prevHash and hash included); the
  // columns copy them so a writer finds its session's newest hash by index. Older rows keep NULLs.
  `
  ALTER TABLE headway_audit_events ADD COLUMN prev_hash TEXT, ADD COLUMN hash TEXT;
  CREATE INDEX headway_audit_events_chain ON headway_audit_events (session_id, id);
  `,
  // 4: requests about runs (Continue, Resume, Cancel) a dashboard writes and workers claim.
  `
  CREATE TABLE headway_run_requests (
    id BIGSERIAL PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    action TEXT NOT NULL,
    run_id TEXT NOT NULL,
    checkpoint_id TEXT NOT NULL,
    status TEXT NOT NULL,
    worker TEXT,
    outcome TEXT,
    result_run_id TEXT,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
  );
  CREATE INDEX headway_run_requests_pending ON headway_run_requests (status, id);
  CREATE INDEX headway_run_requests_run ON headway_run_requests (run_id);
  `,
  // 5: a claim on a request is a lease: it expires (epoch ms) unless its worker renews it, so a
  // request whose worker died is claimed again. Requests claimed before this have none: they
  // count as expired, so another worker takes them.
  `
  ALTER TABLE headway_run_requests ADD COLUMN claim_expires DOUBLE PRECISION;
  `,
];

/** The schema version this package writes. */
export const SCHEMA_VERSION: number = MIGRATIONS.length;

// One key for every headway migrator on the server: pg_advisory_xact_lock makes a second
// process wait until the first has committed, then it finds nothing left to do.
const LOCK_KEY = 0x4865_6164; // "Head"

/**
 * Creates or upgrades the tables of the Postgres stores to this package's schema version, in
 * one transaction under an advisory lock: safe to run twice and from many processes at once.
 * The stores run it on first use; call it yourself at deploy time to fail early.
 *
 * @throws {PostgresError} `POSTGRES_SCHEMA_NEWER` before writing anything when the database was
 * migrated by a newer version of this package; `POSTGRES_CONNECT_FAILED` naming the server.
 * @example
 * ```ts
 * await migrate(new Pool({ connectionString: process.env.DATABASE_URL }));
 * ```
 */
export async function migrate(pool: Pool): Promise<{ from: number; to: number }> {
  return transaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await client.query('CREATE TABLE IF NOT EXISTS headway_schema (component TEXT PRIMARY KEY, version INTEGER NOT NULL)');
    const rows = (await client.query<{ version: number }>("SELECT version FROM headway_schema WHERE component = 'postgres'")).rows;
    const from = rows[0]?.version ?? 0;
    if (from > SCHEMA_VERSION) {
      const host = describeServer(pool);
      throw new PostgresError(
        'POSTGRES_SCHEMA_NEWER',
        `postgres ${host}: the headway schema is version ${from}, newer than this package supports (${SCHEMA_VERSION}); upgrade @headway/postgres. Nothing was written.`,
        { host },
      );
    }
    for (let v = from; v < SCHEMA_VERSION; v++) await client.query(MIGRATIONS[v] ?? '');
    if (from < SCHEMA_VERSION) {
      await client.query(
        "INSERT INTO headway_schema (component, version) VALUES ('postgres', $1) ON CONFLICT (component) DO UPDATE SET version = excluded.version",
        [SCHEMA_VERSION],
      );
    }
    return { from, to: Math.max(from, SCHEMA_VERSION) };
  });
}

const migrated = new WeakMap<Pool, Promise<unknown>>();

/** Runs {@link migrate} once per pool (again after a failure), for the stores' first use. */
export function ensureMigrated(pool: Pool): Promise<unknown> {
  let done = migrated.get(pool);
  if (done === undefined) {
    done = migrate(pool);
    migrated.set(pool, done);
    done.catch(() => migrated.delete(pool));
  }
  return done;
}
