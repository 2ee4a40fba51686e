// One PostgreSQL server per test file, started at import (top-level await) so suites that need
// its URL while they are being defined (the crash suite) have it, and stopped after the file.
import pg from 'pg';
import { reopenableStore, type ReopenableStore } from '@headway/runtime/testing/conformance';
import { afterAll, it } from 'vitest';
import { POSTGRES_MISSING, findPostgresBin, startPostgres, type PostgresServer } from '@headway/test-utils/servers';

let count = 0;

/** The file's server, or `undefined` (with a visible skipped test saying how to get one). */
export async function usePostgres(): Promise<PostgresServer | undefined> {
  const bin = findPostgresBin();
  if (bin === undefined) {
    it.skip(POSTGRES_MISSING, () => undefined);
    return undefined;
  }
  const server = await startPostgres(bin);
  afterAll(async () => {
    await server.stop();
  });
  return server;
}

/** A pool on a fresh, empty database of `server`. */
export async function freshPool(server: PostgresServer, options: pg.PoolConfig = {}): Promise<{ pool: pg.Pool; url: string }> {
  count += 1;
  const url = await server.createDatabase(`t_${process.pid}_${count}`);
  return { pool: new pg.Pool({ connectionString: url, ...options }), url };
}

/**
 * A conformance-suite handle for a store made by `open` on a fresh database of `server`; `reopen`
 * ends the store's pool and opens it again on a new pool.
 */
export async function freshStore<S extends { pool: pg.Pool }>(
  server: PostgresServer,
  open: (pool: pg.Pool) => S,
): Promise<ReopenableStore<S>> {
  const { pool, url } = await freshPool(server);
  return reopenableStore(
    (first) => open(first ? pool : new pg.Pool({ connectionString: url })),
    (store) => store.pool.end(),
  );
}
