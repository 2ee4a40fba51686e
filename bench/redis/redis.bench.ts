// @headway/redis: SSE fan-out through Redis Streams (2 web processes) vs the in-memory
// replay log of @headway/sse (1 process), in the same run, plus latency and idle-client memory.
// Processes: this driver (the "worker": a hub with the sink), web processes (this file with
// --web), clients (this file with --clients); a redis-server started here on 127.0.0.1 with
// a free port and a temp dir (HEADWAY_REDIS_SERVER, else redis-server on PATH).
// Run: pnpm -F @headway/bench bench:redis   (one phase: ... bench:redis --only=throughput|latency|memory)
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProgressHub, systemClock, type ProgressHub } from '@headway/protocol';
import { connectRedis, createRedisReplayLog, createRedisSink, type RedisSink } from '@headway/redis';
import { createReplayLog, createSseHandler } from '@headway/sse';
import { findTestPart } from '@headway/test-utils';
import { median } from '../lib/compare.js';
import { SseClients, clock, emitPaced, tick, nextMessage, usedMemory } from '../lib/sse-clients.js';
import { verdict } from '../lib/verdict.js';

const PHASE_TIMEOUT_MS = 180_000;
const PAYLOAD = 'token '.repeat(30); // ~180 B of text: a streamed text.delta

// ---------------------------------------------------------------- web process ------

interface ToWeb {
  cmd: 'memory';
}
type FromWeb = { kind: 'listening'; port: number } | { kind: 'memory'; bytes: number; readers: number };

async function runWeb(redisUrl: string): Promise<void> {
  const client = await connectRedis(redisUrl);
  const log = createRedisReplayLog(client, { reapIntervalMs: 0 });
  const server = createServer(createSseHandler({ source: log, heartbeatMs: 0 }));
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ kind: 'listening', port: (server.address() as AddressInfo).port } satisfies FromWeb);
  });
  // The only message is a request for a memory reading.
  process.on('message', (_m: ToWeb) => {
    process.send?.({ kind: 'memory', bytes: usedMemory(), readers: log.stats().readers } satisfies FromWeb);
  });
}

// ---------------------------------------------------------------- driver -----------

