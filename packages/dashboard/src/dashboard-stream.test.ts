import { EventEmitter } from 'node:events';
import { ManualClock } from '@headway/protocol';
import type { CheckpointStore } from '@headway/runtime';
import { describe, expect, it } from 'vitest';
import { DashboardError } from './dashboard-error.js';
import { field, frames, openDashboardStore } from './dashboard-fixture.test-util.js';
import { createSnapshotPollers, type SnapshotClient } from './dashboard-stream.js';

/** A client that keeps what it is sent; `slow` makes its writes answer false, as a full socket does. */
class Client extends EventEmitter implements SnapshotClient {
  readonly sent: string[] = [];
  ended: string | undefined;
  slow = false;
  write(chunk: string): boolean {
    this.sent.push(chunk);
    return !this.slow;
  }
  end(chunk?: string): void {
    this.ended = chunk ?? '';
  }
  /** The `data:` of each snapshot frame sent (heartbeats as `:`). */
  get data(): string[] {
    return this.sent.map((frame) => (frame === ':\n\n' ? ':' : (field(frame, 'data') ?? frame)));
  }
}

/** A snapshot read that counts its calls; `value` is what the next read returns. */
function counted(initial: unknown): { read: () => Promise<unknown>; reads: () => number; set: (value: unknown) => void } {
  let value = initial;
  let reads = 0;
  return {
    read: () => {
      reads += 1;
      return Promise.resolve(value);
    },
    reads: () => reads,
    set: (next) => {
      value = next;
    },
  };
}

function setup(): { clock: ManualClock; pollers: ReturnType<typeof createSnapshotPollers>; errors: unknown[] } {
  const clock = new ManualClock({ start: 0 });
  const errors: unknown[] = [];
  const pollers = createSnapshotPollers({ clock, pollMs: 1000, onInternalError: (error) => errors.push(error) });
  return { clock, pollers, errors };
}

describe('one shared poller per query', () => {
  it('50 clients of one query cost one read per poll; it starts with the first and stops with the last', async () => {
    const { clock, pollers } = setup();
    const source = counted({ n: 1 });
    const clients = Array.from({ length: 50 }, () => new Client());
    for (const client of clients) pollers.subscribe('runs:all', client, { event: 'runs', read: source.read });
    await clock.advance(0);
    expect([source.reads(), pollers.keys]).toEqual([1, ['runs:all']]);
    expect(new Set(clients.map((c) => JSON.stringify(c.data)))).toEqual(new Set([JSON.stringify(['{"n":1}'])]));
    for (let tick = 1; tick <= 3; tick++) {
      source.set({ n: 1 + tick });
      await clock.advance(1000);
      expect(source.reads()).toBe(1 + tick);
    }
    expect(clients.every((c) => JSON.stringify(c.data) === JSON.stringify(['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}']))).toBe(true);
    // Another query gets its own poller.
    const other = counted({ other: true });
    const lone = new Client();
    pollers.subscribe('run:a-1', lone, { event: 'run', read: other.read });
    await clock.advance(0);
    await clock.advance(1000);
    expect([source.reads(), other.reads(), pollers.keys]).toEqual([5, 2, ['runs:all', 'run:a-1']]);
    for (const client of clients) client.emit('close');
    lone.emit('close');
    expect(pollers.keys).toEqual([]);
    expect(clock.pendingTimers).toBe(0);
    await clock.advance(5000);
    expect([source.reads(), other.reads()]).toEqual([5, 2]);
  });

  it('sends a client that joins a running poller its newest snapshot at once, or a heartbeat when it saw it already', async () => {
    const { clock, pollers } = setup();
    const source = counted(['x']);
    const first = new Client();
    pollers.subscribe('k', first, { event: 'runs', read: source.read });
    await clock.advance(0);
    const id = field(first.sent[0]!, 'id')!;
    const late = new Client();
    const resumed = new Client();
    pollers.subscribe('k', late, { event: 'runs', read: source.read });
    pollers.subscribe('k', resumed, { event: 'runs', read: source.read, lastEventId: id });
    expect([late.sent, resumed.sent, source.reads()]).toEqual([[`id: ${id}\nevent: runs\ndata: ["x"]\n\n`], [':\n\n'], 1]);
  });

  it('a slow client is skipped until it drains, then sent only the newest snapshot; the others never wait', async () => {
    const { clock, pollers } = setup();
    const source = counted({ v: 1 });
    const slow = new Client();
    const fast = new Client();
    pollers.subscribe('k', slow, { event: 'runs', read: source.read });
    pollers.subscribe('k', fast, { event: 'runs', read: source.read });
    slow.slow = true;
    await clock.advance(0);
    for (const v of [2, 3, 4]) {
      source.set({ v });
      await clock.advance(1000);
    }
    expect(fast.data).toEqual(['{"v":1}', '{"v":2}', '{"v":3}', '{"v":4}']);
    expect(slow.data).toEqual(['{"v":1}']);
    slow.slow = false;
    slow.emit('drain');
    expect(slow.data).toEqual(['{"v":1}', '{"v":4}']);
    await clock.advance(1000);
    expect([slow.data.at(-1), fast.data.at(-1)]).toEqual([':', ':']);
    expect(source.reads()).toBe(5);
  });

  it('a client whose write throws, or that closed, leaves without holding up the others', async () => {
    const { clock, pollers } = setup();
    const source = counted({ v: 1 });
    const broken = new Client();
    broken.write = () => {
      throw new Error('socket gone');
    };
    const closed = new Client();
    const fine = new Client();
    for (const client of [broken, closed, fine]) pollers.subscribe('k', client, { event: 'runs', read: source.read });
    closed.emit('close');
    await clock.advance(0);
    source.set({ v: 2 });
    await clock.advance(1000);
    expect([fine.data, closed.sent]).toEqual([['{"v":1}', '{"v":2}'], []]);
    fine.emit('close');
    expect(pollers.keys).toEqual([]);
  });

  it('ends every client of a poller whose read fails: an error frame for a DashboardError, onInternalError for anything else', async () => {
    const { clock, pollers, errors } = setup();
    const a = new Client();
    const b = new Client();
    const gone = () => Promise.reject(new DashboardError('DASHBOARD_NOT_FOUND', 'no run "x"'));
    pollers.subscribe('run:x', a, { event: 'run', read: gone });
    pollers.subscribe('run:x', b, { event: 'run', read: gone });
    await clock.advance(0);
    const frame = 'event: error\ndata: {"error":{"code":"DASHBOARD_NOT_FOUND","message":"no run \\"x\\""}}\n\n';
    expect([a.ended, b.ended, pollers.keys, errors]).toEqual([frame, frame, [], []]);
    const c = new Client();
    const broken = new Error('disk on fire');
    pollers.subscribe('runs:all', c, { event: 'runs', read: () => Promise.reject(broken) });
    await clock.advance(0);
    expect([c.ended, pollers.keys, errors]).toEqual(['', [], [broken]]);
  });
});

