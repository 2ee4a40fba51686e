// SSE delivery: @headway/sse vs a raw node:http SSE server written here, in the same run.
// Clients live in a second process (bench/lib/sse-clients.ts), on 127.0.0.1 only, bounded
// in number and time. Every phase has one stalled client (connects, never reads) in the mix.
// Run: pnpm -F @headway/bench bench:sse  (one phase: ... bench:sse --only=throughput|memory|latency)
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProgressHub, systemClock, type ProgressHub } from '@headway/protocol';
import { createReplayLog, createSseHandler, type ReplayLogStats } from '@headway/sse';
import { median } from '../lib/compare.js';
import { SseClients, clock, emitPaced, tick, usedMemory } from '../lib/sse-clients.js';

const MAX_CLIENTS = 1001;
const CAP = 1024 * 1024; // maxBufferedBytes (the default)
const PHASE_TIMEOUT_MS = 120_000;

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
    const hub: ProgressHub = createProgressHub({ runId: 'run', clock: { ...systemClock, now: clock } });
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
    const hub: ProgressHub = createProgressHub({ runId: 'run', clock: { ...systemClock, now: clock } });
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

const PAYLOAD = 'token '.repeat(30); // ~180 B of text: a streamed text.delta

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
async function throughput(clients: SseClients, variant: Variant, n: number, events: number, window: number): Promise<Throughput> {
  const server = await variant.start();
  const { done } = await clients.connect({
    urls: [server.url],
    clients: Math.min(n, MAX_CLIENTS),
    stalled: true,
    expect: events,
    latency: false,
  });
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
  return {
    perSec: result.deliveries / elapsed,
    ...mem,
    ...(extra ? { slowDisconnects: extra.slowDisconnects, logBytes: extra.log.bytes } : {}),
  };
}

async function latency(clients: SseClients, variant: Variant, n: number, perSecond: number, seconds: number) {
  const server = await variant.start();
  const total = perSecond * seconds;
  const { done } = await clients.connect({
    urls: [server.url],
    clients: Math.min(n, MAX_CLIENTS),
    stalled: true,
    expect: total,
    latency: true,
  });
  await emitPaced(() => server.emit(PAYLOAD), perSecond, total);
  const result = await done;
  server.end();
  await clients.close();
  await server.close();
  return result.latency;
}

const fmt = (x: number): string => Math.round(x).toLocaleString('en-US');
const mib = (x: number): string => `${(x / 1024 / 1024).toFixed(2)} MiB`;

async function main(): Promise<void> {
  const clients = new SseClients(PHASE_TIMEOUT_MS);
  const started = performance.now();
  try {
    const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7); // throughput | memory | latency
    if (only === undefined || only === 'throughput') {
      console.log('SSE deliveries/s to N clients (+1 stalled client), loopback, clients in a second process');
      console.log(
        '| clients | events | @headway/sse deliveries/s | raw node:http deliveries/s | × baseline (median of rounds) | peak bytes queued for one client (headway / raw) |',
      );
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
      console.log(
        '| server | peak bytes queued for one client | stalled client cut off | replay log held | heap+external retained (after GC, stalled client connected) |',
      );
      console.log('|---|---:|---|---:|---:|');
      for (const v of [headway, raw]) {
        const t = await throughput(clients, v, 10, 60_000, 2000);
        const cut = t.slowDisconnects === undefined ? 'never' : `${t.slowDisconnects}x`;
        console.log(
          `| ${v.name} | ${mib(t.peakBuffered)} | ${cut} | ${t.logBytes === undefined ? '-' : mib(t.logBytes)} | ${mib(t.retained)} |`,
        );
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

await main();
