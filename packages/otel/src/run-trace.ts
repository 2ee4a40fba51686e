// One run's trace: the `invoke_agent` span, its open `chat`, step and `execute_tool` children,
// and the run's totals. The sink (otel-sink.ts) owns isolation, bounds and the run registry;
// span events are built in span-events.ts. Over 300 lines because the span life cycle (open
// children keyed by step and call id, the unrecorded fast path, the close) shares one state.
import { SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Link, type Span, type Tracer } from '@opentelemetry/api';
import { runEndOf, type ProgressEvent, type ProgressEventOf, type RunEndState, type TerminalEvent } from '@headway/protocol';
import type { ContentCapture } from './content.js';
import { hrTime } from './hr-time.js';
import { ERROR_TYPE_OTHER, GEN_AI, HEADWAY, OPERATION } from './names.js';
import { runSpanEvent } from './span-events.js';
import { endInterrupted, errorText, options } from './spans.js';
import { recordNonNegative, type MetricAttributes, type SinkMetrics } from './sink-metrics.js';

/**
 * How a run ended, as the `headway.run.outcome` attribute and the runs metric say it: the state word
 * of protocol's one run-state vocabulary (`runEndOf`).
 */
export type RunOutcome = Exclude<RunEndState, 'interrupted'>;

/** What every run of one sink shares. */
export interface TraceDeps {
  tracer: Tracer;
  metrics: SinkMetrics | undefined;
  content: ContentCapture | undefined;
  maxOpenSpans: number;
  /** Runs `fn`; an error it throws is counted and reported under `stage`, never rethrown. */
  guard(stage: 'trace' | 'metrics', runId: string, eventType: string, fn: () => void): void;
  /** Counts and reports an error the sink survived. */
  fail(error: unknown, stage: 'trace' | 'metrics', runId: string, eventType: string): void;
  /** Metric attribute sets, built once per provider and model, tool and outcome. */
  attributes: MetricAttributes;
}

interface OpenSpan {
  readonly span: Span;
  readonly kind: 'chat' | 'step' | 'tool';
  readonly name: string;
  readonly provider: string | undefined;
  readonly model: string | undefined;
  /** Streamed text of a model call, kept only when content capture is on. */
  output: string;
}

/** Spans of one run, from its first event to its terminal one. */
export class RunTrace {
  readonly runId: string;
  readonly span: Span;
  readonly #deps: TraceDeps;
  readonly #context: Context;
  readonly #firstTs: number;
  /** Open child spans by key (`tool:<id>`, `step:<name>`), oldest first. */
  readonly #open = new Map<string, OpenSpan>();
  #toolKeys = 0;
  #agentName: string | undefined;
  #iteration: number | undefined;
  #iterationsUsed = 0;
  #inputTokens = 0;
  #outputTokens = 0;
  #costUsd: number | undefined;
  /** Model calls that finished without a cost (their model has no price): the spend total leaves them out. */
  #unpricedCalls = 0;
  /** A cost limit was set or a call had a cost: the run's spend is tracked, so a call without one is unpriced. */
  #costTracked = false;
  #providerSet = false;
  #limit: string | undefined;
  /** False when the run span records nothing (no SDK, or sampled out): then only the metrics' bookkeeping runs. */
  readonly #recording: boolean;
  /** Provider and model of the model calls in flight, for the metrics of a run whose spans do not record. */
  readonly #calls = new Map<string, { provider: string | undefined; model: string | undefined }>();