describe('over HTTP: the list and run streams of a real server', () => {
  it('20 open streams of the same list read the store once per poll; a different filter is one more', async () => {
    const clock = new ManualClock({ start: 1_000_000 });
    const fixture = openDashboardStore('stream', clock);
    let lists = 0;
    // The real store, with its reads of the list counted.
    const counting = new Proxy(fixture.store, {
      get(target, property) {
        if (property === 'list') {
          return (...args: Parameters<CheckpointStore['list']>) => {
            lists += 1;
            return target.list(...args);
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    try {
      const base = await fixture.serve({ checkpoints: counting });
      const streams = await Promise.all(Array.from({ length: 20 }, async () => frames(await fetch(`${base}/api/stream?worker=w-1`))));
      for (const stream of streams) expect(await stream.next()).toBe('retry: 1000\n\n');
      for (const stream of streams) expect(field(await stream.next(), 'data')).toBe('{"runs":[]}');
      expect(lists).toBe(1);
      fixture.store.create({
        id: 'cp-1',
        runId: 'run-1',
        sessionId: 'w-1',
        taskId: 't-1',
        input: 'the task',
        messages: [],
        log: [],
        state: { iteration: 1, toolsUsed: [], usage: { inputTokens: 1, outputTokens: 1 }, spentUsd: 0, providerCalls: 1 },
      });
      await clock.advance(1000);
      for (const stream of streams) {
        const runs = (JSON.parse(field(await stream.next(), 'data')!) as { runs: { runId: string }[] }).runs;
        expect(runs.map((r) => r.runId)).toEqual(['run-1']);
      }
      expect(lists).toBe(2);
      const other = frames(await fetch(`${base}/api/stream?worker=w-2`));
      expect(await other.next()).toBe('retry: 1000\n\n');
      expect(field(await other.next(), 'data')).toBe('{"runs":[]}');
      expect(lists).toBe(3);
      await clock.advance(1000);
      expect(await other.next()).toBe(':\n\n');
      for (const stream of streams) expect(await stream.next()).toBe(':\n\n');
      expect(lists).toBe(5);
      await Promise.all([...streams, other].map((stream) => stream.close()));
    } finally {
      await fixture.close();
    }
  });
});