async function startWeb(redisUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(import.meta.filename, ['--web', redisUrl], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { port } = await nextMessage<FromWeb, 'listening'>(child, 'listening', PHASE_TIMEOUT_MS);
  return { child, url: `http://127.0.0.1:${port}/runs/` };
}

function findRedisServer(): string {
  const found = findTestPart('HEADWAY_REDIS_SERVER', { warn: false });
  if (found === undefined)
    throw new Error('redis-server not found: set HEADWAY_REDIS_SERVER or install it (Debian: apt-get install redis-server)');
  return found;
}

async function startRedis(): Promise<{ url: string; stop(): void }> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) =>
    probe.close(() => {
      resolve();
    }),
  );
  const dir = mkdtempSync(join(tmpdir(), 'headway-redis-bench-'));
  const child = spawn(
    findRedisServer(),
    ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.on('exit', () => {
      reject(new Error(`redis-server exited:\n${out}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop() {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Source {
  /** URLs clients connect to, for run `runId`. */
  urls: string[];
  hub: ProgressHub;
  sink?: RedisSink;
  close(): Promise<void>;
}

let runCounter = 0;

async function inMemory(): Promise<Source> {
  const runId = `mem-${++runCounter}`;
  const hub = createProgressHub({ runId, clock: { ...systemClock, now: clock } });
  const log = createReplayLog();
  log.attach(hub);
  const server: Server = createServer(createSseHandler({ source: log, heartbeatMs: 0 }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hub.emit({ type: 'run.started', agentName: 'bench' });
  return {
    urls: [`http://127.0.0.1:${(server.address() as AddressInfo).port}/runs/${runId}`],
    hub,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

async function throughRedis(client: Awaited<ReturnType<typeof connectRedis>>, webs: { url: string }[]): Promise<Source> {
  const runId = `redis-${++runCounter}`;
  const hub = createProgressHub({ runId, clock: { ...systemClock, now: clock } });
  const sink = createRedisSink(client, { maxQueue: 100_000 });
  hub.add(sink);
  hub.emit({ type: 'run.started', agentName: 'bench' });
  await sink.flush();
  return { urls: webs.map((w) => `${w.url}${runId}`), hub, sink, close: () => sink.close().then(() => undefined) };
}

/** Emits `events` as fast as the slowest client takes them (at most `window` in flight); deliveries/s. */
async function throughput(clients: SseClients, source: Source, n: number, events: number, window: number): Promise<number> {
  const expect = events + 1;
  const { done } = await clients.connect({ urls: source.urls, clients: n, expect, latency: false });
  const t0 = performance.now();
  let seq = source.hub.lastSeq;
  while (seq < expect) {
    const room = Math.min(window - (seq - clients.minSeq), expect - seq);
    for (let i = 0; i < room; i++) seq = source.hub.emit({ type: 'text.delta', text: PAYLOAD }).seq;
    await tick();
  }
  const result = await done;
  const perSec = result.deliveries / ((performance.now() - t0) / 1000);
  source.hub.emit({ type: 'run.finished', durationMs: 0, outcome: 'completed' });
  await clients.close();
  await source.close();
  return perSec;
}

async function latency(clients: SseClients, source: Source, n: number, perSecond: number, seconds: number) {
  const total = perSecond * seconds;
  const { done } = await clients.connect({ urls: source.urls, clients: n, expect: total + 1, latency: true });
  let sent = 0;
  await emitPaced(
    () => {
      source.hub.emit({ type: 'text.delta', text: PAYLOAD });
      return (sent += 1);
    },
    perSecond,
    total,
  );
  const result = await done;
  source.hub.emit({ type: 'run.finished', durationMs: 0, outcome: 'completed' });
  await clients.close();
  await source.close();
  return result.latency;
}

const fmt = (x: number): string => Math.round(x).toLocaleString('en-US');

async function main(): Promise<void> {
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
  const started = performance.now();
  const redis = await startRedis();
  const clients = new SseClients(PHASE_TIMEOUT_MS);
  const client = await connectRedis(redis.url);
  const webs = await Promise.all([startWeb(redis.url), startWeb(redis.url)]);
  try {
    if (only === undefined || only === 'throughput') {
      console.log(
        'Deliveries/s to 1,000 SSE clients: @headway/redis with 2 web processes vs the in-memory replay log in 1 process (loopback, clients in another process)',
      );
      console.log('| round | redis (2 web processes) | in-memory (1 process) | × in-memory |');
      console.log('|---:|---:|---:|---:|');
      const ratios: number[] = [];
      for (let round = 1; round <= 3; round++) {
        const order = round % 2 === 1 ? ['redis', 'memory'] : ['memory', 'redis'];
        const got: Record<string, number> = {};
        for (const which of order) {
          const source = which === 'redis' ? await throughRedis(client, webs) : await inMemory();
          got[which] = await throughput(clients, source, 1000, 300, 100);
        }
        const ratio = (got.redis ?? NaN) / (got.memory ?? NaN);
        ratios.push(ratio);
        console.log(`| ${round} | ${fmt(got.redis ?? NaN)} | ${fmt(got.memory ?? NaN)} | ${ratio.toFixed(2)} |`);
      }
      console.log(`median × in-memory: ${median(ratios).toFixed(2)}`);
      verdict('redis: deliveries with 2 web processes vs the in-memory log', median(ratios), '>=', 0.5);
    }
    if (only === undefined || only === 'latency') {
      console.log('\nEmit-to-receive latency through Redis, 100 clients (50 per web process) x 1,000 events/s for 3 s');
      const l = await latency(clients, await throughRedis(client, webs), 100, 1000, 3);
      if (l) {
        console.log(`p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, max ${l.max.toFixed(1)} ms, samples ${fmt(l.samples)}`);
        verdict('redis: emit-to-receive p99 latency', l.p99, '<=', 100, ' ms');
      }
    }
    if (only === undefined || only === 'memory') {
      const web = webs[0];
      const source = await throughRedis(client, [web]);
      // One client first, so the run and the blocking read exist before the baseline.
      await clients.connect({ urls: source.urls, clients: 1, expect: -1, latency: false });
      web.child.send({ cmd: 'memory' } satisfies ToWeb);
      const before = await nextMessage<FromWeb, 'memory'>(web.child, 'memory', PHASE_TIMEOUT_MS);
      await clients.close();
      const n = 1000;
      await clients.connect({ urls: source.urls, clients: n, expect: -1, latency: false });
      web.child.send({ cmd: 'memory' } satisfies ToWeb);
      const after = await nextMessage<FromWeb, 'memory'>(web.child, 'memory', PHASE_TIMEOUT_MS);
      const perClient = (after.bytes - before.bytes) / (after.readers - before.readers);
      console.log(
        `\nMemory per idle subscribed client in a web process (heap + external after GC, ${fmt(after.readers - before.readers)} clients): ${(perClient / 1024).toFixed(1)} KiB`,
      );
      verdict('redis: memory per idle subscribed client', perClient / 1024, '<=', 20, ' KiB');
      await clients.close();
      await source.close();
    }
    console.log(`\n(total ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  } finally {
    for (const w of webs) w.child.kill();
    clients.child.kill();
    client.destroy();
    redis.stop();
  }
}

if (process.argv.includes('--web')) await runWeb(process.argv[process.argv.indexOf('--web') + 1] ?? '');
else await main();
