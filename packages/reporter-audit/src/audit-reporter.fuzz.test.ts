// The reporter and the buses fed what an attacker could send: each answers
// (an event, a counted failure, a reported problem), never throws into the caller, and never
// hangs. The run parameters fail a property that goes over its time budget.
import type { ProgressEvent } from '@headway/protocol';
import { HOSTILE_RUN_PARAMETERS, hostileValueArb } from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventArb } from './arbitraries.test-util.js';
import { AuditReporter } from './audit-reporter.js';
import { MemoryAuditBus } from './memory-audit-bus.js';

const TEST_TIMEOUT = HOSTILE_RUN_PARAMETERS.interruptAfterTimeLimit + 5000;

describe('AuditReporter on hostile input', () => {
  it(
    'handle() and the seven methods never throw, whatever they are given',
    () => {
      const bus = new MemoryAuditBus();
      const reporter = new AuditReporter({ sessionId: 's', taskId: 't', bus });
      fc.assert(
        fc.property(hostileValueArb(), eventArb, (value, event) => {
          const before = reporter.published + reporter.failures;
          expect(() => {
            reporter.handle(value as ProgressEvent);
            reporter.handle({ ...event, args: value, content: value } as unknown as ProgressEvent);
            reporter.onToolDone(value as string, value as string);
            reporter.onProgress(value as number, value as string);
          }).not.toThrow();
          // Every call is accounted for: published, counted as a failure, or (handle of a
          // non-event or an event type with no audit record) skipped.
          expect(reporter.published + reporter.failures).toBeGreaterThanOrEqual(before + 2);
        }),
        HOSTILE_RUN_PARAMETERS,
      );
    },
    TEST_TIMEOUT,
  );

  it('redacts and publishes a 2 MB string containing "key" (quadratic before)', () => {
    const bus = new MemoryAuditBus();
    const reporter = new AuditReporter({ sessionId: 's', taskId: 't', bus });
    const text = `key ${'a'.repeat(2 * 1024 * 1024)}`;
    reporter.onProgress(1, text);
    expect(reporter.published).toBe(1);
    expect(bus.events[0]?.detail.label === text).toBe(true);
  }, 30_000);
});