  constructor(deps: TraceDeps, first: ProgressEvent, runId: string, parent: Context, agentName: string | undefined, links: Link[]) {
    this.#deps = deps;
    this.runId = runId;
    this.#firstTs = first.ts;
    this.#agentName = first.type === 'run.started' ? first.agentName : agentName;
    const attributes: Attributes = { [GEN_AI.operation]: OPERATION.invokeAgent, [HEADWAY.runId]: runId };
    if (this.#agentName !== undefined) attributes[GEN_AI.agentName] = this.#agentName;
    if (first.type !== 'run.started') {
      // The sink never saw this run start: a run resumed from a checkpoint (or a sink added late).
      attributes[HEADWAY.resumed] = true;
      attributes[HEADWAY.firstSeq] = first.seq;
    }
    this.span = deps.tracer.startSpan(
      this.#agentName === undefined ? OPERATION.invokeAgent : `${OPERATION.invokeAgent} ${this.#agentName}`,
      options(SpanKind.INTERNAL, attributes, first.ts, links),
      parent,
    );
    this.#recording = this.span.isRecording();
    // Children of a span that records nothing are never started, so they need no context.
    this.#context = this.#recording ? trace.setSpan(parent, this.span) : parent;
  }

  /** Open child spans (chat, steps, tools) right now. */
  get openSpans(): number {
    return this.#open.size;
  }

  /** Applies a non-terminal event. */
  apply(event: ProgressEvent): void {
    if (!this.#recording) {
      this.#applyUnrecorded(event);
      return;
    }
    const ts = hrTime(event.ts);
    switch (event.type) {
      case 'run.started':
        this.#started(event);
        return;
      case 'iteration':
        this.#iteration = event.index;
        this.#iterationsUsed = Math.max(this.#iterationsUsed, event.index + 1);
        this.span.setAttributes({ [HEADWAY.iterationsUsed]: this.#iterationsUsed, [HEADWAY.iterationsMax]: event.max });
        return;
      case 'step.started':
        this.#stepStarted(event);
        return;
      case 'step.finished':
        this.#stepFinished(event);
        return;
      case 'text.delta': {
        const content = this.#deps.content;
        if (content === undefined) return;
        const call = this.#lastOpen('chat');
        if (call !== undefined && call.output.length < content.maxLength) call.output += event.text;
        return;
      }
      case 'tool.executing':
        this.#toolStarted(event);
        return;
      case 'tool.completed':
        this.#toolCompleted(event);
        return;
      case 'run.finished':
      case 'run.error':
      case 'run.cancelled':
        // Terminal events go through close().
        return;
      default: {
        const spanEvent = runSpanEvent(event, this.#deps.content);
        if (spanEvent !== undefined) this.span.addEvent(spanEvent.name, spanEvent.attributes, ts);
        this.#runAttributes(event);
      }
    }
  }

  /** What a span event also changes on the run span: the latest percent, budgets, limit, stop reason. */
  #runAttributes(event: ProgressEvent): void {
    switch (event.type) {
      case 'progress':
        this.span.setAttribute(HEADWAY.percent, event.percent);
        return;
      case 'timeout.extended':
        this.span.setAttribute(HEADWAY.timeBudgetMs, event.totalBudgetMs);
        return;
      case 'report.generated':
        this.span.setAttribute(HEADWAY.stopReason, event.report.reason);
        return;
      case 'limit.approaching':
      case 'limit.reached':
        this.#limitAttributes(event);
        return;
      default:
        return;
    }
  }

  /** The cheap path: children of a span that records nothing record nothing either, but metrics still count. */
  #applyUnrecorded(event: ProgressEvent): void {
    switch (event.type) {
      case 'run.started':
        this.#agentName ??= event.agentName;
        return;
      case 'iteration':
        this.#iterationsUsed = Math.max(this.#iterationsUsed, event.index + 1);
        return;
      case 'step.started':
        if (event.provider === undefined && event.model === undefined) return;
        this.#calls.set(event.step, { provider: event.provider, model: event.model });
        if (this.#calls.size > this.#deps.maxOpenSpans) {
          const oldest = this.#calls.keys().next().value;
          if (oldest !== undefined) this.#calls.delete(oldest);
        }
        return;
      case 'step.finished': {
        const call = this.#calls.get(event.step);
        this.#calls.delete(event.step);
        if (event.usage !== undefined) {
          this.#inputTokens += event.usage.inputTokens;
          this.#outputTokens += event.usage.outputTokens;
        }
        if (event.costUsd !== undefined) this.#costUsd = (this.#costUsd ?? 0) + event.costUsd;
        if (call !== undefined || event.usage !== undefined || event.finishReason !== undefined)
          this.#recordCall(call?.provider, call?.model, event);
        return;
      }
      case 'tool.completed':
        this.#recordTool(event);
        return;
      default:
        return;
    }
  }

  #started(event: ProgressEventOf<'run.started'>): void {
    const attributes: Attributes = {};
    if (this.#agentName === undefined) {
      this.#agentName = event.agentName;
      this.span.updateName(`${OPERATION.invokeAgent} ${event.agentName}`);
    }
    attributes[GEN_AI.agentName] = this.#agentName;
    if (event.sessionId !== undefined) attributes[GEN_AI.conversationId] = event.sessionId;
    const limits = event.limits;
    if (limits?.iterations !== undefined) attributes[HEADWAY.iterationsMax] = limits.iterations;
    if (limits?.time !== undefined) attributes[HEADWAY.timeBudgetMs] = limits.time;
    if (limits?.cost !== undefined) {
      attributes[HEADWAY.costMaxUsd] = limits.cost;
      this.#costTracked = true;
    }
    const content = this.#deps.content;
    if (content !== undefined && event.task !== undefined) {
      attributes[GEN_AI.inputMessages] = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: content.text(event.task) }] }]);
    }
    this.span.setAttributes(attributes);
  }

  #stepStarted(event: ProgressEventOf<'step.started'>): void {
    const isModelCall = event.provider !== undefined || event.model !== undefined;
    const attributes: Attributes = { [HEADWAY.step]: event.step };
    if (this.#iteration !== undefined) attributes[HEADWAY.iteration] = this.#iteration;
    let name: string;
    if (isModelCall) {
      attributes[GEN_AI.operation] = OPERATION.chat;
      if (event.provider !== undefined) attributes[GEN_AI.providerName] = event.provider;
      if (event.model !== undefined) attributes[GEN_AI.requestModel] = event.model;
      name = event.model === undefined ? OPERATION.chat : `${OPERATION.chat} ${event.model}`;
      if (!this.#providerSet) {
        // The run span names the provider and model of its first call (its default model).
        this.#providerSet = true;
        const runAttributes: Attributes = {};
        if (event.provider !== undefined) runAttributes[GEN_AI.providerName] = event.provider;
        if (event.model !== undefined) runAttributes[GEN_AI.requestModel] = event.model;
        this.span.setAttributes(runAttributes);
      }
    } else {
      name = `step ${event.step}`;
    }
    const span = this.#deps.tracer.startSpan(
      name,
      options(isModelCall ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes, event.ts),
      this.#context,
    );
    this.#track(`step:${event.step}`, {
      span,
      kind: isModelCall ? 'chat' : 'step',
      name: event.step,
      provider: event.provider,
      model: event.model,
      output: '',
    });
  }

  #stepFinished(event: ProgressEventOf<'step.finished'>): void {
    const key = `step:${event.step}`;
    let open = this.#open.get(key);
    this.#open.delete(key);
    const isModelCall =
      event.usage !== undefined || event.finishReason !== undefined || event.costUsd !== undefined || open?.kind === 'chat';
    if (open === undefined) {
      // The sink missed the start (added late): the span is rebuilt from the duration.
      const attributes: Attributes = { [HEADWAY.step]: event.step };
      if (isModelCall) attributes[GEN_AI.operation] = OPERATION.chat;
      const span = this.#deps.tracer.startSpan(
        isModelCall ? OPERATION.chat : `step ${event.step}`,
        options(isModelCall ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes, event.ts - event.durationMs),
        this.#context,
      );
      open = { span, kind: isModelCall ? 'chat' : 'step', name: event.step, provider: undefined, model: undefined, output: '' };
    }
    const { span } = open;
    const attributes: Attributes = {};
    if (event.usage !== undefined) {
      attributes[GEN_AI.inputTokens] = event.usage.inputTokens;
      attributes[GEN_AI.outputTokens] = event.usage.outputTokens;
      this.#inputTokens += event.usage.inputTokens;
      this.#outputTokens += event.usage.outputTokens;
      this.span.setAttributes({ [GEN_AI.inputTokens]: this.#inputTokens, [GEN_AI.outputTokens]: this.#outputTokens });
    }
    if (event.finishReason !== undefined) attributes[GEN_AI.finishReasons] = [event.finishReason];
    if (event.costUsd !== undefined) {
      attributes[HEADWAY.costUsd] = event.costUsd;
      this.#costUsd = (this.#costUsd ?? 0) + event.costUsd;
      this.#costTracked = true;
      this.span.setAttribute(HEADWAY.costUsedUsd, this.#costUsd);
    } else if (event.usage !== undefined) {
      this.#unpricedCalls += 1;
    }
    const content = this.#deps.content;
    if (content !== undefined && open.kind === 'chat' && open.output !== '') {
      attributes[GEN_AI.outputMessages] = JSON.stringify([
        { role: 'assistant', parts: [{ type: 'text', content: content.text(open.output) }] },
      ]);
    }
    span.setAttributes(attributes);
    span.end(hrTime(event.ts));
    if (isModelCall) this.#recordCall(open.provider, open.model, event);
  }

  #recordCall(provider: string | undefined, model: string | undefined, event: ProgressEventOf<'step.finished'>): void {
    const metrics = this.#deps.metrics;
    if (metrics === undefined) return;
    try {
      const attributes = this.#deps.attributes.call(provider, model);
      recordNonNegative(metrics.operationDuration, event.durationMs / 1000, attributes.base);
      if (event.usage !== undefined) {
        recordNonNegative(metrics.tokenUsage, event.usage.inputTokens, attributes.input);
        recordNonNegative(metrics.tokenUsage, event.usage.outputTokens, attributes.output);
      }
    } catch (error) {
      this.#deps.fail(error, 'metrics', this.runId, event.type);
    }
  }

  #recordTool(event: ProgressEventOf<'tool.completed'>): void {
    const metrics = this.#deps.metrics;
    if (metrics === undefined) return;
    try {
      recordNonNegative(metrics.toolDuration, event.durationMs / 1000, this.#deps.attributes.tool(event.toolName, event.ok));
    } catch (error) {
      this.#deps.fail(error, 'metrics', this.runId, event.type);
    }
  }

  #toolStarted(event: ProgressEventOf<'tool.executing'>): void {
    const attributes: Attributes = {
      [GEN_AI.operation]: OPERATION.executeTool,
      [GEN_AI.toolName]: event.toolName,
      [GEN_AI.toolType]: 'function',
    };
    if (event.toolCallId !== undefined) attributes[GEN_AI.toolCallId] = event.toolCallId;
    if (this.#iteration !== undefined) attributes[HEADWAY.iteration] = this.#iteration;
    const content = this.#deps.content;
    if (content !== undefined && event.args !== undefined) attributes[GEN_AI.toolArguments] = content.json(event.args);
    const key = event.toolCallId === undefined ? `tool#${String(this.#toolKeys++)}:${event.toolName}` : `tool:${event.toolCallId}`;
    const previous = this.#open.get(key);
    if (previous !== undefined) {
      // The same call started again (a resumed run re-runs the call that was in flight).
      this.#open.delete(key);
      endInterrupted(previous.span, 'the call was started again', event.ts);
    }
    const span = this.#deps.tracer.startSpan(
      `${OPERATION.executeTool} ${event.toolName}`,
      options(SpanKind.INTERNAL, attributes, event.ts),
      this.#context,
    );
    this.#track(key, { span, kind: 'tool', name: event.toolName, provider: undefined, model: undefined, output: '' });
  }

  #toolCompleted(event: ProgressEventOf<'tool.completed'>): void {
    let key: string | undefined = event.toolCallId === undefined ? undefined : `tool:${event.toolCallId}`;
    if (key === undefined || !this.#open.has(key)) {
      // Without an id (or an unknown one), the oldest open call of that tool.
      key = undefined;
      for (const [k, o] of this.#open) {
        if (o.kind === 'tool' && o.name === event.toolName && (event.toolCallId === undefined || !k.startsWith('tool:'))) {
          key = k;
          break;
        }
      }
    }
    let open = key === undefined ? undefined : this.#open.get(key);
    if (key !== undefined) this.#open.delete(key);
    if (open === undefined) {
      const attributes: Attributes = {
        [GEN_AI.operation]: OPERATION.executeTool,
        [GEN_AI.toolName]: event.toolName,
        [GEN_AI.toolType]: 'function',
      };
      if (event.toolCallId !== undefined) attributes[GEN_AI.toolCallId] = event.toolCallId;
      const span = this.#deps.tracer.startSpan(
        `${OPERATION.executeTool} ${event.toolName}`,
        options(SpanKind.INTERNAL, attributes, event.ts - event.durationMs),
        this.#context,
      );
      open = { span, kind: 'tool', name: event.toolName, provider: undefined, model: undefined, output: '' };
    }
    const { span } = open;
    const outcome = event.ok ? 'ok' : 'error';
    const attributes: Attributes = { [HEADWAY.toolOutcome]: outcome };
    const content = this.#deps.content;
    if (content !== undefined && event.preview !== undefined) attributes[GEN_AI.toolResult] = content.text(event.preview);
    if (!event.ok) attributes[GEN_AI.errorType] = 'tool_error';
    span.setAttributes(attributes);
    if (!event.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: `${event.toolName} failed` });
    span.end(hrTime(event.ts));
    this.#recordTool(event);
  }

  #limitAttributes(event: ProgressEventOf<'limit.approaching'> | ProgressEventOf<'limit.reached'>): void {
    const attributes: Attributes = {};
    switch (event.limit) {
      case 'iterations':
        attributes[HEADWAY.iterationsMax] = event.max;
        break;
      case 'time':
        attributes[HEADWAY.timeBudgetMs] = event.max;
        break;
      case 'cost':
        attributes[HEADWAY.costMaxUsd] = event.max;
        break;
    }
    if (event.type === 'limit.reached') {
      this.#limit = event.limit;
      attributes[HEADWAY.limit] = event.limit;
    }
    this.span.setAttributes(attributes);
  }

  #lastOpen(kind: OpenSpan['kind']): OpenSpan | undefined {
    let found: OpenSpan | undefined;
    for (const o of this.#open.values()) if (o.kind === kind) found = o;
    return found;
  }

  /** Keeps a child span open, ending the oldest when the run has too many. */
  #track(key: string, open: OpenSpan): void {
    const previous = this.#open.get(key);
    if (previous !== undefined) {
      this.#open.delete(key);
      endInterrupted(previous.span, 'a step of the same name started again', undefined);
    }
    this.#open.set(key, open);
    while (this.#open.size > this.#deps.maxOpenSpans) {
      const oldest = this.#open.entries().next().value;
      if (oldest === undefined) break;
      this.#open.delete(oldest[0]);
      endInterrupted(oldest[1].span, 'too many spans open in this run', undefined);
    }
  }

  /** Ends the run: open children end with an error status, then the run span with its outcome. */
  close(event: TerminalEvent): void {
    const end = runEndOf(event);
    // A terminal event never says interrupted (that is a run without one).
    const outcome: RunOutcome = end.state === 'interrupted' ? 'failed' : end.state;
    this.#limit ??= end.limit;
    this.#endOpen(`the run ended (${outcome}) before this finished`, event.ts, event.type);
    const attributes: Attributes = { [HEADWAY.outcome]: outcome, [HEADWAY.iterationsUsed]: this.#iterationsUsed };
    if (outcome === 'limit' && this.#limit !== undefined) attributes[HEADWAY.limit] = this.#limit;
    const durationMs = event.type === 'run.finished' ? event.durationMs : event.ts - this.#firstTs;
    attributes[HEADWAY.timeUsedMs] = durationMs;
    if (this.#costUsd !== undefined) attributes[HEADWAY.costUsedUsd] = this.#costUsd;
    // The spend total leaves out calls whose cost is unknown: say how many, never count them as $0.
    if (this.#costTracked && this.#unpricedCalls > 0) attributes[HEADWAY.costUnpricedCalls] = this.#unpricedCalls;
    const span = this.span;
    let errorType: string | undefined;
    switch (event.type) {
      case 'run.finished':
        if (event.outcome === 'completed') {
          span.setStatus({ code: SpanStatusCode.OK });
        } else if (outcome === 'stalled') {
          errorType = 'stalled';
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'stalled: wound down as stuck' });
        } else {
          errorType = 'limit';
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: this.#limit === undefined ? 'stopped at a limit' : `stopped at the ${this.#limit} limit`,
          });
        }
        break;
      case 'run.error':
        errorType = ERROR_TYPE_OTHER;
        span.setStatus({ code: SpanStatusCode.ERROR, message: this.#errorText(event.error) });
        break;
      case 'run.cancelled':
        errorType = 'cancelled';
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: event.reason === undefined ? 'cancelled' : `cancelled: ${this.#errorText(event.reason)}`,
        });
        break;
    }
    if (errorType !== undefined) attributes[GEN_AI.errorType] = errorType;
    span.setAttributes(attributes);
    span.end(hrTime(event.ts));
    const metrics = this.#deps.metrics;
    if (metrics === undefined) return;
    this.#deps.guard('metrics', this.runId, event.type, () => {
      const metricAttributes: Attributes = { [GEN_AI.operation]: OPERATION.invokeAgent, [HEADWAY.outcome]: outcome };
      if (this.#agentName !== undefined) metricAttributes[GEN_AI.agentName] = this.#agentName;
      if (errorType !== undefined) metricAttributes[GEN_AI.errorType] = errorType;
      recordNonNegative(metrics.agentDuration, durationMs / 1000, metricAttributes);
      recordNonNegative(metrics.runIterations, this.#iterationsUsed, metricAttributes);
      metrics.runs.add(1, metricAttributes);
    });
  }

  /** Ends the run without a terminal event (the sink closed, or dropped the run to stay bounded). */
  abandon(reason: string): void {
    this.#endOpen(reason, undefined, 'close');
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
    this.span.setAttribute(GEN_AI.errorType, 'abandoned');
    this.span.end();
  }

  #endOpen(reason: string, ts: number | undefined, eventType: string): void {
    const open = [...this.#open.values()];
    this.#open.clear();
    for (const o of open) {
      this.#deps.guard('trace', this.runId, eventType, () => {
        endInterrupted(o.span, reason, ts);
      });
    }
  }

  #errorText(text: string): string {
    const content = this.#deps.content;
    return content === undefined ? errorText(text) : content.text(text);
  }
}
