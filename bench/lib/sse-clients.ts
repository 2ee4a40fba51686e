// SSE clients for the transport benches (sse, redis): a second process, forked from this file,
// that opens many SSE connections on 127.0.0.1 and reports how far the slowest one got and,
// when asked, each event's delivery latency. Keeping clients out of the server's process keeps
// their cost out of its measurements.
import { fork, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes (events' `ts`). */
export const clock = (): number => performance.timeOrigin + performance.now();

const gc = ((): (() => void) => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** Heap plus external bytes in use after a full collection. */
export function usedMemory(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

interface LatencySummary {
  p50: number;
  p99: number;
  max: number;
  samples: number;
}

/** What the driver asks: connect `clients` readers spread over `urls` (plus one that never reads), or close them all. */
export type ToClients =
  { cmd: 'connect'; urls: string[]; clients: number; stalled?: boolean; expect: number; latency: boolean } | { cmd: 'close' };
/** What the client process answers. */
export type FromClients =
  | { kind: 'connected' }
  | { kind: 'progress'; minSeq: number }
  | { kind: 'done'; deliveries: number; latency?: LatencySummary }
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
    const total = n + (raw.stalled === true ? 1 : 0);
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
      let summary: LatencySummary | undefined;
      if (latency) {
        lat.sort((a, b) => a - b);
        const at = (q: number): number => lat[Math.min(lat.length - 1, Math.floor(q * lat.length))] ?? NaN;
        summary = { p50: at(0.5), p99: at(0.99), max: lat.at(-1) ?? NaN, samples: lat.length };
      }
      send({ kind: 'done', deliveries, ...(summary ? { latency: summary } : {}) });
    };
    for (let i = 0; i < n; i++) {
      const req = request(urls[i % urls.length] ?? '', { agent: false }, (res) => {
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
    if (raw.stalled === true) {
      const req = request(urls[0] ?? '', { agent: false }, (res) => {
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

/** The next message of `kind` from `child`, or a rejection after `timeoutMs`. */
export function nextMessage<T extends { kind: string }, K extends T['kind']>(
  child: ChildProcess,
  kind: K,
  timeoutMs: number,
): Promise<Extract<T, { kind: K }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', listener);
      reject(new Error(`no ${kind} within ${timeoutMs} ms`));
    }, timeoutMs);
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

/** The driver's handle on the client process: `minSeq` is how far the slowest reader got. */
export class SseClients {
  readonly child: ChildProcess = fork(import.meta.filename, ['--sse-clients'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  minSeq = 0;

  constructor(private readonly timeoutMs: number) {
    this.child.on('message', (m: FromClients) => {
      if (m.kind === 'progress') this.minSeq = m.minSeq;
    });
  }

  /** Resolves once every client is connected, with the promise of their final report (wrapped: an async function would adopt it). */
  async connect(
    m: Omit<Extract<ToClients, { cmd: 'connect' }>, 'cmd'>,
  ): Promise<{ done: Promise<Extract<FromClients, { kind: 'done' }>> }> {
    this.minSeq = 0;
    const connected = nextMessage<FromClients, 'connected'>(this.child, 'connected', this.timeoutMs);
    const done = nextMessage<FromClients, 'done'>(this.child, 'done', this.timeoutMs);
    // Idle clients (a memory phase) never finish; their report is not awaited.
    done.catch(() => undefined);
    this.child.send({ cmd: 'connect', ...m });
    await connected;
    return { done };
  }

  async close(): Promise<void> {
    const closed = nextMessage<FromClients, 'closed'>(this.child, 'closed', this.timeoutMs);
    this.child.send({ cmd: 'close' });
    await closed;
  }

  kill(): void {
    this.child.kill();
  }
}

if (process.argv.includes('--sse-clients')) runClients();

/** Calls `emit` `total` times at about `perSecond`, in 10 ms ticks; `emit` returns how many have been sent so far. */
export function emitPaced(emit: () => number, perSecond: number, total: number): Promise<void> {
  let sent = 0;
  return new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      for (let i = 0; i < perSecond / 100 && sent < total; i++) sent = emit();
      if (sent >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 10);
  });
}

/** Yields to the event loop once, so sockets drain between bursts. */
export const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
