import { errorMessage } from '@headway/protocol/internal';
import pg from 'pg';
import { migrate } from './migrate.js';

const USAGE = 'usage: headway-postgres migrate [--url postgres://user:password@host:port/db]   (default: $DATABASE_URL)';

/**
 * The `headway-postgres` command: `migrate` creates or upgrades the stores' tables. Returns the
 * exit code; writes one line to `out` (or `err` on failure, naming the server, never the password).
 */
export async function runCli(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const [command, ...rest] = argv;
  let url = env.DATABASE_URL;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--url') url = rest[++i];
    else {
      err(USAGE);
      return 2;
    }
  }
  if (command !== 'migrate' || url === undefined || url === '') {
    err(USAGE);
    return 2;
  }
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', () => undefined);
  try {
    const { from, to } = await migrate(pool);
    out(from === to ? `headway schema is up to date (version ${to})` : `headway schema migrated from version ${from} to ${to}`);
    return 0;
  } catch (error) {
    err(errorMessage(error));
    return 1;
  } finally {
    await pool.end();
  }
}
