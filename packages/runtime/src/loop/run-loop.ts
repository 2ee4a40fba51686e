// Over 300 lines on purpose: the order of an iteration (limits, model call, tools, checkpoint) reads
// top to bottom in one class; everything that stands on its own is beside it.
import { ProgressTextFilter, ProgressTracker, extractModelProgress, stripModelProgress, type TaskHistory } from '@headway/estimator';
import {
  createProgressHub,
  isProgressReporter,
  planItemsSchema,
  redact,
  toolResultPreview,
  type ProgressEventBody,
  type ProgressHub,
  type RunLimits,
  type SinkLike,
  type StopReason,
} from '@headway/protocol';
import { errorMessage } from '@headway/protocol/internal';
import { ToolCallLog, buildReportPrompt, type ReportPromptLimits } from '@headway/report';
import { addUsage, collectStream, type CompletionResponse, type ToolSpec } from '../provider/provider.js';
import { checkResponse } from '../provider/check-response.js';
import type { ProviderRegistry } from '../provider/provider-registry.js';
import { isAbortError } from '../provider/retry-policy.js';
import { ProviderError } from '../provider/provider-error.js';
import { ConfigError } from './config-error.js';
import { createUnpricedCalls } from '../cost/unpriced-calls.js';
import { recordModelCost } from '../cost/model-cost.js';
import { ContextRunner } from '../context/context-runner.js';
import type { ContextRunInfo, ContextIteration } from '../context/context-part.js';
import { openToolProgress } from '../tools/tool-progress.js';
import type { AgentConfig } from './agent-config.js';
import { executeToolCall } from './execute-tool-call.js';
import { leaseLostReason } from './lease-guard.js';
import { finishRun, type Outcome, type RunResult } from './finish-run.js';
import type { LoopContext } from './loop-context.js';
import { VERIFICATION_PROMPT, strategyRotationPrompt } from './loop-prompts.js';
import type { RunState, ToolCallStatus } from './run-state.js';
import { StopSignal, cancelReason, raceStop, type Stop } from './stop-signal.js';
import type { Tool } from '../tools/define-tool.js';
import { updatePlanTool } from '../tools/update-plan-tool.js';
import type { RuntimeErrorWhere } from './internal-error-context.js';
import { TimeBudget, costLimit, iterationLimit, stallLimit, type LimitAnswer, type TimeAnswer } from './limits.js';
import { StallWatch } from './stall-watch.js';

/** How long a context part's `afterRun` may take before the run's result is returned without it. */
const CONTEXT_AFTER_RUN_MS = 10_000;

/** Consecutive failures of one tool that trigger a strategy-rotation prompt. */
const STRATEGY_ROTATION_AFTER = 3;

/** Hub name prefix of a user's seven-method reporter, so its failures report `where: 'reporter'`. */
const REPORTER_SINK = 'reporter';

/** A seven-method reporter (the hub bridges it), as opposed to a sink function or `handle` object. */
function isReporter(sink: SinkLike): boolean {
  return typeof sink !== 'function' && typeof (sink as { handle?: unknown }).handle !== 'function' && isProgressReporter(sink);
}

/** The budgets of `run.started`: iterations always, time and cost when set (a cost cap of 0 is none). */
function runLimits(config: AgentConfig): RunLimits {
  return {
    iterations: config.maxIterations,
    ...(config.timeBudgetMs === undefined ? {} : { time: config.timeBudgetMs }),
    ...(config.maxSpendUsd > 0 ? { cost: config.maxSpendUsd } : {}),
  };
}

/** The model-call facts of `step.started`: the provider a call goes to (none when none is available), and the model asked for. */
function modelOf(registry: ProviderRegistry, config: AgentConfig): { provider?: string; model?: string } {
  let provider: string | undefined;
  try {
    provider = registry.resolve();
  } catch {
    // The call itself reports that no provider is available.
  }
  return { ...(provider === undefined ? {} : { provider }), ...(config.model === undefined ? {} : { model: config.model }) };
}

