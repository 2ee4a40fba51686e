import { HeadwayError } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from './audit-event.js';
import { MemoryAuditBus } from './memory-audit-bus.js';

function ev(eventType: string, timestamp: number, sessionId = 's1', taskId = 't1'): AuditEvent {
  return { eventType, category: 'agent', result: 'allow', sessionId, taskId, timestamp, detail: { n: timestamp } };
}

describe('MemoryAuditBus', () => {
  it('keeps events and tells subscribers until they unsubscribe', () => {
    const bus = new MemoryAuditBus();
    const seen: string[] = [];
    const stop = bus.subscribe((e) => seen.push(e.eventType));
    bus.publish(ev('a', 1));
    stop();
    bus.publish(ev('b', 2));
    expect(seen).toEqual(['a']);
    expect(bus.events.map((e) => e.eventType)).toEqual(['a', 'b']);
    bus.clear();
    expect(bus.events).toEqual([]);
  });

  it('delivers to every subscriber even when one throws, then reports it', () => {
    const bus = new MemoryAuditBus();
    const seen: string[] = [];
    bus.subscribe(() => {
      throw new Error('bad subscriber');
    });
    bus.subscribe((e) => seen.push(e.eventType));
    expect(() => {
      bus.publish(ev('a', 1));
    }).toThrow('1 audit subscriber(s) threw for "a"');
    expect(seen).toEqual(['a']);
    expect(bus.events).toHaveLength(1);
  });

  it('keeps at most maxEvents, dropping the oldest', () => {
    const bus = new MemoryAuditBus({ maxEvents: 2 });
    for (let i = 1; i <= 5; i += 1) bus.publish(ev('x', i));
    expect(bus.events.map((e) => e.timestamp)).toEqual([4, 5]);
    expect(bus.dropped).toBe(3);
    expect(() => new MemoryAuditBus({ maxEvents: 0 })).toThrow('maxEvents: expected a positive integer');
  });

  it('refuses an invalid event, naming the path, and keeps nothing', () => {
    const bus = new MemoryAuditBus();
    try {
      bus.publish({ ...ev('x', 1), category: 'network', timestamp: -1 } as unknown as AuditEvent);
      expect.unreachable();
    } catch (e) {
      expect(HeadwayError.isInstance(e, 'AUDIT_INVALID_EVENT')).toBe(true);
      expect((e as Error).message).toMatch(/category: .*"agent".*timestamp: /);
    }
    expect(bus.events).toEqual([]);
  });
});
