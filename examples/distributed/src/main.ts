// N worker processes running agents and M web processes serving the dashboard, on one Redis.
//
//   npm start --prefix examples/distributed                          2 workers, 2 web processes, a local redis-server
//   npm start --prefix examples/distributed -- --workers 3 --web 2 --redis redis://127.0.0.1:6379
//
// Without --redis it starts redis-server (HEADWAY_REDIS_SERVER, else on PATH) on 127.0.0.1
// with a free port. Open any of the printed web URLs: each shows every run.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connectRedis } from '@headway/redis';
import { startWeb } from './web.js';
import { runAgent } from './worker.js';

const { values } = parseArgs({
  // pnpm hands its `--` separator on to the script (`pnpm -F … start -- --flag`): it is not an argument.
  args: process.argv.slice(process.argv[2] === '--' ? 3 : 2),
  options: {
    role: { type: 'string' },
    redis: { type: 'string' },
    workers: { type: 'string', default: '2' },
    web: { type: 'string', default: '2' },
    port: { type: 'string', default: '0' },
  },
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) =>
    probe.close(() => {
      resolve();
    }),
  );
  return typeof address === 'object' && address !== null ? address.port : 0;
}

async function localRedis(): Promise<{ url: string; stop(): void }> {
  const binary = process.env.HEADWAY_REDIS_SERVER ?? 'redis-server';
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'headway-distributed-'));
  const child = spawn(binary, ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', '--appendonly', 'yes'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.on('error', () => {
      reject(new Error(`could not start ${binary}: install redis-server (Debian: apt-get install redis-server) or pass --redis URL`));
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) resolve();
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop() {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const count = (text: string | undefined, name: string): number => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 32) throw new Error(`--${name}: expected a whole number from 0 to 32`);
  return n;
};

if (values.role === 'worker') {
  const client = await connectRedis(values.redis ?? '');
  for (;;) {
    const { runId, result } = await runAgent(client, { workerId: `worker-${process.pid}` });
    console.log(`worker ${process.pid}: run ${runId} ${result.status}`);
  }
} else if (values.role === 'web') {
  const client = await connectRedis(values.redis ?? '');
  const web = await startWeb(client, { port: Number(values.port) });
  process.send?.({ url: web.url });
} else {
  const workers = count(values.workers, 'workers');
  const webs = count(values.web, 'web');
  const redis = values.redis === undefined ? await localRedis() : { url: values.redis, stop: () => undefined };
  await connectRedis(redis.url).then((c) => {
    c.destroy();
  }); // fail fast, naming the URL, if it is unreachable
  const children: ChildProcess[] = [];
  const stop = (): void => {
    for (const child of children) child.kill();
    redis.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  for (let i = 0; i < webs; i++) {
    const child = fork(import.meta.filename, ['--role', 'web', '--redis', redis.url]);
    children.push(child);
    child.on('message', (m: { url: string }) => {
      console.log(`web process ${child.pid ?? '?'}: ${m.url}`);
    });
  }
  for (let i = 0; i < workers; i++) children.push(fork(import.meta.filename, ['--role', 'worker', '--redis', redis.url]));
  console.log(`${workers} worker(s), ${webs} web process(es) on ${redis.url}; Ctrl-C stops them all`);
}
