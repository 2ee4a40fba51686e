// Real OpenTelemetry SDK components for the tests: a tracer provider exporting to memory, a
// meter provider with a reader the test collects on demand, and a fake clock for the runtime.
import type { Attributes, HrTime } from '@opentelemetry/api';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  AggregationTemporality,
  MeterProvider,
  MetricReader,
  type DataPoint,
  type Histogram as HistogramPoint,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { Clock } from '@headway/runtime';

class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** A tracer and meter backed by the real SDK, with their output readable. */
export interface Telemetry {
  exporter: InMemorySpanExporter;
  tracerProvider: BasicTracerProvider;
  meterProvider: MeterProvider;
  reader: CollectingReader;
}

export function telemetry(): Telemetry {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return { exporter, tracerProvider, meterProvider, reader };
}

/** A span as the tests compare it: times relative to `origin` (ms), children nested. */
export interface SpanView {
  name: string;
  kind: string;
  status: string;
  startMs: number;
  endMs: number;
  attributes: Attributes;
  events: { name: string; atMs: number; attributes: Attributes }[];
  links?: number;
  children: SpanView[];
}

const KIND = {
  [SpanKind.INTERNAL]: 'INTERNAL',
  [SpanKind.SERVER]: 'SERVER',
  [SpanKind.CLIENT]: 'CLIENT',
  [SpanKind.PRODUCER]: 'PRODUCER',
  [SpanKind.CONSUMER]: 'CONSUMER',
};

function ms(t: HrTime): number {
  return t[0] * 1000 + t[1] / 1e6;
}

function statusOf(span: ReadableSpan): string {
  const { code, message } = span.status;
  if (code === SpanStatusCode.OK) return 'OK';
  if (code === SpanStatusCode.ERROR) return `ERROR: ${message ?? ''}`;
  return 'UNSET';
}

/** The exported spans as trees, one per trace root, children in start order. */
export function spanTrees(spans: readonly ReadableSpan[], origin: number): SpanView[] {
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const view = (span: ReadableSpan): SpanView => {
    const id = span.spanContext().spanId;
    const children = spans.filter((s) => s.parentSpanContext?.spanId === id).sort((a, b) => ms(a.startTime) - ms(b.startTime));
    const v: SpanView = {
      name: span.name,
      kind: KIND[span.kind],
      status: statusOf(span),
      startMs: ms(span.startTime) - origin,
      endMs: ms(span.endTime) - origin,
      attributes: { ...span.attributes },
      events: span.events.map((e) => ({ name: e.name, atMs: ms(e.time) - origin, attributes: { ...(e.attributes ?? {}) } })),
      children: children.map(view),
    };
    if (span.links.length > 0) v.links = span.links.length;
    return v;
  };
  return spans.filter((s) => s.parentSpanContext === undefined || !ids.has(s.parentSpanContext.spanId)).map(view);
}

/** One line per span, indented by depth: the shape of a trace at a glance. */
export function outline(trees: readonly SpanView[], depth = 0): string[] {
  return trees.flatMap((t) => [`${'  '.repeat(depth)}${t.name} [${t.kind}] ${t.status}`, ...outline(t.children, depth + 1)]);
}

/** Every data point of a metric, with its attributes: `[attributes, value]` (histograms as `{count, sum}`). */
export async function metricPoints(reader: MetricReader, name: string): Promise<[Attributes, number | { count: number; sum: number }][]> {
  const { resourceMetrics } = await reader.collect();
  const out: [Attributes, number | { count: number; sum: number }][] = [];
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const metric of scope.metrics) {
      if (metric.descriptor.name !== name) continue;
      for (const point of metric.dataPoints as DataPoint<number | HistogramPoint>[]) {
        const value = point.value;
        out.push([point.attributes, typeof value === 'number' ? value : { count: value.count, sum: value.sum ?? 0 }]);
      }
    }
  }
  return out;
}

/** A clock the test moves by hand; timers due fire synchronously inside `advance`. */
export class FakeClock implements Clock {
  #now: number;
  #timers = new Map<number, { at: number; fn: () => void }>();
  #next = 1;
  constructor(start: number) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  setTimeout(fn: () => void, delay: number): unknown {
    const id = this.#next++;
    this.#timers.set(id, { at: this.#now + Math.max(0, delay), fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }
  advance(by: number): void {
    const until = this.#now + by;
    for (;;) {
      let due: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.#timers) if (entry[1].at <= until && (due === undefined || entry[1].at < due[1].at)) due = entry;
      if (due === undefined) break;
      this.#timers.delete(due[0]);
      this.#now = Math.max(this.#now, due[1].at);
      due[1].fn();
    }
    this.#now = until;
  }
}
