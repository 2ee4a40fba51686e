import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer } from './test-server.js';

/** A real redis-server on 127.0.0.1, in its own temp dir. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** `kill -9` the server (its AOF stays in the dir). */
  crash(): Promise<void>;
  /** Starts it again on the same port and dir (it loads its AOF). */
  restart(): Promise<void>;
  /** Stops it and removes its dir. */
  stop(): Promise<void>;
}

/**
 * Starts redis-server (`binary`) on 127.0.0.1 with a free port and a temp dir, through
 * protocol's `startTestServer` (three tries, each on a new port); `aof` turns on the
 * append-only file with an fsync before every reply.
 */
export async function startRedisServer(binary: string, options: { aof?: boolean } = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'headway-redis-'));
  const aof = options.aof === true ? ['--appendonly', 'yes', '--appendfsync', 'always'] : [];
  const server = await startTestServer({
    name: 'redis-server',
    command: (port) => [
      binary,
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--dir',
      dir,
      '--save',
      '',
      '--daemonize',
      'no',
      '--protected-mode',
      'yes',
      ...aof,
    ],
    ready: 'Ready to accept connections',
    attempts: 3,
  }).catch((error: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    get url() {
      return `redis://127.0.0.1:${server.port}`;
    },
    get port() {
      return server.port;
    },
    crash: () => server.kill('SIGKILL'),
    restart: () => server.start(),
    async stop() {
      await server.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
