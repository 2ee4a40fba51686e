// SSE delivery: @headway/sse vs a raw node:http SSE server written here, in the same run.
// Clients live in a second process (this file with --clients), on 127.0.0.1 only, bounded
// in number and time. Every phase has one stalled client (connects, never reads) in the mix.
// Run: pnpm -F @headway/bench bench:sse  (one phase: ... bench:sse --only=throughput|memory|latency)
import { fork, type ChildProcess } from 'node:child_process';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createProgressHub, type ProgressHub } from '@headway/protocol';
import { createReplayLog, createSseHandler, type ReplayLogStats } from '@headway/sse';

// ---------------------------------------------------------------- shared ----------

type ToClients =
  | { cmd: 'connect'; url: string; clients: number; stalled: boolean; expect: number; latency: boolean }
  | { cmd: 'close' };
type FromClients =
  | { kind: 'connected' }
  | { kind: 'progress'; minSeq: number }
  | { kind: 'done'; deliveries: number; latency?: { p50: number; p99: number; max: number; samples: number } }
  | { kind: 'closed' };

const clock = (): number => performance.timeOrigin + performance.now();
const MAX_CLIENTS = 1001;
const CAP = 1024 * 1024; // maxBufferedBytes (the default)
const PHASE_TIMEOUT_MS = 120_000;

// ---------------------------------------------------------------- client process ---

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
    const { url, expect, latency } = raw;
    const n = Math.min(raw.clients, MAX_CLIENTS);
    const last = new Int32Array(n);
    const lat: number[] = [];
    let connected = 0;
    let finished = 0;
    let deliveries = 0;
    const total = n + (raw.stalled ? 1 : 0);
    const onConnected = (): void => {
      connected += 1;
      if (connected === total) send({ kind: 'connected' });
    };
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
      const req = request(url, { agent: false }, (res) => {
        onConnected();
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
          // A plain scan (no regex) so the client process costs as little as possible.
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
    if (raw.stalled) {
      const req = request(url, { agent: false }, (res) => {
        res.pause();
        res.socket.pause();
        onConnected();
      });
      req.on('error', () => undefined);
      req.end();
      sockets.push(req);
    }
  });
}

// ---------------------------------------------------------------- servers ----------

interface Variant {
  name: string;
  /** Starts a server for one run; `emit` sends one event to every client. */
  start(): Promise<{
    url: string;
    emit(text: string): number;
    end(): void;
    connections: ServerResponse[];
    /** Clients cut off for backpressure, and what the replay log holds (headway only). */
    extra?(): { slowDisconnects: number; log: ReplayLogStats };
    close(): Promise<void>;
  }>;
}

