import { createProgressHub, HeadwayError, ManualClock, PROGRESS_EVENT_TYPES, systemClock, type ProgressEvent } from '@headway/protocol';
import { callSevenMethods } from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { bodyArb, clock, deferred, eventArb } from './arbitraries.test-util.js';
import { AuditError } from './audit-error.js';
import { AUDIT_EVENT_TYPES, auditEventSchema, type AuditEvent } from './audit-event.js';
import { AuditReporter, type AuditReporterErrorContext } from './audit-reporter.js';
import { MemoryAuditBus } from './memory-audit-bus.js';
import { reporterEvent, unchain } from './chain.test-util.js';

function setup(options: Partial<ConstructorParameters<typeof AuditReporter>[0]> = {}) {
  const bus = new MemoryAuditBus();
  const reporter = new AuditReporter({ sessionId: 'abc-123', taskId: 'task-456', bus, clock: clock(), ...options });
  return { bus, reporter };
}

describe('AuditReporter: the seven methods', () => {
  it('publishes exactly the documented audit events, values unchanged', () => {
    const { bus, reporter } = setup();
    callSevenMethods(reporter);
    expect(unchain(bus.events)).toEqual([
      reporterEvent('agent.progress.start', 1005, { task: 'Summarize the README file' }),
      reporterEvent('agent.progress.iteration', 1010, { iteration: 0, max: 10 }),
      reporterEvent('agent.progress.update', 1015, { pct: 45, label: 'Analyzing input' }),
      reporterEvent('agent.progress.tool_start', 1020, { tool: 'file_read' }),
      reporterEvent('agent.progress.tool_done', 1025, { tool: 'file_read', summary: 'ok' }),
      reporterEvent('agent.progress.iteration', 1030, { iteration: 1, max: 10 }),
      reporterEvent('agent.progress.complete', 1035, { summary: 'finished after 2 iteration(s)' }),
      reporterEvent('agent.progress.error', 1040, { error: 'Provider timeout' }),
    ]);
    expect(reporter.published).toBe(8);
    expect(reporter.failures).toBe(0);
  });

  it('passes any numbers and strings through unchanged', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), (i, max, pct, label) => {
        const { bus, reporter } = setup();
        reporter.onIteration(i, max);
        reporter.onProgress(pct, label);
        expect(bus.events.map((e) => e.detail)).toEqual([
          { iteration: i, max },
          { pct: Object.is(pct, -0) ? 0 : pct, label },
        ]);
      }),
    );
  });

  it('is a ProgressReporter a runtime can be handed, and a hub sink', () => {
    const { bus, reporter } = setup();
    const hub = createProgressHub({ runId: 'run-1', clock: clock(5000) });
    hub.add(reporter);
    hub.emit({ type: 'run.started', agentName: 'demo', task: 'Summarize' });
    hub.emit({ type: 'tool.executing', toolName: 'file_read', toolCallId: 'c1', args: { path: 'README.md' } });
    hub.emit({ type: 'tool.completed', toolName: 'file_read', toolCallId: 'c1', durationMs: 12, ok: true, preview: '# headway' });
    hub.emit({ type: 'run.finished', durationMs: 40, outcome: 'completed' });
    expect(bus.events.map((e) => [e.eventType, e.timestamp, e.detail])).toEqual([
      ['agent.progress.start', 5005, { task: 'Summarize', agentName: 'demo', runId: 'run-1', seq: 1 }],
      ['agent.progress.tool_start', 5010, { tool: 'file_read', toolCallId: 'c1', args: { path: 'README.md' }, runId: 'run-1', seq: 2 }],
      [
        'agent.progress.tool_done',
        5015,
        { tool: 'file_read', summary: 'ok', ok: true, durationMs: 12, toolCallId: 'c1', preview: '# headway', runId: 'run-1', seq: 3 },
      ],
      ['agent.progress.complete', 5020, { summary: 'finished', outcome: 'completed', durationMs: 40, runId: 'run-1', seq: 4 }],
    ]);
    expect(hub.stats().sinkErrors).toBe(0);
  });
});

