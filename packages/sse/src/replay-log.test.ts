import { ManualClock, createProgressHub, systemClock, type ProgressEvent } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ev, finished, microtasks } from './events.test-util.js';
import { createReplayLog, type ReplayCursor } from './replay-log.js';

const decoder = new TextDecoder();
function seqsOf(chunk: Uint8Array | undefined): number[] {
  if (chunk === undefined) return [];
  return [...decoder.decode(chunk).matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
}
function openOk(result: ReturnType<ReturnType<typeof createReplayLog>['open']>): ReplayCursor {
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.cursor;
}

describe('createReplayLog', () => {
  it('keeps a run and hands a cursor the events after afterSeq, in order, once', () => {
    const log = createReplayLog();
    for (let s = 1; s <= 5; s++) log.append(ev('a', s));
    const cursor = openOk(log.open('a', 2, () => undefined));
    expect(cursor.pendingBytes).toBeGreaterThan(0);
    expect(seqsOf(cursor.take(Infinity))).toEqual([3, 4, 5]);
    expect(cursor.take(Infinity)).toBeUndefined();
    expect(cursor.pendingBytes).toBe(0);
    expect(cursor.lastSeq).toBe(5);
    log.append(finished('a', 6));
    expect(seqsOf(cursor.take(Infinity))).toEqual([6]);
    expect(cursor.done).toBe(true);
    expect(log.events('a', 4)?.map((e) => e.seq)).toEqual([5, 6]);
  });

  it('takes at least one frame, and then stops near maxBytes', () => {
    const log = createReplayLog();
    for (let s = 1; s <= 10; s++) log.append(ev('a', s));
    const cursor = openOk(log.open('a', 0, () => undefined));
    expect(seqsOf(cursor.take(1))).toEqual([1]);
    const frame = cursor.take(1)?.byteLength ?? 0;
    expect(seqsOf(cursor.take(frame * 3))).toEqual([3, 4, 5]);
    // Readers in step share the joined buffer.
    const a = openOk(log.open('a', 5, () => undefined));
    const b = openOk(log.open('a', 5, () => undefined));
    const fromA = a.take(Infinity);
    expect(b.take(Infinity)).toBe(fromA);
    expect(seqsOf(fromA)).toEqual([6, 7, 8, 9, 10]);
  });

  it('ignores repeated, out-of-order and after-the-end events', () => {
    const log = createReplayLog();
    log.append(ev('a', 1));
    log.append(ev('a', 3));
    log.append(ev('a', 2));
    log.append(ev('a', 3));
    log.append(finished('a', 4));
    log.append(ev('a', 5));
    expect(log.events('a')?.map((e) => e.seq)).toEqual([1, 3, 4]);
    expect(log.stats().ignored).toBe(3);
  });

  it('reopen: a run resumed after its terminal event takes events again; a reader that took the end stays done, the others go on past it', async () => {
    const log = createReplayLog();
    log.append(ev('a', 1));
    log.append(finished('a', 2));
    const atEnd = openOk(log.open('a', 1, () => undefined));
    expect(seqsOf(atEnd.take(Infinity))).toEqual([2]);
    expect(atEnd.done).toBe(true);
    expect(log.open('a', 2, () => undefined)).toEqual({ ok: false, reason: 'ended', lastSeq: 2 });
    const before = openOk(log.open('a', 0, () => undefined));
    let woken = 0;
    const fromEnd = log.open('a', undefined, () => {
      woken += 1;
    });
    log.reopen('a');
    log.append(ev('a', 3));
    log.append(finished('a', 4));
    await microtasks();
    expect(woken).toBe(1);
    expect(atEnd.take(Infinity)).toBeUndefined();
    expect(seqsOf(before.take(Infinity))).toEqual([1, 2, 3, 4]);
    expect(before.done).toBe(true);
    const resumed = openOk(log.open('a', 2, () => undefined));
    expect(seqsOf(resumed.take(Infinity))).toEqual([3, 4]);
    expect(seqsOf(openOk(fromEnd).take(Infinity))).toEqual([1, 2, 3, 4]);
    // A terminal event in the middle is taken in a batch with what follows it, in small takes too.
    const small = openOk(log.open('a', 0, () => undefined));
    expect([1, 2, 3, 4].map(() => seqsOf(small.take(1)))).toEqual([[1], [2], [3], [4]]);
    expect(small.done).toBe(true);
    log.reopen('unknown');
    expect(log.has('unknown')).toBe(false);
  });

  it('refuses an unknown run, an id ahead of the run, an evicted position, and a finished run with nothing left', () => {
    const log = createReplayLog({ maxEventsPerRun: 3 });
    for (let s = 1; s <= 5; s++) log.append(ev('a', s));
    const noop = (): void => undefined;
    expect(log.open('b', 0, noop)).toEqual({ ok: false, reason: 'unknown-run', lastSeq: 0 });
    expect(log.open('a', 6, noop)).toEqual({ ok: false, reason: 'ahead', lastSeq: 5 });
    // 1 and 2 were evicted: resuming after 0 or 1 would leave a gap; after 2 is exact.
    expect(log.open('a', 1, noop)).toEqual({ ok: false, reason: 'expired', lastSeq: 5 });
    expect(seqsOf(openOk(log.open('a', 2, noop)).take(Infinity))).toEqual([3, 4, 5]);
    // A new subscriber (no id) gets what is retained.
    expect(seqsOf(openOk(log.open('a', undefined, noop)).take(Infinity))).toEqual([3, 4, 5]);
    log.append(finished('a', 6));
    expect(log.open('a', 6, noop)).toEqual({ ok: false, reason: 'ended', lastSeq: 6 });
    expect(seqsOf(openOk(log.open('a', 5, noop)).take(Infinity))).toEqual([6]);
  });

  it('bounds each run by bytes as well as by count', () => {
    const log = createReplayLog({ maxBytesPerRun: 1000 });
    for (let s = 1; s <= 100; s++) log.append(ev('a', s, { type: 'text.delta', text: 'x'.repeat(100) }));
    const { bytes, events, evictedEvents } = log.stats();
    expect(bytes).toBeLessThanOrEqual(1000);
    expect(events).toBeGreaterThan(0);
    expect(events + evictedEvents).toBe(100);
    expect(log.events('a')?.at(-1)?.seq).toBe(100);
  });

  it('forgets finished runs after the TTL, then the finished run that ended first when over maxRuns', () => {
    let t = 0;
    const log = createReplayLog({ maxRuns: 2, finishedRunTtlMs: 1000, clock: { ...systemClock, now: () => t } });
    log.append(finished('done-early', 1));
    t = 10;
    log.append(ev('live', 1));
    t = 20;
    log.append(ev('newer', 1));
    expect([log.has('done-early'), log.has('live'), log.has('newer')]).toEqual([false, true, true]);
    log.append(finished('newer', 2));
    t = 1019;
    expect(log.has('newer')).toBe(true);
    t = 1020;
    expect(log.has('newer')).toBe(false);
    expect(log.stats()).toMatchObject({ runs: 1, evictedRuns: 2 });
  });

  it('marks a reader lost when its unread events are evicted, or its run is forgotten', async () => {
    const log = createReplayLog({ maxEventsPerRun: 2, maxRuns: 1 });
    log.append(ev('a', 1));
    let wakes = 0;
    const cursor = openOk(log.open('a', undefined, () => (wakes += 1)));
    log.append(ev('a', 2));
    log.append(ev('a', 3));
    expect(cursor.lost).toBe(true);
    expect(cursor.take(Infinity)).toBeUndefined();
    const other = openOk(log.open('a', 3, () => (wakes += 1)));
    log.append(ev('b', 1));
    expect(other.lost).toBe(true);
    await microtasks();
    expect(wakes).toBe(2); // one batched wake for 2+3 to the first reader, one to the second when 'a' was forgotten
  });

  it('wakes each reader once per batch of appends, and never after close', async () => {
    const log = createReplayLog();
    log.register('a');
    let wakes = 0;
    const cursor = openOk(log.open('a', 0, () => (wakes += 1)));
    for (let s = 1; s <= 50; s++) log.append(ev('a', s));
    await microtasks();
    expect(wakes).toBe(1);
    cursor.close();
    log.append(ev('a', 51));
    await microtasks();
    expect(wakes).toBe(1);
    expect(cursor.take(Infinity)).toBeUndefined();
  });

  it('attaches to a hub, knowing which events came before it', () => {
    const hub = createProgressHub({ runId: 'h', clock: new ManualClock() });
    hub.emit({ type: 'run.started', agentName: 'x' });
    const log = createReplayLog();
    log.attach(hub);
    hub.emit({ type: 'progress', percent: 10 });
    expect(log.events('h')?.map((e) => e.seq)).toEqual([2]);
    expect(log.open('h', 0, () => undefined)).toMatchObject({ ok: false, reason: 'expired' });
    expect(seqsOf(openOk(log.open('h', 1, () => undefined)).take(Infinity))).toEqual([2]);
  });

  it('rejects out-of-range options', () => {
    expect(() => createReplayLog({ maxEventsPerRun: 0 })).toThrow(/maxEventsPerRun must be a positive integer/);
    expect(() => createReplayLog({ maxRuns: 1.5 })).toThrow(/maxRuns/);
    expect(() => createReplayLog({ finishedRunTtlMs: -1 })).toThrow(/finishedRunTtlMs/);
  });

  it('property: a resume returns exactly the retained events after its id, or is refused when that would leave a gap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 60 }),
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 60 }),
        fc.nat({ max: 200 }),
        fc.integer({ min: 1, max: 8 }),
        (maxEventsPerRun, count, steps, after, readBudget) => {
          const log = createReplayLog({ maxEventsPerRun });
          const all: ProgressEvent[] = [];
          let seq = 0;
          for (let i = 0; i < count; i++) {
            seq += steps[i % steps.length] ?? 1;
            const e = ev('r', seq);
            all.push(e);
            log.append(e);
          }
          const retained = all.slice(-maxEventsPerRun);
          const result = log.open('r', after, () => undefined);
          const firstRetained = retained[0]?.seq ?? 0;
          const evictedThrough = all.length > maxEventsPerRun ? (all[all.length - maxEventsPerRun - 1]?.seq ?? 0) : 0;
          if (after > seq) expect(result).toMatchObject({ ok: false, reason: 'ahead' });
          else if (after < evictedThrough) expect(result).toMatchObject({ ok: false, reason: 'expired' });
          else {
            const cursor = openOk(result);
            const got: number[] = [];
            for (let chunk = cursor.take(readBudget); chunk !== undefined; chunk = cursor.take(readBudget)) got.push(...seqsOf(chunk));
            expect(got).toEqual(all.filter((e) => e.seq > after).map((e) => e.seq));
            expect(got.every((s) => s >= firstRetained)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: under byte and count eviction the log holds a contiguous suffix, and a live reader sees every event once or is lost', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ size: fc.nat({ max: 300 }), read: fc.boolean() }), { minLength: 1, maxLength: 120 }),
        fc.integer({ min: 2, max: 50 }),
        fc.integer({ min: 200, max: 4000 }),
        (ops, maxEventsPerRun, maxBytesPerRun) => {
          const log = createReplayLog({ maxEventsPerRun, maxBytesPerRun });
          log.register('r');
          const cursor = openOk(log.open('r', 0, () => undefined));
          const got: number[] = [];
          for (const [i, op] of ops.entries()) {
            log.append(ev('r', i + 1, { type: 'text.delta', text: 'y'.repeat(op.size) }));
            if (op.read && !cursor.lost) got.push(...seqsOf(cursor.take(Infinity)));
          }
          if (!cursor.lost) got.push(...seqsOf(cursor.take(Infinity)));
          const held = log.events('r')?.map((e) => e.seq) ?? [];
          expect(held.at(-1)).toBe(ops.length);
          expect(held).toEqual(Array.from({ length: held.length }, (_, k) => ops.length - held.length + 1 + k));
          expect(held.length).toBeLessThanOrEqual(maxEventsPerRun);
          expect(held.length === 1 || log.stats().bytes <= maxBytesPerRun).toBe(true);
          expect(got).toEqual(Array.from({ length: got.length }, (_, k) => k + 1));
          if (!cursor.lost) expect(got).toHaveLength(ops.length);
        },
      ),
      { numRuns: 200 },
    );
  });
});
