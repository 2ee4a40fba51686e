// @headway/redis: SSE fan-out through Redis Streams (2 web processes) vs the in-memory
// replay log of @headway/sse (1 process), in the same run, plus latency and idle-client memory.
// Processes: this driver (the "worker": a hub with the sink), web processes (this file with
// --web), clients (this file with --clients); a redis-server started here on 127.0.0.1 with
// a free port and a temp dir (HEADWAY_REDIS_SERVER, else redis-server on PATH).
// Run: pnpm -F @headway/bench bench:redis   (one phase: ... bench:redis --only=throughput|latency|memory)
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createProgressHub, type ProgressHub } from '@headway/protocol';
import { connectRedis, createRedisReplayLog, redisSink, type RedisSink } from '@headway/redis';
import { createReplayLog, createSseHandler } from '@headway/sse';

const clock = (): number => performance.timeOrigin + performance.now();
const PHASE_TIMEOUT_MS = 180_000;
const PAYLOAD = 'token '.repeat(30); // ~180 B of text: a streamed text.delta

const gc = ((): (() => void) => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();
function usedMemory(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

// ---------------------------------------------------------------- client process ---

type ToClients = { cmd: 'connect'; urls: string[]; clients: number; expect: number; latency: boolean } | { cmd: 'close' };
type FromClients =
  | { kind: 'connected' }
  | { kind: 'progress'; minSeq: number }
  | { kind: 'done'; deliveries: number; latency?: { p50: number; p99: number; max: number; samples: number } }
  | { kind: 'closed' };

function runClients(): void {
  let sockets: { destroy(): void }[] = [];
  const send = (m: FromClients): void => {
    process.send?.(m);
  };
  process.on('message', (raw: ToClients) => {
    if (raw.cmd === 'close') {
      for (const s of sockets) s.destroy();
      sockets = [];
      send({ kind: 'closed' });
      return;
    }
    const { urls, expect, latency, clients: n } = raw;
    const last = new Int32Array(n);
    const lat: number[] = [];
    let connected = 0;
    let finished = 0;
    let deliveries = 0;
    const timer = setInterval(() => {
      let min = Infinity;
      for (const v of last) min = Math.min(min, v);
      send({ kind: 'progress', minSeq: min });
    }, 2);
    const finish = (): void => {
      clearInterval(timer);
      let summary: { p50: number; p99: number; max: number; samples: number } | undefined;
      if (latency) {
        lat.sort((a, b) => a - b);
        const at = (q: number): number => lat[Math.min(lat.length - 1, Math.floor(q * lat.length))] ?? NaN;
        summary = { p50: at(0.5), p99: at(0.99), max: lat.at(-1) ?? NaN, samples: lat.length };
      }
      send({ kind: 'done', deliveries, ...(summary ? { latency: summary } : {}) });
    };
    for (let i = 0; i < n; i++) {
      const req = request(urls[i % urls.length] ?? '', { agent: false }, (res) => {
        connected += 1;
        if (connected === n) send({ kind: 'connected' });
        res.setEncoding('utf8');
        let carry = '';
        res.on('data', (chunk: string) => {
          const text = carry + chunk;
          const cut = text.lastIndexOf('\n\n');
          if (cut === -1) {
            carry = text;
            return;
          }
          carry = text.slice(cut + 2);
          const frames = text.slice(0, cut);
          const now = latency ? clock() : 0;
          for (let at = frames.indexOf('"ts":'); at !== -1; at = frames.indexOf('"ts":', at + 5)) {
            deliveries += 1;
            if (latency) lat.push(now - Number.parseFloat(frames.slice(at + 5, at + 30)));
          }
          const idAt = frames.lastIndexOf('id: ');
          if (idAt !== -1) last[i] = Number.parseInt(frames.slice(idAt + 4, idAt + 24), 10);
          if (last[i] === expect) {
            finished += 1;
            if (finished === n) finish();
          }
        });
        res.on('error', () => undefined);
      });
      req.on('error', () => undefined);
      req.end();
      sockets.push(req);
    }
  });
}

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

function next<T extends { kind: string }, K extends T['kind']>(child: ChildProcess, kind: K): Promise<Extract<T, { kind: K }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`no ${kind} within ${PHASE_TIMEOUT_MS} ms`));
    }, PHASE_TIMEOUT_MS);
    timer.unref();
    const listener = (m: T): void => {
      if (m.kind !== kind) return;
      clearTimeout(timer);
      child.off('message', listener);
      resolve(m as Extract<T, { kind: K }>);
    };
    child.on('message', listener);
  });
}