async function listenOn(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/run`;
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => {
        resolve();
      });
    });
}

const headway: Variant = {
  name: '@headway/sse',
  async start() {
    const hub: ProgressHub = createProgressHub({ runId: 'run', now: clock });
    const log = createReplayLog();
    log.attach(hub);
    let slowDisconnects = 0;
    const handler = createSseHandler({
      source: log,
      heartbeatMs: 0,
      maxBufferedBytes: CAP,
      onDisconnect: ({ reason }) => {
        if (reason === 'slow') slowDisconnects += 1;
      },
    });
    const connections: ServerResponse[] = [];
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      connections.push(res);
      handler(req, res);
    });
    const url = await listenOn(server);
    return {
      url,
      connections,
      emit: (text) => hub.emit({ type: 'text.delta', text }).seq,
      end: () => {
        hub.emit({ type: 'run.finished', durationMs: 0, outcome: 'completed' });
      },
      extra: () => ({ slowDisconnects, log: log.stats() }),
      close: closer(server),
    };
  },
};

// The baseline gets its events from a progress hub too, so both sides pay for the hub and
// the comparison is of the SSE layer alone.
const raw: Variant = {
  name: 'raw node:http',
  async start() {
    const hub: ProgressHub = createProgressHub({ runId: 'run', now: clock });
    const clients = new Set<ServerResponse>();
    const connections: ServerResponse[] = [];
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      res.write('retry: 2000\n\n');
      clients.add(res);
      connections.push(res);
      req.on('close', () => clients.delete(res));
    });
    hub.add((event) => {
      // A competent baseline: each frame encoded once, written to every client.
      const frame = Buffer.from(`id: ${event.seq}\nevent: progress\ndata: ${JSON.stringify(event)}\n\n`);
      for (const res of clients) res.write(frame);
    });
    const url = await listenOn(server);
    return {
      url,
      connections,
      emit: (text) => hub.emit({ type: 'text.delta', text }).seq,
      end() {
        for (const res of clients) res.end();
      },
      close: closer(server),
    };
  },
};

// ---------------------------------------------------------------- driver -----------

class Clients {
  private readonly child: ChildProcess;
  private listener: ((m: FromClients) => void) | undefined;
  minSeq = 0;

  constructor() {
    this.child = fork(import.meta.filename, ['--clients'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (m: FromClients) => {
      if (m.kind === 'progress') this.minSeq = m.minSeq;
      else this.listener?.(m);
    });
  }

  private next<K extends FromClients['kind']>(kind: K): Promise<Extract<FromClients, { kind: K }>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`clients: no ${kind} within ${PHASE_TIMEOUT_MS} ms`));
      }, PHASE_TIMEOUT_MS);
      this.listener = (m) => {
        if (m.kind !== kind) return;
        clearTimeout(timer);
        resolve(m as Extract<FromClients, { kind: K }>);
      };
    });
  }

  /** Resolves once every client is connected, with the promise of their final report (wrapped: an async function would adopt it). */
  async connect(m: Omit<Extract<ToClients, { cmd: 'connect' }>, 'cmd'>): Promise<{ done: Promise<Extract<FromClients, { kind: 'done' }>> }> {
    this.minSeq = 0;
    const connected = this.next('connected');
    this.child.send({ cmd: 'connect', ...m });
    await connected;
    return { done: this.next('done') };
  }

  async close(): Promise<void> {
    const closed = this.next('closed');
    this.child.send({ cmd: 'close' });
    await closed;
  }

  kill(): void {
    this.child.kill();
  }
}

const PAYLOAD = 'token '.repeat(30); // ~180 B of text: a streamed text.delta
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const gc = ((): (() => void) => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

function usedMemory(): number {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/** Peak bytes queued for one connection, and (at `stop`) what the server retains after a full GC. */
function sampleMemory(connections: ServerResponse[]): { stop(): { peakBuffered: number; retained: number } } {
  const base = usedMemory();
  let peakBuffered = 0;
  const timer = setInterval(() => {
    for (const c of connections) if (!c.destroyed) peakBuffered = Math.max(peakBuffered, c.writableLength);
  }, 5);
  return {
    stop() {
      clearInterval(timer);
      return { peakBuffered, retained: usedMemory() - base };
    },
  };
}

interface Throughput {
  perSec: number;
  peakBuffered: number;
  /** Heap + external the server still holds at the end of the phase (stalled client still connected), after a GC. */
  retained: number;
  slowDisconnects?: number;
  logBytes?: number;
}

/** Emits `events` as fast as the slowest healthy client takes them (at most `window` in flight). */
async function throughput(clients: Clients, variant: Variant, n: number, events: number, window: number): Promise<Throughput> {
  const server = await variant.start();
  const { done } = await clients.connect({ url: server.url, clients: n, stalled: true, expect: events, latency: false });
  const memory = sampleMemory(server.connections);
  const t0 = performance.now();
  let seq = 0;
  while (seq < events) {
    const room = Math.min(window - (seq - clients.minSeq), events - seq);
    for (let i = 0; i < room; i++) seq = server.emit(PAYLOAD);
    await tick();
  }
  const result = await done;
  const elapsed = (performance.now() - t0) / 1000;
  const mem = memory.stop();
  const extra = server.extra?.();
  server.end();
  await clients.close();
  await server.close();
  return { perSec: result.deliveries / elapsed, ...mem, ...(extra ? { slowDisconnects: extra.slowDisconnects, logBytes: extra.log.bytes } : {}) };
}

async function latency(clients: Clients, variant: Variant, n: number, perSecond: number, seconds: number) {
  const server = await variant.start();
  const total = perSecond * seconds;
  const { done } = await clients.connect({ url: server.url, clients: n, stalled: true, expect: total, latency: true });
  const perTick = perSecond / 100;
  let sent = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      for (let i = 0; i < perTick && sent < total; i++) sent = server.emit(PAYLOAD);
      if (sent >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 10);
  });
  const result = await done;
  server.end();
  await clients.close();
  await server.close();
  return result.latency;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
};
const fmt = (x: number): string => Math.round(x).toLocaleString('en-US');
const mib = (x: number): string => `${(x / 1024 / 1024).toFixed(2)} MiB`;

async function main(): Promise<void> {
  const clients = new Clients();
  const started = performance.now();
  try {
    const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7); // throughput | memory | latency
    if (only === undefined || only === 'throughput') {
    console.log('SSE deliveries/s to N clients (+1 stalled client), loopback, clients in a second process');
    console.log('| clients | events | @headway/sse deliveries/s | raw node:http deliveries/s | × baseline (median of rounds) | peak bytes queued for one client (headway / raw) |');
    console.log('|---:|---:|---:|---:|---:|---|');
    const plans = [
      { n: 1, events: 20_000, window: 2000, rounds: 3 },
      { n: 100, events: 2_000, window: 500, rounds: 3 },
      { n: 1000, events: 300, window: 100, rounds: 3 },
    ];
    for (const plan of plans) {
      const ratios: number[] = [];
      const ours: Throughput[] = [];
      const base: Throughput[] = [];
      for (let round = 0; round < plan.rounds; round++) {
        // Alternate who goes first, so neither always runs on a warmer machine.
        const order = round % 2 === 0 ? [headway, raw] : [raw, headway];
        const got = new Map<string, Throughput>();
        for (const v of order) got.set(v.name, await throughput(clients, v, plan.n, plan.events, plan.window));
        const h = got.get(headway.name);
        const r = got.get(raw.name);
        if (h && r) {
          ours.push(h);
          base.push(r);
          ratios.push(h.perSec / r.perSec);
        }
      }
      const peak = (xs: Throughput[]): number => Math.max(...xs.map((x) => x.peakBuffered));
      console.log(
        `| ${plan.n} | ${fmt(plan.events)} | ${fmt(median(ours.map((x) => x.perSec)))} | ${fmt(median(base.map((x) => x.perSec)))} | ${median(ratios).toFixed(2)} | ${mib(peak(ours))} / ${mib(peak(base))} |`,
      );
    }

    }
    // The stalled client with a lot of traffic: headway caps (then cuts) it; raw keeps queueing.
    if (only === undefined || only === 'memory') {
    console.log(`\nServer memory with a stalled client: 10 clients, 60,000 events (~16 MiB each), maxBufferedBytes = ${mib(CAP)}`);
    console.log('| server | peak bytes queued for one client | stalled client cut off | replay log held | heap+external retained (after GC, stalled client connected) |');
    console.log('|---|---:|---|---:|---:|');
    for (const v of [headway, raw]) {
      const t = await throughput(clients, v, 10, 60_000, 2000);
      const cut = t.slowDisconnects === undefined ? 'never' : `${t.slowDisconnects}x`;
      console.log(`| ${v.name} | ${mib(t.peakBuffered)} | ${cut} | ${t.logBytes === undefined ? '-' : mib(t.logBytes)} | ${mib(t.retained)} |`);
    }

    }
    if (only === undefined || only === 'latency') {
    console.log('\nEmit-to-receive latency, 100 clients (+1 stalled) x 1,000 events/s for 3 s');
    console.log('| server | p50 ms | p99 ms | max ms | samples |');
    console.log('|---|---:|---:|---:|---:|');
    for (const v of [headway, raw]) {
      const l = await latency(clients, v, 100, 1000, 3);
      if (l) console.log(`| ${v.name} | ${l.p50.toFixed(2)} | ${l.p99.toFixed(2)} | ${l.max.toFixed(2)} | ${fmt(l.samples)} |`);
    }
    }
    console.log(`\n(total ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  } finally {
    clients.kill();
  }
}

if (process.argv.includes('--clients')) runClients();
else await main();
