import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { bodyArb } from './arbitraries.test-util.js';
import type { ProgressEvent } from './events.js';
import { HeadwayError } from './headway-error.js';
import { systemClock, type Clock } from './clock.js';
import { ManualClock } from './manual-clock.js';
import { createProgressHub } from './progress-hub.js';
import { NullReporter } from './progress-reporter.js';
import { deferred, steppingNow } from '@headway/test-utils';

/** A clock whose time moves 5 ms each time it is read. */
function clock(start = 1000): Clock {
  return { ...systemClock, now: steppingNow(start) };
}

describe('createProgressHub', () => {
  it('stamps runId, strictly increasing seq from 1 and ts', () => {
    const hub = createProgressHub({ runId: 'run-1', clock: clock() });
    const seen: ProgressEvent[] = [];
    hub.add((e) => {
      seen.push(e);
    });
    hub.emit({ type: 'run.started', agentName: 'demo', task: 't' });
    hub.emit({ type: 'progress', percent: 10 });
    expect(seen).toEqual([
      { type: 'run.started', agentName: 'demo', task: 't', runId: 'run-1', seq: 1, ts: 1005 },
      { type: 'progress', percent: 10, runId: 'run-1', seq: 2, ts: 1010 },
    ]);
    expect(hub.lastSeq).toBe(2);
  });

  it('continues seq after lastSeq for a resumed run', () => {
    const hub = createProgressHub({ runId: 'r', lastSeq: 41 });
    expect(hub.emit({ type: 'thinking', content: '' }).seq).toBe(42);
  });

  it('delivers every event to every sink in emit order, whatever the sequence', () => {
    fc.assert(
      fc.property(
        fc.array(
          bodyArb.filter((b) => !['run.finished', 'run.error', 'run.cancelled'].includes(b.type)),
          { maxLength: 50 },
        ),
        (bodies) => {
          const hub = createProgressHub({ runId: 'r' });
          const a: number[] = [];
          const b: number[] = [];
          hub.add((e) => {
            a.push(e.seq);
          });
          hub.add({
            handle: (e) => {
              b.push(e.seq);
            },
          });
          for (const body of bodies) hub.emit(body);
          const expected = bodies.map((_, i) => i + 1);
          expect(a).toEqual(expected);
          expect(b).toEqual(expected);
        },
      ),
    );
  });

  it('isolates a throwing sink and a rejecting sink: the others still receive, emit never throws', async () => {
    const errors: string[] = [];
    const hub = createProgressHub({
      runId: 'r',
      onInternalError: (error, ctx) => errors.push(`${ctx.sink} ${ctx.event.type} ${(error as Error).message}`),
    });
    const received: string[] = [];
    hub.add(
      () => {
        throw new Error('sync boom');
      },
      { name: 'thrower' },
    );
    hub.add(() => Promise.reject(new Error('async boom')), { name: 'rejecter' });
    hub.add((e) => {
      received.push(e.type);
    });
    expect(() => hub.emit({ type: 'thinking', content: 'x' })).not.toThrow();
    hub.emit({ type: 'text.delta', text: 'y' });
    await hub.flush();
    expect(received).toEqual(['thinking', 'text.delta']);
    expect(errors.sort()).toEqual([
      'rejecter text.delta async boom',
      'rejecter thinking async boom',
      'thrower text.delta sync boom',
      'thrower thinking sync boom',
    ]);
    expect(hub.stats()).toEqual({ emitted: 2, sinkErrors: 4, dropped: 0 });
  });

  it('survives an onInternalError that throws: the event is still numbered, delivered to later sinks and counted', () => {
    let calls = 0;
    const hub = createProgressHub({
      runId: 'r',
      onInternalError: () => {
        calls++;
        throw new Error('callback boom');
      },
    });
    hub.add(() => {
      throw new Error('x');
    });
    const later: string[] = [];
    hub.add((e) => {
      later.push(`${String(e.seq)} ${e.type}`);
    });
    expect(hub.emit({ type: 'thinking', content: '' })).toMatchObject({ runId: 'r', seq: 1, type: 'thinking' });
    expect(hub.emit({ type: 'text.delta', text: 'a' }).seq).toBe(2);
    expect(later).toEqual(['1 thinking', '2 text.delta']);
    expect(calls).toBe(2);
    expect(hub.stats()).toEqual({ emitted: 2, sinkErrors: 2, dropped: 0 });
  });

  it('queues events for a slow async sink in order, without holding up sync sinks', async () => {
    const hub = createProgressHub({ runId: 'r' });
    const gates: ReturnType<typeof deferred>[] = [];
    const slow: number[] = [];
    const fast: number[] = [];
    hub.add(async (e) => {
      const gate = deferred();
      gates.push(gate);
      await gate.promise;
      slow.push(e.seq);
    });
    hub.add((e) => {
      fast.push(e.seq);
    });
    for (let i = 0; i < 5; i++) hub.emit({ type: 'text.delta', text: String(i) });
    expect(fast).toEqual([1, 2, 3, 4, 5]);
    expect(gates).toHaveLength(1); // the rest wait in the queue
    let flushed = false;
    const flushing = hub.flush().then((ok) => (flushed = ok));
    while (slow.length < 5) {
      gates.at(-1)!.resolve();
      await new Promise((r) => setImmediate(r));
    }
    await flushing;
    expect(slow).toEqual([1, 2, 3, 4, 5]);
    expect(flushed).toBe(true);
  });

  it('bounds a stalled sink: overflow drops the oldest and counts it', async () => {
    const fake = new ManualClock();
    const hub = createProgressHub({ runId: 'r', queueLimit: 3, clock: fake });
    const first = deferred();
    const got: number[] = [];
    let calls = 0;
    hub.add((e) => {
      calls += 1;
      got.push(e.seq);
      return calls === 1 ? first.promise : undefined;
    });
    for (let i = 0; i < 10; i++) hub.emit({ type: 'text.delta', text: String(i) });
    expect(hub.stats().dropped).toBe(6); // 1 in flight, 3 queued (8, 9, 10), 4..7 and 2, 3 dropped
    const timedOut = hub.flush({ timeoutMs: 20 });
    await fake.advance(20);
    expect(await timedOut).toBe(false);
    first.resolve();
    expect(await hub.flush()).toBe(true);
    expect(got).toEqual([1, 8, 9, 10]);
  });

  it('refuses to emit after a terminal event', () => {
    for (const terminal of [
      { type: 'run.finished', durationMs: 1, outcome: 'completed' },
      { type: 'run.error', error: 'x' },
      { type: 'run.cancelled' },
    ] as const) {
      const hub = createProgressHub({ runId: 'r' });
      const sink = vi.fn();
      hub.add(sink);
      hub.emit(terminal);
      expect(hub.ended).toBe(true);
      let thrown: unknown;
      try {
        hub.emit({ type: 'thinking', content: 'late' });
      } catch (e) {
        thrown = e;
      }
      expect(HeadwayError.isInstance(thrown, 'PROTOCOL_RUN_ENDED')).toBe(true);
      expect(sink).toHaveBeenCalledTimes(1);
      expect(hub.lastSeq).toBe(1);
    }
  });

  it('adds reporters through the bridge, skips a NullReporter, and removes sinks', () => {
    const hub = createProgressHub({ runId: 'r' });
    const calls: string[] = [];
    const remove = hub.add({
      onStart: (t: string) => calls.push(`start ${t}`),
      onProgress: (p: number, l: string) => calls.push(`progress ${p} ${l}`),
      onToolStart: () => undefined,
      onToolDone: () => undefined,
      onIteration: () => undefined,
      onComplete: () => undefined,
      onError: () => undefined,
    });
    hub.add(new NullReporter());
    hub.emit({ type: 'run.started', agentName: 'a', task: 'Summarize' });
    hub.emit({ type: 'progress', percent: 45, message: 'Analyzing input' });
    remove();
    hub.emit({ type: 'progress', percent: 50 });
    expect(calls).toEqual(['start Summarize', 'progress 45 Analyzing input']);
  });

  it('rejects things that are not sinks', () => {
    const hub = createProgressHub({ runId: 'r' });
    expect(() => hub.add({} as never)).toThrow(expect.objectContaining({ name: 'ProtocolError', code: 'PROTOCOL_INVALID_SINK' }));
  });
});

describe('createProgressHub with hostile sinks', () => {
  function revoked(): object {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  }

  it.each([
    [
      'a thenable whose then throws',
      () => ({
        then() {
          throw new Error('then threw');
        },
      }),
    ],
    ['a revoked proxy', revoked],
    [
      'an object whose then getter throws',
      () =>
        Object.defineProperty({}, 'then', {
          get() {
            throw new Error('getter threw');
          },
        }),
    ],
  ])('isolates a sink returning %s; later sinks still get every event', async (_label, make) => {
    const errors: unknown[] = [];
    const hub = createProgressHub({ runId: 'r', onInternalError: (e) => errors.push(e) });
    hub.add({ handle: make as unknown as () => undefined });
    const later: number[] = [];
    hub.add((e) => {
      later.push(e.seq);
    });
    expect(() => hub.emit({ type: 'run.started', agentName: 'a' })).not.toThrow();
    hub.emit({ type: 'progress', percent: 5 });
    hub.emit({ type: 'run.finished', durationMs: 1, outcome: 'completed' });
    expect(later).toEqual([1, 2, 3]);
    expect(await hub.flush({ timeoutMs: 1000 })).toBe(true);
  });
});
