import {
  ROOT_CONTEXT,
  context,
  createNoopMeter,
  metrics,
  trace,
  type Context,
  type Link,
  type Meter,
  type SpanContext,
  type Tracer,
} from '@opentelemetry/api';
import {
  type InternalErrorContext,
  type OnInternalError,
  type ProgressEvent,
  type RedactOptions,
  type TerminalEvent,
} from '@headway/protocol';
import { contentCapture, type ContentCapture } from './content.js';
import { RunTrace, type TraceDeps } from './run-trace.js';
import { createSinkMetrics, metricAttributes, type SinkMetrics } from './sink-metrics.js';

/** The instrumentation scope name of the default tracer and meter. */
export const INSTRUMENTATION_SCOPE = '@headway/otel';

/** Where a failure the sink survived happened, passed to `onInternalError`. */
export interface OtelSinkErrorContext extends InternalErrorContext {
  /** `trace`: the tracer, a span or its processor/exporter threw; `metrics`: the meter or an instrument threw. */
  where: 'trace' | 'metrics';
  /** The run whose event was being handled, when known. */
  runId?: string;
  /** The event type being handled (`close` while the sink closes its runs). */
  eventType: string;
}

/** Options of {@link createOtelSink}. */
export interface OtelSinkOptions {
  /** Tracer for the spans (default: the global tracer provider's `@headway/otel` tracer). */
  tracer?: Tracer;
  /** Meter for the metrics (default: the global meter provider's); `false` records no metrics. */
  meter?: Meter | false;
  /**
   * Record message contents (the task, tool arguments and results, streamed text, thinking,
   * progress messages): off by default. What is recorded is redacted with headway's `redact`
   * (API keys, `DB_PASSWORD=…`, bearer tokens, URL passwords, secret-named keys); `redact: false`
   * turns that off, for a trusted, local collector only.
   */
  captureContent?: boolean | { maxLength?: number; redact?: RedactOptions | false };
  /** Agent name for a run whose events do not name it (a run resumed from a checkpoint). */
  agentName?: string;
  /**
   * The span context of an earlier segment of a run (a run resumed from a checkpoint in
   * another process), to link the resumed segment's trace to. See the README.
   */
  linkResumed?: (runId: string) => SpanContext | undefined;
  /**
   * The parent of a run's span (default: the active context when the run's first event is
   * handled, so a run inside a request span becomes its child).
   */
  parentContext?: (event: ProgressEvent) => Context;
  /** Child spans (model calls, steps, tool calls) a run may have open before the oldest is ended (default 256). */
  maxOpenSpansPerRun?: number;
  /** Runs tracked at once before the oldest is ended as abandoned (default 1000). */
  maxRuns?: number;
  /** Told about every failure the sink survived; its own errors are ignored. */
  onInternalError?: OnInternalError<OtelSinkErrorContext>;
}

/** Counters of an {@link OtelSink}. */
export interface OtelSinkStats {
  /** Events handled. */
  events: number;
  /** Runs whose terminal event arrived. */
  runsEnded: number;
  /** Runs ended without a terminal event (the sink closed, or dropped them to stay within `maxRuns`). */
  runsAbandoned: number;
  /** Failures survived (each also went to `onInternalError`). */
  internalErrors: number;
}

/** A hub sink that traces runs: add it with `hub.add(sink)` or `sinks: [sink]`. */
export interface OtelSink {
  /** Handles one event; never throws. */
  handle(event: ProgressEvent): void;
  /** Runs being traced now (their terminal event has not arrived). */
  readonly openRuns: number;
  /** The span context of a run's `invoke_agent` span (open, or among the recently ended), to store for {@link OtelSinkOptions.linkResumed}. */
  spanContext(runId: string): SpanContext | undefined;
  /** Ends every run still open as abandoned (at shutdown), so no span stays open. */
  close(): void;
  stats(): OtelSinkStats;
}

const DEFAULT_MAX_CONTENT = 8192;

/**
 * A progress-hub sink that turns each run's events into one OpenTelemetry trace with the
 * GenAI semantic conventions (an `invoke_agent` span, `chat` and `execute_tool` children,
 * progress, limits and checkpoints as span events) and records GenAI metrics. Whichever loop
 * produced the events. A throwing tracer, meter or exporter never reaches the run: failures
 * are counted and passed to `onInternalError`.
 *
 * @example
 * ```ts
 * import { createProgressHub } from '@headway/protocol';
 * import { createOtelSink } from '@headway/otel';
 *
 * const hub = createProgressHub({ runId: 'run-1' });
 * hub.add(createOtelSink()); // the global tracer and meter providers
 * ```
 */
