import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

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

// Every server started by this process, so none outlives it even if a test forgets one.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts redis-server (`binary`) on 127.0.0.1 with a free port and a temp dir; `aof` turns
 * on the append-only file with an fsync before every reply. The server runs under a tiny
 * shell that kills it when this process's end of a pipe closes, so even a test process
 * killed with -9 leaves no server behind.
 */
export async function startRedisServer(binary: string, options: { aof?: boolean } = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'headway-redis-'));
  let port = await freePort();
  let child: ChildProcess | undefined;
  let pid: number | undefined;

  async function launch(): Promise<void> {
    const args = [
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
    ];
    if (options.aof === true) args.push('--appendonly', 'yes', '--appendfsync', 'always');
    const proc = spawn(
      'sh',
      [
        '-c',
        'exec 3<&0; "$@" & pid=$!; echo "pid $pid"; { cat <&3 >/dev/null; kill -9 $pid 2>/dev/null; } & wait $pid',
        'sh',
        binary,
        ...args,
      ],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    child = proc;
    running.add(proc);
    proc.on('exit', () => running.delete(proc));
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`redis-server did not start within 15 s:\n${output}`));
      }, 15_000);
      proc.stdout.setEncoding('utf8');
      proc.stdout.on('data', (chunk: string) => {
        output += chunk;
        const match = /^pid (\d+)$/m.exec(output);
        if (match?.[1] !== undefined) pid = Number(match[1]);
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.on('exit', () => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited at start:\n${output}`));
      });
    });
    proc.stdout.resume();
  }

  async function kill(signal: NodeJS.Signals): Promise<void> {
    const proc = child;
    if (proc?.exitCode !== null) return;
    const exited = new Promise<void>((resolve) =>
      proc.once('exit', () => {
        resolve();
      }),
    );
    if (pid !== undefined) {
      try {
        process.kill(pid, signal);
      } catch {
        // Already gone.
      }
    }
    proc.stdin?.end();
    await exited;
    child = undefined;
  }

  for (let attempt = 1; ; attempt++) {
    try {
      await launch();
      break;
    } catch (error) {
      await kill('SIGKILL');
      if (attempt === 3) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
      port = await freePort();
    }
  }
  return {
    get url() {
      return `redis://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    crash: () => kill('SIGKILL'),
    restart: launch,
    async stop() {
      await kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
