import { errorMessage } from '@headway/protocol/internal';
import { setTimeout as delay } from 'node:timers/promises';
import type { Pool, PoolClient } from 'pg';
import { PostgresError } from './postgres-error.js';

/** A node-postgres `Pool`, as the stores take it. */
export type PostgresPool = Pool;

// SQLSTATE classes and socket errors that mean "no usable connection", as opposed to an
// error of the statement itself.
const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ETIMEDOUT', 'ECONNRESET', 'EPIPE']);

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True when `error` says the connection (not the statement) failed: a statement on a fresh connection may succeed. */
function isConnectionError(error: unknown): boolean {
  const code = sqlState(error);
  if (code !== undefined && (CONNECT_CODES.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03'))
    return true;
  const message = errorMessage(error);
  return /Connection terminated|connection timeout|Client has encountered a connection error|server closed the connection/i.test(message);
}

function isLoginError(error: unknown): boolean {
  const code = sqlState(error);
  // 28xxx: invalid authorization; 3D000: no such database.
  return code !== undefined && (code.startsWith('28') || code === '3D000');
}

/** The pool's server as `host:port/database`, never with user or password. */
export function describeServer(pool: Pool): string {
  const o = (pool as unknown as { options?: Record<string, unknown> }).options ?? {};
  let host = typeof o.host === 'string' ? o.host : undefined;
  let port = typeof o.port === 'number' || typeof o.port === 'string' ? String(o.port) : undefined;
  let database = typeof o.database === 'string' ? o.database : undefined;
  if (typeof o.connectionString === 'string') {
    try {
      const url = new URL(o.connectionString);
      host ??= decodeURIComponent(url.hostname) || undefined;
      port ??= url.port || undefined;
      database ??= decodeURIComponent(url.pathname.slice(1)) || undefined;
    } catch {
      // Not a URL (a key=value string): name what the options say.
    }
  }
  return `${host ?? process.env.PGHOST ?? 'localhost'}:${port ?? process.env.PGPORT ?? '5432'}/${database ?? process.env.PGDATABASE ?? ''}`;
}

// Messages from the server or the socket can quote the connection string; keep passwords out.
function scrub(message: string): string {
  return message.replace(/(postgres(?:ql)?:\/\/[^:/@\s]*:)[^@\s]*@/gi, '$1***@').replace(/password=\S+/gi, 'password=***');
}

/** Turns a failure to get a connection into `POSTGRES_CONNECT_FAILED` naming the server. */
function connectFailed(pool: Pool, error: unknown): PostgresError {
  const host = describeServer(pool);
  const why = isLoginError(error) ? 'login refused' : 'cannot connect';
  return new PostgresError('POSTGRES_CONNECT_FAILED', `postgres ${host}: ${why}: ${scrub(errorMessage(error))}`, {
    cause: safeCause(error),
    host,
  });
}

/**
 * A pooled connection. A server that refuses connections for a moment (restarting, failing
 * over) is tried again after 100 ms, 400 ms and 1.6 s; a refused login is not retried.
 */
async function connect(pool: Pool): Promise<PoolClient> {
  for (let attempt = 1; ; attempt++) {
    try {
      return guardClient(await pool.connect());
    } catch (error) {
      if (isLoginError(error) || !isConnectionError(error) || attempt >= ATTEMPTS + 1) throw connectFailed(pool, error);
      await delay(100 * 4 ** (attempt - 1));
    }
  }
}

/** How many times a statement that never reached a commit is tried on a fresh connection. */
const ATTEMPTS = 3;

/**
 * Runs `fn` in one transaction on a pooled connection and commits it. When the connection
 * drops before COMMIT was sent, nothing was written (the server rolls the transaction back),
 * so the whole transaction is tried again on a fresh connection. When it drops while COMMIT
 * is in flight, the outcome is unknown: `POSTGRES_CONNECTION_LOST`, never retried, never
 * reported as committed.
 */
export async function transaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>, mode = 'BEGIN'): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await connect(pool);
    let committing = false;
    try {
      await client.query(mode);
      const value = await fn(client);
      committing = true;
      await client.query('COMMIT');
      client.release();
      return value;
    } catch (error) {
      const broken = isConnectionError(error);
      if (broken) client.release(true);
      else {
        await client.query('ROLLBACK').then(
          () => {
            client.release();
          },
          () => {
            client.release(true);
          },
        );
      }
      if (!broken) throw error;
      const host = describeServer(pool);
      if (committing) {
        throw new PostgresError(
          'POSTGRES_CONNECTION_LOST',
          `postgres ${host}: the connection dropped during COMMIT; the write may or may not have been stored`,
          {
            cause: safeCause(error),
            host,
          },
        );
      }
      if (attempt >= ATTEMPTS) {
        throw new PostgresError(
          'POSTGRES_CONNECTION_LOST',
          `postgres ${host}: the connection dropped ${ATTEMPTS} times; nothing was written: ${scrub(errorMessage(error))}`,
          {
            cause: safeCause(error),
            host,
          },
        );
      }
    }
  }
}

/** One read-only statement, tried again on a fresh connection if the connection drops. */
export async function query<R>(pool: Pool, text: string, values: unknown[] = []): Promise<R[]> {
  return transaction(pool, async (client) => (await client.query(text, values)).rows as R[], 'BEGIN READ ONLY');
}

/** One writing statement in its own transaction (retried only when the connection dropped before COMMIT). */
export async function execute<R>(pool: Pool, text: string, values: unknown[] = []): Promise<R[]> {
  return transaction(pool, async (client) => (await client.query(text, values)).rows as R[]);
}

const guarded = new WeakSet<Pool>();
const guardedClients = new WeakSet<PoolClient>();

/**
 * A checked-out connection that the server drops between two statements (a restart while the
 * caller awaits something else) is emitted as the client's `error` event, which throws when
 * nobody listens; the pool listens only to idle clients. The next statement on the client fails
 * with the connection error, which {@link transaction} handles, so the event itself is ignored.
 */
function guardClient(client: PoolClient): PoolClient {
  if (!guardedClients.has(client)) {
    guardedClients.add(client);
    client.on('error', () => undefined);
  }
  return client;
}

/**
 * Keeps an idle connection that the server drops (a restart, a failover) from crashing the
 * process: node-postgres emits it as the pool's `error` event, which throws when nobody
 * listens. The pool replaces the connection; the next statement reconnects.
 */
export function guardPool(pool: Pool): void {
  if (guarded.has(pool)) return;
  guarded.add(pool);
  pool.on('error', () => undefined);
}

// node-postgres errors can carry the client, whose connection parameters hold the password:
// what a PostgresError keeps as its cause is only the code and the scrubbed message.
function safeCause(error: unknown): Error {
  const cause = new Error(scrub(errorMessage(error)));
  const code = sqlState(error);
  if (code !== undefined) Object.assign(cause, { code });
  return cause;
}
