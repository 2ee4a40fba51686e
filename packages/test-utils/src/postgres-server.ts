// A real PostgreSQL server for the tests: `initdb` into a temp dir, `postgres` on 127.0.0.1
// with a free port (its unix socket in the temp dir too) through protocol's `startTestServer`,
// stopped at the end.
//
// PostgreSQL refuses to run as root. When the tests run as root (a container, CI), initdb and
// postgres run as the unprivileged user `nobody` through `setpriv`, with the temp dir chowned to
// it; as any other user they run as that user. Binaries come from HEADWAY_PG_BIN (a directory
// with initdb and postgres), else PATH, else /usr/lib/postgresql/<version>/bin (Debian's
// `postgresql` package); without them the tests that need a server are skipped with
// POSTGRES_MISSING.
import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, join } from 'node:path';
import { isExecutable } from './test-part.js';
import { startTestServer } from './test-server.js';
import pg from 'pg';

/** Why the Postgres tests are skipped when no server is found. */
export const POSTGRES_MISSING =
  'PostgreSQL binaries (initdb, postgres) not found: set HEADWAY_PG_BIN to their directory, or install them (Debian: apt-get install postgresql). The tests that need a real server are skipped.';

/** The superuser's password in the test cluster (host connections need it; a wrong one is refused). */
export const TEST_PASSWORD = 'headway-test-secret';

function hasServer(dir: string): boolean {
  return isExecutable(join(dir, 'initdb')) && isExecutable(join(dir, 'postgres'));
}

/** The directory holding initdb and postgres: HEADWAY_PG_BIN, else PATH, else the newest /usr/lib/postgresql/N/bin. */
export function findPostgresBin(): string | undefined {
  const fromEnv = process.env.HEADWAY_PG_BIN;
  if (fromEnv !== undefined && fromEnv !== '') return hasServer(fromEnv) ? fromEnv : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir !== '' && hasServer(dir)) return dir;
  let versions: string[] = [];
  try {
    versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  } catch {
    // No Debian install.
  }
  return versions.map((v) => join('/usr/lib/postgresql', v, 'bin')).find(hasServer);
}

/** A running test server. */
export interface PostgresServer {
  /** `postgres://postgres:<password>@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly port: number;
  /** A URL of a fresh, empty database on this server. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (fast shutdown: sessions are cut) and starts it again on the same port and data. */
  restart(): Promise<void>;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

// Run as `nobody` when we are root: PostgreSQL will not run as root.
function asUser(): { prefix: string[]; uid: number | undefined } {
  if (userInfo().uid !== 0) return { prefix: [], uid: undefined };
  return { prefix: ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--'], uid: 65534 };
}

/**
 * Creates a cluster with `initdb` in a temp dir and starts `postgres` on 127.0.0.1 and a free
 * port. The server runs under a small shell that stops it when this process's end of a pipe
 * closes, so a test process that dies (even by SIGKILL) leaves no server behind.
 */
export async function startPostgres(bin: string, options: { fsync?: boolean } = {}): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), 'headway-pg-'));
  const data = join(dir, 'data');
  const user = asUser();
  if (user.uid !== undefined) chownSync(dir, user.uid, 65534);
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${TEST_PASSWORD}\n`);
  if (user.uid !== undefined) chownSync(pwfile, user.uid, 65534);
  const init = spawnSync(
    user.prefix[0] ?? join(bin, 'initdb'),
    [
      ...user.prefix.slice(1),
      ...(user.prefix.length > 0 ? [join(bin, 'initdb')] : []),
      '-D',
      data,
      '-U',
      'postgres',
      '--auth-host=scram-sha-256',
      '--auth-local=trust',
      `--pwfile=${pwfile}`,
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  );
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed:\n${init.stdout}\n${init.stderr}`);
  }
  // fsync off by default: the tests kill clients, not the machine; a bench turns it on to compare with SQLite's synchronous=FULL.
  const server = await startTestServer({
    name: 'postgres',
    command: (port) => [
      ...user.prefix,
      join(bin, 'postgres'),
      '-D',
      data,
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      `fsync=${options.fsync === true ? 'on' : 'off'}`,
      '-c',
      'max_connections=200',
      '-c',
      'shared_buffers=32MB',
    ],
    ready: 'ready to accept connections',
    cwd: dir,
    orphanSignal: 'SIGINT',
    startTimeoutMs: 30_000,
  });
  const port = server.port;
  const url = `postgres://postgres:${TEST_PASSWORD}@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    async createDatabase(name) {
      const client = new pg.Client(url);
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      } finally {
        await client.end();
      }
      return url.replace(/\/postgres$/, `/${name}`);
    },
    async restart() {
      await server.kill('SIGINT');
      await server.start();
    },
    async stop() {
      await server.kill('SIGINT');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
