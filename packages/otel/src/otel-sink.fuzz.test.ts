import type { Context } from '@opentelemetry/api';
import { BasicTracerProvider, type ReadableSpan, type Span, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ProgressEvent, ProgressEventBody } from '@headway/protocol';
import { MACHINE_LOAD_FACTOR, progressEventArbitraries } from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOtelSink } from './otel-sink.js';
import { telemetry } from './otel.test-util.js';

/** A time limit of this file, stretched on a busy machine as the hostile fuzzing limits are. */
const scaled = (ms: number): number => Math.round(ms * MACHINE_LOAD_FACTOR);

/** Counts spans started and ended, so a test can tell none was left open. */
class OpenSpanCounter implements SpanProcessor {
  readonly open = new Set<string>();
  onStart(span: Span, _parent: Context): void {
    this.open.add(span.spanContext().spanId);
  }
  onEnd(span: ReadableSpan): void {
    this.open.delete(span.spanContext().spanId);
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

const HOSTILE: (() => unknown)[] = [
  revoked,
  () => null,
  () => undefined,
  () => 42,
  () => 'run.started',
  () => ({ runId: 'r1', seq: 1, ts: Number.NaN, type: 'tool.completed', toolName: 'x', durationMs: Number.POSITIVE_INFINITY, ok: true }),
  () => ({
    runId: 'r1',
    get type(): string {
      throw new Error('getter');
    },
  }),
  () => ({
    runId: 'r2',
    type: 'step.finished',
    step: 's',
    durationMs: 1,
    get usage(): never {
      throw new Error('usage getter');
    },
  }),
  () => ({
    runId: 'r3',
    seq: 1,
    ts: 1,
    type: 'tool.executing',
    toolName: 'deep',
    args: JSON.parse('['.repeat(2000) + ']'.repeat(2000)) as unknown,
  }),
  () => ({ runId: 'r3', seq: 2, ts: 2, type: 'text.delta', text: 'x'.repeat(200_000) }),
];
/** Hostile values, built fresh in the property (fast-check cannot copy a revoked proxy). */
const hostile: fc.Arbitrary<{ hostile: number }> = fc.nat({ max: HOSTILE.length - 1 }).map((i) => ({ hostile: i }));

const arbitraries = progressEventArbitraries({ text: fc.string({ maxLength: 20, unit: 'binary' }) });
const runIds = fc.constantFrom('r1', 'r2', 'r3', 'r4');
/** A stream of events over a few runs: valid bodies in any order (including after a terminal), random events, hostile values. */
const stream: fc.Arbitrary<unknown[]> = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.tuple(runIds, arbitraries.body) },
      { weight: 1, arbitrary: arbitraries.event },
      { weight: 1, arbitrary: hostile },
    ),
    { maxLength: 60 },
  )
  .map((items) => {
    let seq = 0;
    return items.map((item) => {
      if (!Array.isArray(item)) return item;
      const [runId, body] = item as [string, ProgressEventBody];
      seq += 1;
      return { ...body, runId, seq, ts: 1_767_225_600_000 + seq };
    });
  });

describe('createOtelSink under arbitrary and hostile events', () => {
  it('never throws, stays within its bounds, and leaves no span open once closed', async () => {
    await fc.assert(
      fc.asyncProperty(stream, fc.boolean(), async (events, captureContent) => {
        const counter = new OpenSpanCounter();
        const provider = new BasicTracerProvider({ spanProcessors: [counter] });
        const t = telemetry();
        const sink = createOtelSink({
          tracer: provider.getTracer('fuzz'),
          meter: t.meterProvider.getMeter('fuzz'),
          captureContent,
          maxRuns: 3,
          maxOpenSpansPerRun: 4,
        });
        for (const item of events) {
          const event =
            typeof item === 'object' && item !== null && 'hostile' in item ? HOSTILE[(item as { hostile: number }).hostile]!() : item;
          expect(() => {
            sink.handle(event as ProgressEvent);
          }).not.toThrow();
          expect(sink.openRuns).toBeLessThanOrEqual(3);
        }
        sink.close();
        expect(sink.openRuns).toBe(0);
        expect(counter.open.size).toBe(0);
        await t.reader.collect();
      }),
      { numRuns: 300, timeout: scaled(5_000) },
    );
  });

  it('closes every run that gets its terminal event without close(): no span left open', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbitraries.body, { maxLength: 40 }),
        fc.constantFrom('run.finished', 'run.error', 'run.cancelled'),
        async (bodies, end) => {
          const counter = new OpenSpanCounter();
          const sink = createOtelSink({ tracer: new BasicTracerProvider({ spanProcessors: [counter] }).getTracer('fuzz'), meter: false });
          let seq = 0;
          const feed = (body: ProgressEventBody): void => {
            seq += 1;
            sink.handle({ ...body, runId: 'only', seq, ts: 1000 + seq });
          };
          feed({ type: 'run.started', agentName: 'a' });
          for (const body of bodies.filter((b) => b.type !== 'run.finished' && b.type !== 'run.error' && b.type !== 'run.cancelled'))
            feed(body);
          feed(
            end === 'run.finished'
              ? { type: end, durationMs: 1, outcome: 'completed' }
              : end === 'run.error'
                ? { type: end, error: 'x' }
                : { type: end },
          );
          expect(sink.openRuns).toBe(0);
          expect(counter.open.size).toBe(0);
          return Promise.resolve();
        },
      ),
      { numRuns: 300, timeout: scaled(5_000) },
    );
  });
});