/**
 * One run of the agent tool loop, from a {@link RunState} (fresh or restored) to a
 * {@link RunResult}. Internal: AgentRuntime creates it; a resumed run creates it from a
 * checkpoint's state. Each iteration asks the limits, calls the model, runs the tools and
 * checkpoints. Its helpers stand beside it: the limits, the time budget among them, decide when
 * and why the run stops (`limits.ts`); tool execution (`execute-tool-call.ts`), interrupting an
 * await (`stop-signal.ts`) and the end with its report (`finish-run.ts`).
 */
export class RunLoop {
  readonly state: RunState;
  readonly #ctx: LoopContext;
  readonly #hub: ProgressHub;
  #tracker: ProgressTracker;
  readonly #context: ContextRunner;
  readonly #log: ToolCallLog;
  readonly #abort = new AbortController();
  /** This run's calls whose model has no price: counted, and said once per model under a cost limit. */
  readonly #unpriced = createUnpricedCalls("give it a price in the runtime's prices");
  readonly #time: TimeBudget;
  readonly #stall: StallWatch;
  #stop: Stop | undefined;
  #checkpointId: string | undefined;

  constructor(ctx: LoopContext, state: RunState) {
    this.#ctx = ctx;
    this.state = state;
    const { clock, config } = ctx;
    this.#hub = createProgressHub({
      runId: state.runId,
      clock,
      lastSeq: state.lastSeq,
      // The hub isolates every sink (throws, rejections, hostile thenables) and bridges
      // seven-method reporters itself; only the `where` the runtime reports is decided here.
      onInternalError: (error, context) => {
        ctx.onInternalError(error, context.sink.startsWith(REPORTER_SINK) ? 'reporter' : 'sink');
      },
    });
    if (ctx.extraSink !== undefined) this.#hub.add(ctx.extraSink, { name: 'runStream' });
    ctx.sinks.forEach((sink, i) => {
      this.#hub.add(sink, isReporter(sink) ? { name: `${REPORTER_SINK}#${i + 1}` } : {});
    });
    this.#tracker = this.#newTracker(undefined);
    this.#context = new ContextRunner(ctx.context, ctx.onInternalError, (work) => raceStop(work, this.#abort.signal));
    this.#log = state.log === null || state.log === undefined ? new ToolCallLog() : ToolCallLog.fromJSON(state.log);
    this.#stall = new StallWatch({
      config,
      tools: ctx.tools,
      emit: (body) => {
        this.#emit(body);
      },
      setStalled: (stalled) => {
        this.#tracker.setStalled(stalled);
      },
      onInternalError: ctx.onInternalError,
    });
    this.#time = new TimeBudget({ config, clock, state, onTimeout: ctx.onTimeout, onInternalError: ctx.onInternalError });
  }

  #newTracker(history: TaskHistory | undefined): ProgressTracker {
    const { clock, config } = this.#ctx;
    const { state } = this;
    return new ProgressTracker({
      maxIterations: config.maxIterations,
      emit: (body) => {
        this.#emit(body);
      },
      clock,
      aiDriven: config.progress.aiDriven,
      ...(config.progress.fallbackSteps.length > 0 ? { steps: config.progress.fallbackSteps } : {}),
      ...(state.tracker === null || state.tracker === undefined ? {} : { state: state.tracker }),
      ...(history === undefined ? {} : { history }),
    });
  }

  get #singleIteration(): boolean {
    return this.#ctx.toolSpecs.length === 0 || this.#ctx.config.maxIterations === 1;
  }

  async execute(): Promise<RunResult> {
    const { state } = this;
    const userSignal = this.#ctx.signal;
    const onAbort = (): void => {
      this.#halt({ status: 'cancelled', reason: cancelReason(userSignal?.reason) });
    };
    if (state.lastSeq === 0)
      this.#emit({
        type: 'run.started',
        agentName: this.#ctx.config.agentName,
        task: state.task ?? state.input,
        sessionId: state.sessionId,
        limits: runLimits(this.#ctx.config),
        ...(state.parentRunId === undefined ? {} : { parentRunId: state.parentRunId }),
      });
    let outcome: Outcome;
    try {
      if (userSignal?.aborted === true) onAbort();
      userSignal?.addEventListener('abort', onAbort, { once: true });
      if (!this.#context.empty) {
        // Parts may know how long this kind of task usually takes: the bar and ETA start from it.
        const history = await this.#context.beforeRun(this.#runInfo());
        if (history !== undefined) this.#tracker = this.#newTracker(history);
      }
      if (!this.#singleIteration) await this.#createCheckpoint();
      this.#time.start(this.#abort.signal, (answer) => {
        this.#heed(answer);
      });
      outcome = this.#singleIteration ? await this.#runSingleIteration() : await this.#runToolLoop();
    } catch (error) {
      // An await interrupted by a stop (a cancel, a lost lease, the time budget's hard stop) ends
      // with the stop as it was decided where it was made; anything else failed the run.
      outcome = this.#stop ?? failureOf(error, this.#ctx.signal);
    } finally {
      userSignal?.removeEventListener('abort', onAbort);
      this.#time.end();
    }
    const result = finishRun(outcome, {
      state,
      clock: this.#ctx.clock,
      log: this.#log,
      tracker: this.#tracker,
      emit: (body) => {
        this.#emit(body);
      },
      onInternalError: this.#ctx.onInternalError,
      ...(this.#stall.lastStall === undefined ? {} : { stall: this.#stall.lastStall }),
    });
    state.status = result.status;
    if (result.end !== undefined) state.end = result.end;
    this.#snapshot();
    if (this.#checkpointId !== undefined) {
      const id = this.#checkpointId;
      const checkpointer = this.#ctx.checkpointer;
      await this.#safely('checkpoint.finish', () =>
        outcome.status === 'error' ? checkpointer?.fail(id, state, outcome.error) : checkpointer?.complete(id, state),
      );
    }
    if (!this.#context.empty) await this.#afterRun(result.status, result.text);
    return result;
  }

  // ── the loop ────────────────────────────────────────────────────────────────

  async #runSingleIteration(): Promise<Outcome> {
    this.#checkStopped();
    this.#emit({ type: 'iteration', index: this.state.iteration, max: this.#ctx.config.maxIterations });
    const cost = this.#costReached();
    if (cost !== undefined) return cost;
    const response = await this.#callModel([]);
    this.#tracker.iterationFinished();
    return { status: 'completed', text: response.visible };
  }

  /**
   * Each iteration: ask the limits, call the model, run the tools, checkpoint. A limit that is
   * reached answers with the reason the run ends with; the last iteration offers no tools and
   * asks for the report.
   */
  async #runToolLoop(): Promise<Outcome> {
    const { state } = this;
    for (;;) {
      this.#checkStopped();
      if (state.inFlight === null) {
        const index = state.iteration;
        const limits = this.#askLimits();
        if ('stop' in limits) return limits.stop;
        const response = await this.#callModel(limits.tools);
        if (limits.reason !== undefined && (limits.tools.length === 0 || response.toolCalls.length === 0)) {
          this.#tracker.iterationFinished();
          return { status: 'limit', reason: limits.reason, modelText: response.visible };
        }
        if (response.toolCalls.length === 0) {
          this.#tracker.iterationFinished();
          return { status: 'completed', text: response.visible };
        }
        state.inFlight = {
          iteration: index,
          toolCalls: response.toolCalls.map((c): ToolCallStatus => ({ ...c, status: 'pending' })),
        };
      }
      // A resumed run whose tools were in flight finishes that iteration first.
      await this.#runTools();
      await this.#updateCheckpoint('iteration');
    }
  }

  /**
   * Asks the limits as an iteration begins: a stall may start the wind-down, the iteration limit
   * warns or is reached, a winding-down run counts a grace iteration off, and a session over its
   * cost budget stops before spending more. Says which tools the model is offered and, once a
   * limit is reached, the reason the run ends with after this iteration.
   */
  #askLimits(): { tools: readonly ToolSpec[]; reason?: StopReason } | { stop: Outcome } {
    const index = this.state.iteration;
    const max = this.#ctx.config.maxIterations;
    const stalled = stallLimit(this.#stall.windDown).reached;
    if (stalled !== undefined) this.#heed(this.#time.windDown(stalled, 1));
    this.#emit({ type: 'iteration', index, max });
    const iterations = iterationLimit(index, max);
    if (iterations.approaching !== undefined) this.#approach(iterations.approaching);
    let tools: readonly ToolSpec[] = this.#ctx.toolSpecs;
    let reason: StopReason | undefined;
    const grace = this.#time.graceIteration();
    if (grace !== undefined) {
      reason = grace.reason;
      if (grace.requestReport) this.#requestReport(grace.reason);
      // The last grace iteration must end in text: no tools.
      if (grace.last) tools = [];
    }
    if (iterations.reached !== undefined) {
      tools = [];
      if (reason === undefined) {
        this.#emit({ type: 'limit.reached', limit: 'iterations', used: max, max });
        this.#requestReport(iterations.reached);
        reason = iterations.reached;
      }
    }
    const cost = this.#costReached();
    if (cost !== undefined) return { stop: cost };
    return reason === undefined ? { tools } : { tools, reason };
  }

  #requestReport(reason: StopReason): void {
    const { config, clock } = this.#ctx;
    const limits: ReportPromptLimits = {
      iterations: this.state.iteration,
      maxIterations: config.maxIterations,
      elapsedMs: Math.max(0, clock.now() - this.state.startedAt),
    };
    if (config.timeBudgetMs !== undefined) limits.timeBudgetMs = config.timeBudgetMs + this.state.extendedMs;
    const stall = this.#stall.lastStall;
    if (reason === 'stalled' && stall !== undefined) limits.stall = stall;
    const prompt = buildReportPrompt(reason, { task: this.state.task ?? this.state.input, log: this.#log, limits });
    this.state.messages.push({ role: 'user', content: prompt });
  }

  /** One provider call: events, usage, `_progress`, the assistant message. */
  async #callModel(offered: readonly ToolSpec[]): Promise<CompletionResponse & { visible: string }> {
    let tools = offered;
    const { state } = this;
    const { config, clock, registry } = this.#ctx;
    const index = state.iteration;
    const step = `llm-${index + 1}`;
    let messages = state.messages.slice();
    if (!this.#context.empty) {
      const info = this.#iterationInfo(index);
      await this.#context.beforeIteration(info);
      const assembled = await this.#context.assemble(info, state.messages, tools);
      if (assembled.conversation !== undefined) state.messages = assembled.conversation;
      messages = assembled.messages;
      tools = assembled.tools;
    }
    this.#tracker.iterationStarted();
    this.#emit({
      type: 'step.started',
      step,
      description: tools.length > 0 ? 'model call' : 'model call (no tools)',
      ...modelOf(registry, config),
    });
    const startedAt = clock.now();
    const request = {
      messages,
      tools: tools as ToolSpec[],
      temperature: config.temperature,
      ...(config.model === undefined ? {} : { model: config.model }),
    };
    const signal = this.#abort.signal;
    let answer: unknown;
    if (this.#ctx.stream) {
      const filter = new ProgressTextFilter();
      answer = await this.#race(
        collectStream(registry.stream(request, { signal }), (chunk) => {
          if (chunk.type !== 'text-delta' || typeof chunk.text !== 'string') return;
          const text = filter.push(chunk.text);
          if (text !== '') this.#emit({ type: 'text.delta', text });
        }),
      );
      const rest = filter.flush();
      if (rest !== '') this.#emit({ type: 'text.delta', text: rest });
    } else {
      answer = await this.#race(registry.complete(request, { signal }));
    }
    // A provider is foreign code: its answer is checked, and its tool-call ids made unique in the run.
    const response = checkResponse(answer, { provider: registry.preferred, messages: state.messages, iteration: index });
    state.iteration += 1;
    state.usage = addUsage(state.usage, response.usage);
    const spentBefore = state.spentUsd;
    const priced = this.#recordSpend(response);
    this.#emit({
      type: 'step.finished',
      step,
      durationMs: Math.max(0, clock.now() - startedAt),
      usage: { inputTokens: response.usage.inputTokens, outputTokens: response.usage.outputTokens },
      finishReason: response.finishReason,
      // A call whose model has no price carries no cost: unknown, never $0.
      ...(priced ? { costUsd: state.spentUsd - spentBefore } : {}),
    });
    if (response.reasoning !== undefined && response.reasoning !== '') this.#emit({ type: 'thinking', content: response.reasoning });
    const toolCalls = tools.length === 0 ? [] : response.toolCalls;
    state.messages.push(
      toolCalls.length > 0 ? { role: 'assistant', content: response.content, toolCalls } : { role: 'assistant', content: response.content },
    );
    const visible = stripModelProgress(response.content);
    if (config.progress.aiDriven) {
      const progress = extractModelProgress(response.content, {
        onReject: (reason) => {
          this.#ctx.onInternalError(
            new ProviderError('PROVIDER_INVALID_RESPONSE', `model _progress rejected: ${reason}`),
            'model-progress',
          );
        },
      });
      if (progress !== undefined) this.#tracker.reportModelProgress(progress);
    }
    if (visible.trim() !== '') {
      this.#log.recordText({ iteration: index + 1, text: visible });
      this.#stall.text(index, visible);
    }
    return { ...response, toolCalls, visible };
  }

  /** Runs the calls of the iteration in flight that have not finished, then closes the iteration. */
  async #runTools(): Promise<void> {
    const { state } = this;
    const inFlight = state.inFlight;
    if (inFlight === null) return;
    const followUps: string[] = [];
    this.#tracker.toolsStarted();
    for (const call of inFlight.toolCalls) {
      if (call.status === 'finished') continue;
      const lost = await leaseLostReason(this.#ctx.checkpointer, this.#checkpointId, this.#ctx.onInternalError);
      if (lost !== undefined) this.#halt({ status: 'cancelled', reason: lost });
      this.#checkStopped();
      call.status = 'started';
      await this.#updateCheckpoint('tool-started');
      this.#emit({
        type: 'tool.executing',
        toolName: call.name,
        toolCallId: call.id,
        args: this.#ctx.redact ? redact(call.args) : call.args,
      });
      const result = await executeToolCall(call, inFlight.iteration, {
        tools: this.#ctx.tools,
        clock: this.#ctx.clock,
        runId: state.runId,
        stop: this.#abort.signal,
        stopped: () => this.#stop !== undefined,
        emit: (body) => {
          this.#emit(body);
        },
        onInternalError: this.#ctx.onInternalError,
        externalize: this.#ctx.externalize,
        openProgress: () =>
          openToolProgress(this.#tracker, {
            iteration: inFlight.iteration,
            maxIterations: this.#ctx.config.maxIterations,
            callsLeft: inFlight.toolCalls.filter((c) => c.status !== 'finished').length,
          }),
      });
      call.status = 'finished';
      if (result.ok && this.#ctx.tools.get(call.name) === (updatePlanTool as Tool)) this.#planUpdated(call.args);
      call.result = { content: result.content, ok: result.ok, durationMs: result.durationMs };
      state.messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: result.content });
      if (!state.toolsUsed.includes(call.name)) state.toolsUsed.push(call.name);
      this.#emit({
        type: 'tool.completed',
        toolName: call.name,
        toolCallId: call.id,
        durationMs: result.durationMs,
        ok: result.ok,
        // Redacted here, where the event is made: any sink may be a browser, a stream or a trace.
        preview: toolResultPreview(result.raw, 100, this.#ctx.redact ? {} : { redact: false }),
      });
      this.#tracker.toolCallFinished(call.name, result.ok);
      this.#stall.toolCall({
        iteration: inFlight.iteration,
        id: call.id,
        name: call.name,
        args: call.args,
        result: result.raw,
        ok: result.ok,
      });
      this.#log.recordToolCall({
        iteration: inFlight.iteration + 1,
        name: call.name,
        args: call.args,
        result: result.raw,
        ok: result.ok,
        durationMs: result.durationMs,
      });
      const streak = result.ok ? 0 : (state.failureStreaks[call.name] ?? 0) + 1;
      state.failureStreaks[call.name] = streak;
      if (streak >= STRATEGY_ROTATION_AFTER) {
        state.failureStreaks[call.name] = 0;
        // For the model, which had the whole result already: not an event, so not redacted.
        followUps.push(strategyRotationPrompt(call.name, streak, toolResultPreview(result.raw, 200, { redact: false })));
        this.#emit({ type: 'strategy.rotated', toolName: call.name, failures: streak });
      }
      await this.#updateCheckpoint('tool-finished');
    }
    this.#stall.iterationFinished(inFlight.iteration);
    const nudge = this.#stall.takeNudge();
    if (nudge !== undefined) followUps.push(nudge);
    for (const text of followUps) state.messages.push({ role: 'user', content: text });
    state.messages.push({ role: 'user', content: VERIFICATION_PROMPT });
    state.inFlight = null;
    this.#tracker.iterationFinished();
  }

  /** The built-in plan tool succeeded: the plan goes to the event stream, the bar and the report. */
  #planUpdated(args: unknown): void {
    const parsed = planItemsSchema.safeParse((args as { items?: unknown } | null)?.items);
    if (!parsed.success) return;
    const event = { type: 'plan.updated', items: this.#ctx.redact ? redact(parsed.data) : parsed.data } as const;
    this.#emit(event);
    this.#tracker.planUpdated(event);
    this.#log.recordPlan(event.items);
    this.#stall.plan(event.items.filter((item) => item.status === 'completed').length);
  }

  // ── limits ──────────────────────────────────────────────────────────────────

  /** Before a provider call: a session at or over its budget stops the run before it spends more. */
  #costReached(): Outcome | undefined {
    const spend = this.#ctx.spend;
    if (spend === undefined) return undefined;
    const cost = costLimit(spend, this.state.sessionId);
    if (cost.reached === undefined) return undefined;
    this.#emit({ type: 'limit.reached', limit: 'cost', used: cost.spentUsd, max: cost.budgetUsd });
    return this.#halt({ status: 'limit', reason: cost.reached });
  }

  /**
   * After a provider call: its price is added to the run's and the session's spend and to the run's
   * cost by model. Returns false when the call has no known cost (its model has no price).
   */
  #recordSpend(response: CompletionResponse): boolean {
    const spend = this.#ctx.spend;
    if (spend === undefined) return false;
    let priced = false;
    try {
      const { costUsd, model } = spend.record(this.state.sessionId, response.usage);
      if (costUsd !== undefined) this.state.spentUsd += costUsd;
      recordModelCost((this.state.costByModel ??= []), model, response.usage, costUsd);
      priced = costUsd !== undefined;
      if (!priced) {
        // The one rule for a call of unknown cost, as every bridge's: left out of the spend, said once per model.
        const told = this.#unpriced.record(model, spend.check(this.state.sessionId).budgetUsd);
        if (told !== undefined) this.#ctx.onInternalError(told, 'cost');
      }
    } catch (error) {
      this.#ctx.onInternalError(error, 'cost');
    }
    const { approaching } = costLimit(spend, this.state.sessionId);
    if (approaching !== undefined) this.#approach(approaching);
    return priced;
  }

  /** The 80% warning of a limit, once per run. */
  #approach({ limit, used, max }: NonNullable<LimitAnswer['approaching']>): void {
    if (this.state.approached.includes(limit)) return;
    this.state.approached.push(limit);
    this.#emit({ type: 'limit.approaching', limit, used, max });
  }

  /** What the time budget says when its clock says it: a warning, the limit reached, the wind-down, the hard stop. */
  #heed(answer: TimeAnswer): void {
    if (answer.approaching !== undefined) this.#approach(answer.approaching);
    for (const body of answer.say ?? []) this.#emit(body);
    if (answer.stopNow === true && answer.reached !== undefined) this.#halt({ status: 'limit', reason: answer.reached });
  }

  /** Stops the run now: aborts the provider call and tools in flight. The first stop is the one the run ends with. */
  #halt(stop: Stop): Stop {
    if (this.#stop !== undefined || this.#hub.ended) return this.#stop ?? stop;
    this.#stop = stop;
    this.#abort.abort(new StopSignal());
    return stop;
  }

  #checkStopped(): void {
    if (this.#stop !== undefined) throw new StopSignal();
  }

  #race<T>(work: Promise<T>): Promise<T> {
    return raceStop<T>(work, this.#abort.signal);
  }

  // ── context parts ───────────────────────────────────────────────────────────

  #runInfo(): ContextRunInfo {
    const { config, registry } = this.#ctx;
    return {
      runId: this.state.runId,
      sessionId: this.state.sessionId,
      task: this.state.task ?? this.state.input,
      provider: modelOf(registry, config).provider,
      model: config.model,
      maxIterations: config.maxIterations,
      signal: this.#abort.signal,
    };
  }

  #iterationInfo(iteration: number): ContextIteration {
    return {
      ...this.#runInfo(),
      iteration,
      showProgress: (message) => {
        const before = this.#tracker.toJSON().message;
        this.#tracker.setMessage(message);
        return () => {
          this.#tracker.setMessage(before ?? '');
        };
      },
    };
  }

  /** Tells the parts how the run ended; each gets at most `CONTEXT_AFTER_RUN_MS` of the runtime's clock. */
  async #afterRun(status: Exclude<RunState['status'], 'running'>, text: string): Promise<void> {
    const { clock } = this.#ctx;
    const toolCalls = this.#log.entries().flatMap((e) => (e.kind === 'tool' ? [e.name] : []));
    const outcome = {
      ...this.#runInfo(),
      status,
      iterations: this.state.iteration,
      durationMs: Math.max(0, clock.now() - this.state.startedAt),
      toolCalls,
      text,
    };
    await this.#context.afterRun(outcome, <T>(work: unknown) => {
      const deadline = new AbortController();
      const timer = clock.setTimeout(() => {
        deadline.abort(
          new ConfigError('RUNTIME_CALLBACK_TIMEOUT', `context part took longer than ${CONTEXT_AFTER_RUN_MS} ms after the run`),
        );
      }, CONTEXT_AFTER_RUN_MS);
      const done = new AbortController();
      return raceStop<T>(work, done.signal, deadline.signal).finally(() => {
        clock.clearTimeout(timer);
      });
    });
  }

  // ── plumbing ────────────────────────────────────────────────────────────────

  #emit(body: ProgressEventBody): void {
    if (this.#hub.ended) return;
    this.#hub.emit(body);
    this.state.lastSeq = this.#hub.lastSeq;
  }

  /** Copies the tracker's and the log's state into the run state. */
  #snapshot(): void {
    this.state.tracker = this.#tracker.toJSON();
    this.state.log = this.#log.toJSON();
  }

  /** Runs a side job (checkpoint write) whose failure the run survives; true when it succeeded. */
  async #safely(where: RuntimeErrorWhere, fn: () => unknown): Promise<boolean> {
    try {
      await fn();
      return true;
    } catch (error) {
      this.#ctx.onInternalError(error, where);
      return false;
    }
  }

  async #createCheckpoint(): Promise<void> {
    const checkpointer = this.#ctx.checkpointer;
    if (checkpointer === undefined) return;
    this.#snapshot();
    await this.#safely('checkpoint.create', async () => {
      this.#checkpointId = await checkpointer.create(this.state);
    });
  }

  async #updateCheckpoint(reason: 'iteration' | 'tool-started' | 'tool-finished'): Promise<void> {
    const checkpointer = this.#ctx.checkpointer;
    const id = this.#checkpointId;
    if (checkpointer === undefined || id === undefined) return;
    this.#snapshot();
    const saved = await this.#safely('checkpoint.update', () => checkpointer.update(id, this.state, reason));
    if (saved && reason === 'iteration') this.#emit({ type: 'checkpoint.saved', checkpointId: id, iteration: this.state.iteration });
  }
}

/** How a run that threw ends: cancelled when the caller's abort surfaced as the error, else failed with the error's message and code. */
function failureOf(error: unknown, signal: AbortSignal | undefined): Outcome {
  if (isAbortError(error) && signal?.aborted === true) return { status: 'cancelled', reason: 'cancelled by the caller' };
  const code = codeOf(error);
  return { status: 'error', error: errorMessage(error), ...(code === undefined ? {} : { code }) };
}

/** The stable `code` of a thrown `HeadwayError` (any string `code`), else `undefined`. */
function codeOf(error: unknown): string | undefined {
  try {
    if (typeof error === 'object' && error !== null && 'code' in error) {
      const code: unknown = error.code;
      if (typeof code === 'string' && code !== '') return code;
    }
  } catch {
    return undefined;
  }
  return undefined;
}