export function createOtelSink(options: OtelSinkOptions = {}): OtelSink {
  const maxRuns = Math.max(1, Math.floor(options.maxRuns ?? 1000));
  const onInternalError = options.onInternalError;
  const counters: OtelSinkStats = { events: 0, runsEnded: 0, runsAbandoned: 0, internalErrors: 0 };
  const runs = new Map<string, RunTrace>();
  /** Runs ended lately: a late event for one is ignored, and its span context can still be linked. */
  const ended = new Map<string, SpanContext | undefined>();

  function fail(error: unknown, ctx: OtelSinkErrorContext): void {
    counters.internalErrors += 1;
    if (onInternalError === undefined) return;
    try {
      onInternalError(error, ctx);
    } catch {
      // The error callback may not break the run either.
    }
  }

  function guard(stage: OtelSinkErrorContext['where'], runId: string | undefined, eventType: string, fn: () => void): boolean {
    try {
      fn();
      return true;
    } catch (error) {
      fail(error, runId === undefined ? { where: stage, eventType } : { where: stage, runId, eventType });
      return false;
    }
  }

  let content: ContentCapture | undefined;
  const capture = options.captureContent;
  if (capture !== undefined && capture !== false) {
    const settings = capture === true ? {} : capture;
    content = contentCapture(Math.max(1, settings.maxLength ?? DEFAULT_MAX_CONTENT), settings.redact);
  }
  let tracer: Tracer | undefined = options.tracer;
  if (tracer === undefined) guard('trace', undefined, 'create', () => (tracer = trace.getTracer(INSTRUMENTATION_SCOPE)));
  let sinkMetrics: SinkMetrics | undefined;
  if (options.meter !== false) {
    const given = options.meter;
    guard('metrics', undefined, 'create', () => {
      const meter = given ?? metrics.getMeter(INSTRUMENTATION_SCOPE);
      // The API's no-op meter (no SDK registered) records nothing: skip the work of feeding it.
      if (meter !== createNoopMeter()) sinkMetrics = createSinkMetrics(meter);
    });
  }

  function remember(run: RunTrace): void {
    let spanContext: SpanContext | undefined;
    guard('trace', run.runId, 'close', () => (spanContext = run.span.spanContext()));
    ended.delete(run.runId);
    ended.set(run.runId, spanContext);
    if (ended.size > maxRuns) {
      const oldest = ended.keys().next().value;
      if (oldest !== undefined) ended.delete(oldest);
    }
  }

  function abandon(run: RunTrace, reason: string): void {
    runs.delete(run.runId);
    counters.runsAbandoned += 1;
    remember(run);
    guard('trace', run.runId, 'close', () => {
      run.abandon(reason);
    });
  }

  function open(event: ProgressEvent, runId: string, type: string, deps: TraceDeps): RunTrace | undefined {
    let parent: Context = ROOT_CONTEXT;
    guard('trace', runId, type, () => (parent = context.active()));
    if (options.parentContext !== undefined) {
      const pick = options.parentContext;
      guard('trace', runId, type, () => (parent = pick(event)));
    }
    const links: Link[] = [];
    if (type !== 'run.started' && options.linkResumed !== undefined) {
      const link = options.linkResumed;
      guard('trace', runId, type, () => {
        const earlier = link(runId);
        if (earlier !== undefined) links.push({ context: earlier, attributes: { 'headway.link': 'resumed_from' } });
      });
    }
    let run: RunTrace | undefined;
    if (!guard('trace', runId, type, () => (run = new RunTrace(deps, event, runId, parent, options.agentName, links)))) return undefined;
    if (run === undefined) return undefined;
    runs.set(runId, run);
    if (runs.size > maxRuns) {
      const oldest = runs.values().next().value;
      if (oldest !== undefined) abandon(oldest, 'dropped: too many runs open in this sink');
    }
    return run;
  }

  let deps: TraceDeps | undefined;
  if (tracer !== undefined) {
    deps = {
      tracer,
      metrics: sinkMetrics,
      content,
      maxOpenSpans: Math.max(1, Math.floor(options.maxOpenSpansPerRun ?? 256)),
      guard,
      fail: (error, stage, runId, eventType) => {
        fail(error, { where: stage, runId, eventType });
      },
      attributes: metricAttributes(),
    };
  }

  return {
    handle(event) {
      counters.events += 1;
      if (deps === undefined) return;
      let runId: string;
      let type: string;
      try {
        // Read once: the event is the hub's, but a sink must survive anything.
        runId = event.runId;
        type = event.type;
      } catch (error) {
        fail(error, { where: 'trace', eventType: 'unknown' });
        return;
      }
      // The most frequent event carries only text: without content capture it changes nothing.
      if (type === 'text.delta' && content === undefined) return;
      let run = runs.get(runId);
      if (run === undefined) {
        if (ended.has(runId)) return;
        run = open(event, runId, type, deps);
        if (run === undefined) return;
      }
      const current = run;
      if (type === 'run.finished' || type === 'run.error' || type === 'run.cancelled') {
        runs.delete(runId);
        counters.runsEnded += 1;
        remember(current);
        guard('trace', runId, type, () => {
          current.close(event as TerminalEvent);
        });
        return;
      }
      // Inline rather than through guard(): this is the per-event hot path.
      try {
        current.apply(event);
      } catch (error) {
        fail(error, { where: 'trace', runId, eventType: type });
      }
    },
    get openRuns() {
      return runs.size;
    },
    spanContext(runId) {
      const run = runs.get(runId);
      if (run !== undefined) {
        let spanContext: SpanContext | undefined;
        guard('trace', runId, 'spanContext', () => (spanContext = run.span.spanContext()));
        return spanContext;
      }
      return ended.get(runId);
    },
    close() {
      for (const run of [...runs.values()]) abandon(run, 'the sink closed before the run ended');
    },
    stats() {
      return { ...counters };
    },
  };
}