class Clients {
  readonly child: ChildProcess = fork(import.meta.filename, ['--clients'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  minSeq = 0;
  constructor() {
    this.child.on('message', (m: FromClients) => {
      if (m.kind === 'progress') this.minSeq = m.minSeq;
    });
  }
  async connect(m: Omit<Extract<ToClients, { cmd: 'connect' }>, 'cmd'>): Promise<{ done: Promise<Extract<FromClients, { kind: 'done' }>> }> {
    this.minSeq = 0;
    const connected = next<FromClients, 'connected'>(this.child, 'connected');
    const done = next<FromClients, 'done'>(this.child, 'done');
    // Idle clients (the memory phase) never finish; their report is not awaited.
    done.catch(() => undefined);
    this.child.send({ cmd: 'connect', ...m });
    await connected;
    return { done };
  }
  async close(): Promise<void> {
    const closed = next<FromClients, 'closed'>(this.child, 'closed');
    this.child.send({ cmd: 'close' });
    await closed;
  }
}

async function startWeb(redisUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(import.meta.filename, ['--web', redisUrl], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { port } = await next<FromWeb, 'listening'>(child, 'listening');
  return { child, url: `http://127.0.0.1:${port}/runs/` };
}

function findRedisServer(): string {
  const fromEnv = process.env.HEADWAY_REDIS_SERVER;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    try {
      accessSync(join(dir, 'redis-server'), constants.X_OK);
      return join(dir, 'redis-server');
    } catch {
      // Not here.
    }
  }
  throw new Error('redis-server not found: set HEADWAY_REDIS_SERVER or install it (Debian: apt-get install redis-server)');
}

async function startRedis(): Promise<{ url: string; stop(): void }> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => {
    resolve();
  }));
  const dir = mkdtempSync(join(tmpdir(), 'headway-redis-bench-'));
  const child = spawn(findRedisServer(), ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
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
  const hub = createProgressHub({ runId, now: clock });
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
  const hub = createProgressHub({ runId, now: clock });
  const sink = redisSink(client, { maxQueue: 100_000 });
  hub.add(sink);
  hub.emit({ type: 'run.started', agentName: 'bench' });
  await sink.flush();
  return { urls: webs.map((w) => `${w.url}${runId}`), hub, sink, close: () => sink.close().then(() => undefined) };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Emits `events` as fast as the slowest client takes them (at most `window` in flight); deliveries/s. */
async function throughput(clients: Clients, source: Source, n: number, events: number, window: number): Promise<number> {
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

async function latency(clients: Clients, source: Source, n: number, perSecond: number, seconds: number) {
  const total = perSecond * seconds;
  const { done } = await clients.connect({ urls: source.urls, clients: n, expect: total + 1, latency: true });
  let sent = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      for (let i = 0; i < perSecond / 100 && sent < total; i++) {
        source.hub.emit({ type: 'text.delta', text: PAYLOAD });
        sent += 1;
      }
      if (sent >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 10);
  });
  const result = await done;
  source.hub.emit({ type: 'run.finished', durationMs: 0, outcome: 'completed' });
  await clients.close();
  await source.close();
  return result.latency;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
};
const fmt = (x: number): string => Math.round(x).toLocaleString('en-US');

async function main(): Promise<void> {
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
  const started = performance.now();
  const redis = await startRedis();
  const clients = new Clients();
  const client = await connectRedis(redis.url);
  const webs = await Promise.all([startWeb(redis.url), startWeb(redis.url)]);
  try {
    if (only === undefined || only === 'throughput') {
      console.log('Deliveries/s to 1,000 SSE clients: @headway/redis with 2 web processes vs the in-memory replay log in 1 process (loopback, clients in another process)');
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
      console.log(`median × in-memory: ${median(ratios).toFixed(2)} (target >= 0.5)`);
    }
    if (only === undefined || only === 'latency') {
      console.log('\nEmit-to-receive latency through Redis, 100 clients (50 per web process) x 1,000 events/s for 3 s');
      const l = await latency(clients, await throughRedis(client, webs), 100, 1000, 3);
      if (l) console.log(`p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms (target < 100), max ${l.max.toFixed(1)} ms, samples ${fmt(l.samples)}`);
    }
    if (only === undefined || only === 'memory') {
      const web = webs[0];
      const source = await throughRedis(client, [web]);
      // One client first, so the run and the blocking read exist before the baseline.
      await clients.connect({ urls: source.urls, clients: 1, expect: -1, latency: false });
      web.child.send({ cmd: 'memory' } satisfies ToWeb);
      const before = await next<FromWeb, 'memory'>(web.child, 'memory');
      await clients.close();
      const n = 1000;
      await clients.connect({ urls: source.urls, clients: n, expect: -1, latency: false });
      web.child.send({ cmd: 'memory' } satisfies ToWeb);
      const after = await next<FromWeb, 'memory'>(web.child, 'memory');
      const perClient = (after.bytes - before.bytes) / (after.readers - before.readers);
      console.log(`\nMemory per idle subscribed client in a web process (heap + external after GC, ${fmt(after.readers - before.readers)} clients): ${(perClient / 1024).toFixed(1)} KiB (target <= 20 KiB)`);
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

if (process.argv.includes('--clients')) runClients();
else if (process.argv.includes('--web')) await runWeb(process.argv[process.argv.indexOf('--web') + 1] ?? '');
else await main();
