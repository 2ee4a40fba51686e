// A real server program for the tests (postgres, redis-server, …): started on 127.0.0.1 and a
// free port, watched so that it never outlives the test process, stopped with the signal the
// test asks for. One launcher for every package whose tests need a server of their own.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 at the time of asking. */
export async function freePort(): Promise<number> {
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

/** Options of {@link startTestServer}. */
export interface TestServerOptions {
  /** The program's name in errors (`postgres`, `redis-server`). */
  name: string;
  /** The command line (program first) that runs the server in the foreground on `port`. */
  command: (port: number) => readonly string[];
  /** Text of the server's output (stdout and stderr) that says it is ready. */
  ready: string;
  /** Working directory of the server. */
  cwd?: string;
  /** Signal sent to the server when the test process goes away without stopping it (default `SIGKILL`). */
  orphanSignal?: 'SIGINT' | 'SIGTERM' | 'SIGKILL';
  /** How long a start may take (default 15 s). */
  startTimeoutMs?: number;
  /** Starts tried, each on a new free port, before giving up (default 1). */
  attempts?: number;
}

/** A server started by {@link startTestServer}. */
export interface TestServer {
  /** The port it listens on (a later start keeps it). */
  readonly port: number;
  /** Starts it again on the same port, after {@link TestServer.kill}. */
  start(): Promise<void>;
  /** Sends `signal` to the server and resolves when it has exited; nothing when it is not running. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

const SIGNAL_NUMBERS = { SIGINT: 2, SIGTERM: 15, SIGKILL: 9 } as const;

// Every server started by this process, so none outlives it even if a test forgets one.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts a server program on 127.0.0.1 and a free port and waits until it says it is ready.
 * It runs under a small shell that signals it when this process's end of a pipe closes, so a
 * test process that dies (even by SIGKILL) leaves no server behind.
 *
 * @example
 * ```ts
 * const redis = await startTestServer({
 *   name: 'redis-server',
 *   command: (port) => ['redis-server', '--bind', '127.0.0.1', '--port', String(port), '--save', ''],
 *   ready: 'Ready to accept connections',
 * });
 * await redis.kill('SIGTERM');
 * ```
 */
export async function startTestServer(options: TestServerOptions): Promise<TestServer> {
  const timeoutMs = options.startTimeoutMs ?? 15_000;
  const orphan = SIGNAL_NUMBERS[options.orphanSignal ?? 'SIGKILL'];
  let port = await freePort();
  let child: ChildProcess | undefined;
  let pid: number | undefined;

  async function launch(): Promise<void> {
    const proc = spawn(
      'sh',
      [
        '-c',
        `exec 3<&0; "$@" 2>&1 & pid=$!; echo "pid $pid"; { cat <&3 >/dev/null; kill -${orphan} $pid 2>/dev/null; } & wait $pid`,
        'sh',
        ...options.command(port),
      ],
      { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    child = proc;
    running.add(proc);
    proc.on('exit', () => running.delete(proc));
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`${options.name} did not start within ${timeoutMs / 1000} s:\n${output}`));
      }, timeoutMs);
      proc.stdout.setEncoding('utf8');
      proc.stdout.on('data', (chunk: string) => {
        output += chunk;
        const match = /^pid (\d+)$/m.exec(output);
        if (match?.[1] !== undefined) pid = Number(match[1]);
        if (output.includes(options.ready)) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.on('exit', () => {
        clearTimeout(timer);
        reject(new Error(`${options.name} exited at start:\n${output}`));
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

  const attempts = options.attempts ?? 1;
  for (let attempt = 1; ; attempt++) {
    try {
      await launch();
      break;
    } catch (error) {
      await kill('SIGKILL');
      if (attempt >= attempts) throw error;
      port = await freePort();
    }
  }
  return {
    get port() {
      return port;
    },
    start: launch,
    kill,
  };
}