describe('AuditReporter: handle(event)', () => {
  const run = { runId: 'r', seq: 7, ts: 99 };
  const cases: [ProgressEvent, string, Record<string, unknown>][] = [
    [{ ...run, type: 'run.started', agentName: 'bot' }, 'agent.progress.start', { task: 'bot', agentName: 'bot' }],
    [
      { ...run, type: 'step.started', step: 'llm-1', description: 'ask' },
      'agent.progress.step_start',
      { step: 'llm-1', description: 'ask' },
    ],
    [{ ...run, type: 'step.finished', step: 'llm-1', durationMs: 30 }, 'agent.progress.step_done', { step: 'llm-1', durationMs: 30 }],
    [{ ...run, type: 'thinking', content: 'hm' }, 'agent.progress.thinking', { content: 'hm' }],
    [{ ...run, type: 'progress', percent: 45, etaMs: 1200 }, 'agent.progress.update', { pct: 45, label: '', etaMs: 1200 }],
    [
      { ...run, type: 'tool.completed', toolName: 'x', durationMs: 3, ok: false },
      'agent.progress.tool_done',
      { tool: 'x', summary: 'error', ok: false, durationMs: 3 },
    ],
    [{ ...run, type: 'intermediate.result', content: 'half' }, 'agent.progress.intermediate_result', { content: 'half' }],
    [{ ...run, type: 'iteration', index: 0, max: 10 }, 'agent.progress.iteration', { iteration: 0, max: 10 }],
    [
      { ...run, type: 'run.finished', durationMs: 5, outcome: 'limit', tokenCount: 900 },
      'agent.progress.complete',
      { summary: 'stopped at a limit', outcome: 'limit', durationMs: 5, tokenCount: 900 },
    ],
    [{ ...run, type: 'run.error', error: 'boom' }, 'agent.progress.error', { error: 'boom' }],
    [{ ...run, type: 'run.cancelled', reason: 'user' }, 'agent.progress.cancelled', { reason: 'user' }],
    [
      { ...run, type: 'limit.approaching', limit: 'iterations', used: 8, max: 10 },
      'agent.progress.limit_approaching',
      { limit: 'iterations', used: 8, max: 10 },
    ],
    [
      { ...run, type: 'limit.reached', limit: 'time', used: 60_000, max: 60_000 },
      'agent.progress.limit_reached',
      { limit: 'time', used: 60_000, max: 60_000 },
    ],
    [
      { ...run, type: 'wind-down.started', reason: 'time budget', graceIterations: 2 },
      'agent.progress.wind_down',
      { reason: 'time budget', graceIterations: 2 },
    ],
    [
      { ...run, type: 'timeout.extended', byMs: 1000, totalBudgetMs: 61_000 },
      'agent.progress.timeout_extended',
      { byMs: 1000, totalBudgetMs: 61_000 },
    ],
    [
      { ...run, type: 'checkpoint.saved', checkpointId: 'cp-3', iteration: 3 },
      'agent.progress.checkpoint',
      { checkpointId: 'cp-3', iteration: 3 },
    ],
  ];

  it.each(cases)('maps %o', (event, eventType, detail) => {
    const { bus, reporter } = setup();
    reporter.handle(event);
    expect(unchain(bus.events)).toEqual([
      {
        eventType,
        category: 'agent',
        result: 'allow',
        sessionId: 'abc-123',
        taskId: 'task-456',
        timestamp: 99,
        detail: { ...detail, runId: 'r', seq: 7 },
      },
    ]);
  });

  it('carries the whole progress report', () => {
    const { bus, reporter } = setup();
    const report = {
      task: 'Summarize',
      reason: 'max-iterations' as const,
      completedWork: ['read README'],
      keyFindings: ['it is short'],
      attemptedInconclusive: [],
      remaining: ['write summary'],
      suggestedNextSteps: ['summarize'],
      stats: { iterations: 10, toolCalls: 4, elapsedMs: 900 },
      generatedBy: 'fallback' as const,
    };
    reporter.handle({ ...run, type: 'report.generated', report });
    expect(bus.events[0]?.eventType).toBe('agent.progress.report');
    expect(bus.events[0]?.detail).toEqual({ report, runId: 'r', seq: 7 });
  });

  it('skips text deltas unless asked', () => {
    const quiet = setup();
    quiet.reporter.handle({ ...run, type: 'text.delta', text: 'Hel' });
    expect(quiet.bus.events).toEqual([]);
    const loud = setup({ textDeltas: true });
    loud.reporter.handle({ ...run, type: 'text.delta', text: 'Hel' });
    expect(loud.bus.events.map((e) => [e.eventType, e.detail])).toEqual([['agent.progress.text', { text: 'Hel', runId: 'r', seq: 7 }]]);
  });

  it('carries the whole plan and the ETA range', () => {
    const { bus, reporter } = setup();
    reporter.handle({
      ...run,
      type: 'plan.updated',
      items: [
        { id: 'a', text: 'Read', status: 'completed' },
        { text: 'Fix', status: 'in_progress' },
      ],
    });
    reporter.handle({ ...run, type: 'progress', percent: 40, etaMs: 120_000, etaLowMs: 60_000, etaHighMs: 300_000 });
    expect(bus.events.map((e) => [e.eventType, e.detail])).toEqual([
      [
        'agent.progress.plan',
        {
          items: [
            { id: 'a', text: 'Read', status: 'completed' },
            { text: 'Fix', status: 'in_progress' },
          ],
          runId: 'r',
          seq: 7,
        },
      ],
      ['agent.progress.update', { pct: 40, label: '', etaMs: 120_000, etaLowMs: 60_000, etaHighMs: 300_000, runId: 'r', seq: 7 }],
    ]);
  });

  it('carries a stall with its evidence, and its end', () => {
    const { bus, reporter } = setup();
    reporter.handle({
      ...run,
      type: 'stall.detected',
      kind: 'repeated-call',
      evidence: { toolCallIds: ['c1', 'c2'], subject: 'ls src/work', repeats: 5 },
      since: 3,
    });
    reporter.handle({ ...run, type: 'stall.cleared', kind: 'repeated-call', since: 3 });
    expect(bus.events.map((e) => [e.eventType, e.detail])).toEqual([
      [
        'agent.progress.stall_detected',
        { kind: 'repeated-call', since: 3, subject: 'ls src/work', repeats: 5, toolCallIds: ['c1', 'c2'], runId: 'r', seq: 7 },
      ],
      ['agent.progress.stall_cleared', { kind: 'repeated-call', since: 3, runId: 'r', seq: 7 }],
    ]);
  });

  it('maps every event type to a documented audit type, and every audit event is valid', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(eventArb, (event) => {
        const { bus, reporter } = setup({ textDeltas: true });
        reporter.handle(event);
        expect(reporter.failures).toBe(0);
        expect(bus.events).toHaveLength(1);
        const audit = bus.events[0]!;
        expect(AUDIT_EVENT_TYPES).toContain(audit.eventType);
        expect(auditEventSchema.safeParse(audit).success).toBe(true);
        expect(audit.detail).toMatchObject({ runId: event.runId, seq: event.seq });
        expect(audit.timestamp).toBe(event.ts);
        seen.add(event.type);
      }),
      { numRuns: 500 },
    );
    expect([...seen].sort()).toEqual([...PROGRESS_EVENT_TYPES].sort());
  });
});

