import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadwayError } from '@headway/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import type { QueryableAuditBus } from './audit-bus.js';
import type { AuditEvent } from './audit-event.js';
import { JsonlAuditBus } from './jsonl-audit-bus.js';
import { MemoryAuditBus } from './memory-audit-bus.js';
import { SqliteAuditBus } from './sqlite-audit-bus.js';
import { unchain } from './chain.test-util.js';

const dir = mkdtempSync(join(tmpdir(), 'headway-audit-shared-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function ev(eventType: string, timestamp: number, sessionId = 's1', taskId = 't1'): AuditEvent {
  return { eventType, category: 'agent', result: 'allow', sessionId, taskId, timestamp, detail: { n: timestamp } };
}

let n = 0;
const buses: [string, () => QueryableAuditBus][] = [
  ['MemoryAuditBus', () => new MemoryAuditBus()],
  ['JsonlAuditBus', () => new JsonlAuditBus(join(dir, `audit-${(n += 1)}.jsonl`))],
  ['SqliteAuditBus', () => new SqliteAuditBus(join(dir, `audit-${(n += 1)}.db`))],
];

/** Runs `fn` and turns a sync throw into a rejection, so sync and async buses are checked alike. */
function settle<T>(fn: () => T | Promise<T>): Promise<T> {
  return new Promise<T>((resolve) => {
    resolve(fn());
  });
}

describe.each(buses)('%s, through the QueryableAuditBus interface', (_name, make) => {
  it('queries what was published, by time, filtered, newest first, limited', async () => {
    const bus = make();
    bus.publish(ev('b', 20));
    bus.publish(ev('a', 10));
    bus.publish(ev('a', 30, 's2'));
    bus.publish(ev('c', 40));
    expect((await bus.query()).map((e) => `${e.eventType}@${e.timestamp}`)).toEqual(['a@10', 'b@20', 'a@30', 'c@40']);
    expect((await bus.query({ sessionId: 's1', order: 'desc', limit: 2 })).map((e) => e.timestamp)).toEqual([40, 20]);
    expect(unchain(await bus.query({ eventType: 'a', since: 15 }))).toEqual([ev('a', 30, 's2')]);
    bus.close();
  });

  it('filters by session, task, type and time, orders by time then insertion, and limits', async () => {
    const bus = make();
    bus.publish(ev('a', 30, 's1', 't1'));
    bus.publish(ev('b', 10, 's1', 't2'));
    bus.publish(ev('a', 20, 's2', 't1'));
    bus.publish(ev('a', 20, 's1', 't1'));
    bus.publish(ev('a', 20.5, 's1', 't1'));
    const ts = async (events: AuditEvent[] | Promise<AuditEvent[]>): Promise<[number, string][]> =>
      (await events).map((e) => [e.timestamp, e.sessionId]);
    expect(await ts(bus.query())).toEqual([
      [10, 's1'],
      [20, 's2'],
      [20, 's1'],
      [20.5, 's1'],
      [30, 's1'],
    ]);
    expect(await ts(bus.query({ sessionId: 's1', eventType: 'a' }))).toEqual([
      [20, 's1'],
      [20.5, 's1'],
      [30, 's1'],
    ]);
    expect(await ts(bus.query({ taskId: 't1', since: 20, until: 30 }))).toEqual([
      [20, 's2'],
      [20, 's1'],
      [20.5, 's1'],
    ]);
    expect(await ts(bus.query({ order: 'desc', limit: 2 }))).toEqual([
      [30, 's1'],
      [20.5, 's1'],
    ]);
    expect(await ts(bus.query({ since: new Date(25) }))).toEqual([[30, 's1']]);
    expect(await bus.query({ taskId: 'nobody' })).toEqual([]);
    await expect(settle(() => bus.query({ limit: 2.5 }))).rejects.toThrow(
      'Invalid audit query: limit: invalid input: expected int, received number',
    );
    await expect(settle(() => bus.query({ limit: 0 }))).rejects.toThrow('Invalid audit query: limit:');
    await expect(settle(() => bus.query({ session: 's1' } as never))).rejects.toThrow(/unrecognized key.*session/i);
    bus.close();
  });

  it('rejects an invalid query with AUDIT_INVALID_QUERY', async () => {
    const bus = make();
    await expect(settle(() => bus.query({ limit: -1 }))).rejects.toSatisfy((e) => HeadwayError.isInstance(e, 'AUDIT_INVALID_QUERY'));
    bus.close();
  });

  it('after close, publish and query fail with AUDIT_BUS_CLOSED and close again is a no-op', async () => {
    const bus = make();
    bus.publish(ev('a', 1));
    bus.close();
    bus.close();
    expect(() => {
      bus.publish(ev('b', 2));
    }).toThrow(expect.objectContaining({ code: 'AUDIT_BUS_CLOSED' }) as Error);
    await expect(settle(() => bus.query())).rejects.toSatisfy((e) => HeadwayError.isInstance(e, 'AUDIT_BUS_CLOSED'));
  });
});