describe('AuditReporter: never throws into or stalls the caller', () => {
  it('suppresses, counts and reports a bus that throws', () => {
    const onInternalError = vi.fn<(error: unknown, context: AuditReporterErrorContext) => void>();
    const boom = new Error('disk full');
    const reporter = new AuditReporter({
      sessionId: 's',
      taskId: 't',
      bus: {
        publish: () => {
          throw boom;
        },
      },
      onInternalError,
    });
    expect(() => {
      reporter.onStart('x');
      reporter.onToolStart('y');
    }).not.toThrow();
    expect(reporter.failures).toBe(2);
    expect(reporter.published).toBe(0);
    expect(onInternalError.mock.calls).toEqual([
      [boom, { where: 'publish', eventType: 'agent.progress.start' }],
      [boom, { where: 'publish', eventType: 'agent.progress.tool_start' }],
    ]);
  });

  it('suppresses, counts and reports a bus that rejects', async () => {
    const errors: unknown[] = [];
    const reporter = new AuditReporter({
      sessionId: 's',
      taskId: 't',
      bus: { publish: () => Promise.reject(new Error('network down')) },
      onInternalError: (e) => errors.push(e),
    });
    reporter.onStart('x');
    reporter.onComplete('done');
    expect(await reporter.flush()).toBe(true);
    expect(reporter.failures).toBe(2);
    expect(errors.map((e) => (e as Error).message)).toEqual(['network down', 'network down']);
  });

  it('survives a throwing onInternalError, a throwing clock, a hostile thenable and garbage events', async () => {
    const reporter = new AuditReporter({
      sessionId: 's',
      taskId: 't',
      bus: {
        publish: () => ({
          then: () => {
            throw new Error('hostile');
          },
        }),
      },
      clock: {
        ...systemClock,
        now: () => {
          throw new Error('no clock');
        },
      },
      onInternalError: () => {
        throw new Error('handler broke too');
      },
    });
    expect(() => {
      reporter.onStart('x');
      reporter.handle({ runId: 'r', seq: 1, ts: 1, type: 'thinking', content: 'c' });
      reporter.handle(null as unknown as ProgressEvent);
      reporter.handle({ type: 'nonsense' } as unknown as ProgressEvent);
      // A stamped event of a type this version does not know (a newer protocol) is skipped, not a failure.
      reporter.handle({ runId: 'r', seq: 2, ts: 2, type: 'future.thing' } as unknown as ProgressEvent);
    }).not.toThrow();
    // The thenable's failure arrives as a rejection, once the bus is asked.
    expect(await reporter.flush()).toBe(true);
    expect(reporter.failures).toBe(4);
  });

  it.each([
    [
      'a then getter that throws',
      () =>
        Object.defineProperty({}, 'then', {
          get: () => {
            throw new Error('getter');
          },
        }),
    ],
    [
      'a revoked proxy',
      () => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      },
    ],
    [
      'a then that calls back twice',
      () => ({
        then: (ok: () => void, fail: (e: unknown) => void) => {
          ok();
          fail(new Error('late'));
          ok();
        },
      }),
    ],
  ])('takes %s from a bus without throwing, and keeps publishing', async (_name, make) => {
    const errors: unknown[] = [];
    let calls = 0;
    const reporter = new AuditReporter({
      sessionId: 's',
      taskId: 't',
      bus: {
        publish: () => {
          calls += 1;
          return make() as PromiseLike<void>;
        },
      },
      onInternalError: (e) => errors.push(e),
    });
    expect(() => {
      reporter.onStart('a');
      reporter.onProgress(1, 'b');
      reporter.onComplete('c');
    }).not.toThrow();
    expect(await reporter.flush()).toBe(true);
    expect(calls).toBe(3);
    expect(reporter.published + reporter.failures).toBe(3);
  });

  it('never hands a bus an event with a bad timestamp', () => {
    const errors: unknown[] = [];
    const { bus, reporter } = setup({ clock: { ...systemClock, now: () => Number.NaN }, onInternalError: (e) => errors.push(e) });
    reporter.onStart('x');
    expect(bus.events).toEqual([]);
    expect(reporter.failures).toBe(1);
    expect((errors[0] as Error).message).toBe('now() returned NaN, not epoch milliseconds');
  });

  it('describes a hostile value from now() without running its code', () => {
    const errors: unknown[] = [];
    const hostile = {
      toString: () => {
        throw new Error('toString throws');
      },
    };
    const { bus, reporter } = setup({
      clock: { ...systemClock, now: () => hostile as unknown as number },
      onInternalError: (e) => errors.push(e),
    });
    reporter.onStart('x');
    expect(bus.events).toEqual([]);
    expect((errors[0] as Error).message).toBe('now() returned [object], not epoch milliseconds');
  });

  it('suppresses a value it cannot serialise safely and a value the bus rejects as invalid', () => {
    const { bus, reporter } = setup();
    const weird = { type: 'tool.executing', toolName: 'x', runId: 'r', seq: 1, ts: -5, args: { n: 10n } } as unknown as ProgressEvent;
    reporter.handle(weird);
    expect(reporter.failures).toBe(1); // a negative ts is refused
    expect(bus.events).toEqual([]);
    reporter.handle({ ...weird, ts: 5 });
    expect(bus.events[0]?.detail.args).toEqual({ n: '10' });
  });

  it('delivers to an async bus one at a time, in order, without waiting', async () => {
    const published: string[] = [];
    const gates: ReturnType<typeof deferred>[] = [];
    const reporter = new AuditReporter({
      sessionId: 's',
      taskId: 't',
      bus: {
        publish: (event) => {
          published.push(String(event.detail.tool));
          const gate = deferred();
          gates.push(gate);
          return gate.promise;
        },
      },
    });
    for (const name of ['a', 'b', 'c']) reporter.onToolStart(name);
    expect(published).toEqual(['a']);
    gates[0]!.resolve();
    await gates[0]!.promise;
    await Promise.resolve();
    expect(published).toEqual(['a', 'b']);
    gates[1]!.reject(new Error('lost'));
    await vi.waitFor(() => {
      expect(published).toEqual(['a', 'b', 'c']);
    });
    gates[2]!.resolve();
    expect(await reporter.flush()).toBe(true);
    expect(reporter.published).toBe(2);
    expect(reporter.failures).toBe(1);
  });

  it('bounds the queue of a stalled bus, dropping the oldest, and reports it once', async () => {
    const fake = new ManualClock();
    const seen: number[] = [];
    const onInternalError = vi.fn();
    const stalled = deferred();
    let calls = 0;
    const reporter = new AuditReporter({
      sessionId: 's',
      taskId: 't',
      queueLimit: 3,
      clock: fake,
      onInternalError,
      bus: {
        publish: (event) => {
          calls += 1;
          seen.push(event.detail.iteration as number);
          return calls === 1 ? stalled.promise : undefined;
        },
      },
    });
    for (let i = 0; i < 10; i += 1) reporter.onIteration(i, 10);
    expect(reporter.dropped).toBe(6);
    expect(onInternalError).toHaveBeenCalledTimes(1);
    expect(HeadwayError.isInstance(onInternalError.mock.calls[0]?.[0], 'AUDIT_EVENTS_DROPPED')).toBe(true);
    const timedOut = reporter.flush({ timeoutMs: 50 });
    await fake.advance(50);
    expect(await timedOut).toBe(false);
    stalled.resolve();
    expect(await reporter.flush()).toBe(true);
    expect(seen).toEqual([0, 7, 8, 9]);
    expect(reporter.failures).toBe(0);
  });

  it('never throws whatever is called, and counts exactly the failures of a flaky bus', () => {
    const call = fc.oneof(
      fc.tuple(fc.constant('onStart' as const), fc.string()),
      fc.tuple(fc.constant('onProgress' as const), fc.double(), fc.string()),
      fc.tuple(fc.constant('onToolStart' as const), fc.string()),
      fc.tuple(fc.constant('onToolDone' as const), fc.string(), fc.string()),
      fc.tuple(fc.constant('onIteration' as const), fc.integer(), fc.integer()),
      fc.tuple(fc.constant('onComplete' as const), fc.string()),
      fc.tuple(fc.constant('onError' as const), fc.string()),
      fc.tuple(fc.constant('handle' as const), eventArb),
      fc.tuple(fc.constant('handle' as const), bodyArb),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(call, fc.boolean()), { maxLength: 30 }), (calls) => {
        let thrown = 0;
        let next = true;
        const reporter = new AuditReporter({
          sessionId: 's',
          taskId: 't',
          textDeltas: true,
          bus: {
            publish: () => {
              if (next) return;
              thrown += 1;
              throw new Error('flaky');
            },
          },
        });
        let unstamped = 0;
        for (const [[method, ...args], ok] of calls) {
          next = ok;
          if (method === 'handle' && !('ts' in (args[0] as object))) unstamped += 1;
          const fn = Reflect.get(reporter, method) as (...a: unknown[]) => void;
          expect(() => {
            Reflect.apply(fn, reporter, args);
          }).not.toThrow();
        }
        expect(reporter.failures).toBe(thrown + unstamped);
        expect(reporter.published).toBe(calls.length - reporter.failures);
      }),
      { numRuns: 300 },
    );
  });
});

describe('AuditReporter: redaction and isolation', () => {
  it('redacts configured paths and built-in secrets before the bus, including a user bus', () => {
    const received: AuditEvent[] = [];
    const reporter = new AuditReporter({
      sessionId: 's',
      taskId: 't',
      bus: { publish: (e) => void received.push(e) },
      redact: { paths: ['detail.args.customerSsn'] },
    });
    reporter.handle({
      runId: 'r',
      seq: 1,
      ts: 1,
      type: 'tool.executing',
      toolName: 'http',
      args: {
        customerSsn: '123-45-6789',
        apiKey: 'plain',
        url: 'https://admin:hunter2hunter2@example.com/x',
        note: 'use sk-abcdefghijklmnopqrstuvwx',
      },
    });
    reporter.onToolDone('http', 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz123456');
    expect(received.map((e) => e.detail)).toEqual([
      {
        tool: 'http',
        args: { customerSsn: '[REDACTED]', apiKey: '[REDACTED]', url: 'https://admin:[REDACTED]@example.com/x', note: 'use [REDACTED]' },
        runId: 'r',
        seq: 1,
      },
      { tool: 'http', summary: 'Authorization: Bearer [REDACTED]' },
    ]);
  });

  it('redacts the ids it writes with every event', () => {
    const bus = new MemoryAuditBus();
    const reporter = new AuditReporter({
      sessionId: 'sess-sk-abcdefghijklmnopqrstuvwx',
      taskId: 'customer-7',
      bus,
      redact: { paths: ['taskId'] },
    });
    reporter.onStart('x');
    expect(bus.events.map((e) => [e.sessionId, e.taskId])).toEqual([['sess-[REDACTED]', '[REDACTED]']]);
  });

  it('gives the bus a plain-JSON copy, never the caller’s objects', () => {
    const { bus, reporter } = setup();
    const args = { path: 'a', when: new Date(0), nested: { list: [1, 2] } };
    reporter.handle({ runId: 'r', seq: 1, ts: 1, type: 'tool.executing', toolName: 'x', args });
    args.nested.list.push(3);
    expect(bus.events[0]?.detail.args).toEqual({ path: 'a', when: '1970-01-01T00:00:00.000Z', nested: { list: [1, 2] } });
  });

  it('hands over frozen events, and a changed copy is validated again by the buses', () => {
    const { bus, reporter } = setup();
    reporter.onStart('x');
    const event = bus.events[0]!;
    expect(Object.isFrozen(event)).toBe(true);
    expect(() => {
      bus.publish({ ...event, timestamp: -1 });
    }).toThrow('Invalid audit event: timestamp:');
  });

  it('rejects bad options when it is created, naming each one', () => {
    expect(() => new AuditReporter({ sessionId: 1, bus: {} } as never)).toThrow(
      'Invalid AuditReporter options: sessionId: expected a string; taskId: expected a string; bus: expected an object with publish(event)',
    );
    try {
      new AuditReporter({ sessionId: 's', taskId: 't', bus: new MemoryAuditBus(), queueLimit: 0 });
    } catch (e) {
      expect(e).toBeInstanceOf(AuditError);
      expect((e as AuditError).issues).toEqual([{ path: 'queueLimit', message: 'expected a positive integer' }]);
    }
    expect(() => new AuditReporter({ sessionId: 's', taskId: 't', bus: new MemoryAuditBus(), redact: { paths: ['a..b'] } })).toThrow(
      /invalid path/,
    );
  });
});
