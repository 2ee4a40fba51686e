import { PROGRESS_PROMPT_INSTRUCTIONS, ProgressTextFilter, ProgressTracker, extractModelProgress, stripModelProgress } from '@headway/estimator';
import {
  createProgressHub,
  describeIssues,
  redact,
  safeStringify,
  toValidationIssues,
  toolResultPreview,
  type LimitKind,
  type ProgressEventBody,
  type ProgressHub,
  type ProgressReport,
  type ProgressSink,
  type RunLimits,
  type SinkLike,
  type StopReason,
} from '@headway/protocol';
import { ToolCallLog, buildFallbackReport, buildReportPrompt, parseProgressReport, renderProgressReport, type ReportPromptLimits } from '@headway/report';
import type { AgentConfig } from './agent-config.js';
import type { Clock } from './clock.js';
import type { Tool, ToolContext } from './define-tool.js';
import { guardSink } from './guard-sink.js';
import { scanForInjection, wrapUntrusted } from './injection-scan.js';
import { VERIFICATION_PROMPT, strategyRotationPrompt } from './loop-prompts.js';
import { addUsage, collectStream, type CompletionResponse, type ToolSpec, type Usage } from './provider.js';
import type { ProviderRegistry } from './provider-registry.js';
import { isAbortError } from './retry-policy.js';
import type { LoopCheckpointer, RunState, RunStatus, ToolCallStatus } from './run-state.js';
import type { SpendGuard } from './cost/spend-guard.js';
import type { TimeoutObserver } from './timeout-observer.js';
import { truncateToolResult } from './truncate-tool-result.js';

/** Consecutive failures of one tool that trigger a strategy-rotation prompt. */
const STRATEGY_ROTATION_AFTER = 3;

/** What a finished run returns. */
export interface RunResult {
  /** The final answer; for a run that stopped short, the rendered progress report. */
  text: string;
  status: Exclude<RunStatus, 'running'>;
  /** The structured handoff of a run that stopped short (limit, cancellation, error). */
  report?: ProgressReport;
  usage: Usage;
  /** Provider calls made. */
  iterations: number;
  runId: string;
  sessionId: string;
}

/** Everything a loop needs besides its state (internal: built by AgentRuntime). */
export interface LoopContext {
  config: AgentConfig;
  registry: ProviderRegistry;
  /** Tools offered to the model (capability mode applied). */
  tools: ReadonlyMap<string, Tool>;
  toolSpecs: readonly ToolSpec[];
  clock: Clock;
  sinks: readonly SinkLike[];
  onTimeout: TimeoutObserver | undefined;
  checkpointer: LoopCheckpointer | undefined;
  onInternalError: (error: unknown, where: string) => void;
  /** Use the provider's stream (text.delta events). */
  stream: boolean;
  signal: AbortSignal | undefined;
  /** runStream's own queue, added before the user's sinks. */
  extraSink?: ProgressSink;
  /** Prices provider calls and enforces the spending cap. */
  spend?: SpendGuard;
  /** Stores an oversized tool result with the checkpoint; returns what the conversation carries instead. */
  externalize?: (content: string) => Promise<string>;
}

type Outcome =
  | { status: 'completed'; text: string }
  | { status: 'limit'; reason: StopReason; modelText?: string }
  | { status: 'cancelled'; reason: string }
  | { status: 'error'; error: string };

type Stop = { kind: 'cancel'; reason: string } | { kind: 'hard-time'; reason: StopReason } | { kind: 'budget'; reason: StopReason };

/** Thrown inside the loop when a stop (cancel, hard time limit) interrupts an await. */
class StopSignal extends Error {
  constructor() {
    super('run stopped');
    this.name = 'StopSignal';
  }
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : (safeStringify(error) ?? String(error));
}

function toolOutputText(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined || result === null) return '';
  return safeStringify(result) ?? '';
}

/** The reason a caller gave for aborting, or a plain default for a bare `abort()`. */
function cancelReason(reason: unknown): string {
  if (reason instanceof Error && reason.name !== 'AbortError' && reason.message !== '') return reason.message;
  if (typeof reason === 'string' && reason !== '') return reason;
  return 'cancelled by the caller';
}

const LIMIT_TEXT: Record<StopReason, string> = {
  'max-iterations': 'the iteration limit',
  'time-budget': 'the time budget',
  'negotiated-timeout': 'the time budget (extension declined)',
  'cost-budget': 'the cost budget',
  cancelled: 'a cancellation',
  error: 'an error',
};

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
 * checkpoint's state.
 */
export class RunLoop {
  readonly state: RunState;
  readonly #ctx: LoopContext;
  readonly #hub: ProgressHub;
  readonly #tracker: ProgressTracker;
  readonly #log: ToolCallLog;
  readonly #abort = new AbortController();
  #stop: Stop | undefined;
  #checkpointId: string | undefined;
  readonly #timers = new Set<unknown>();
  #deadlineTimers: unknown[] = [];

  constructor(ctx: LoopContext, state: RunState) {
    this.#ctx = ctx;
    this.state = state;
    const { clock, config } = ctx;
    this.#hub = createProgressHub({
      runId: state.runId,
      now: () => clock.now(),
      lastSeq: state.lastSeq,
      onSinkError: (error) => {
        ctx.onInternalError(error, 'sink');
      },
    });
    if (ctx.extraSink !== undefined) this.#hub.add(ctx.extraSink, { name: 'runStream' });
    for (const sink of ctx.sinks) {
      const guarded = guardSink(sink, (error) => {
        ctx.onInternalError(error, 'reporter');
      });
      if (guarded !== undefined) this.#hub.add(guarded);
    }
    this.#tracker = new ProgressTracker({
      maxRoundtrips: config.maxIterations,
      emit: (body) => {
        this.#emit(body);
      },
      now: () => clock.now(),
      aiDriven: config.progress.aiDriven,
      ...(config.progress.fallbackSteps.length > 0 ? { steps: config.progress.fallbackSteps } : {}),
      ...(state.tracker === null || state.tracker === undefined ? {} : { state: state.tracker }),
    });
    this.#log = state.log === null || state.log === undefined ? new ToolCallLog() : ToolCallLog.fromJSON(state.log);
  }

  /** The system prompt a fresh run starts with. */
  static systemPrompt(config: AgentConfig): string {
    return config.progress.aiDriven ? `${config.systemPrompt}\n\n${PROGRESS_PROMPT_INSTRUCTIONS}` : config.systemPrompt;
  }

  get #singleTurn(): boolean {
    return this.#ctx.toolSpecs.length === 0 || this.#ctx.config.maxIterations === 1;
  }

  async execute(): Promise<RunResult> {
    const { state } = this;
    const userSignal = this.#ctx.signal;
    const onAbort = (): void => {
      this.#halt({ kind: 'cancel', reason: cancelReason(userSignal?.reason) });
    };
    if (state.lastSeq === 0) this.#emit({ type: 'run.started', agentName: this.#ctx.config.agentName, task: state.input, sessionId: state.sessionId, limits: runLimits(this.#ctx.config) });
    let outcome: Outcome;
    try {
      if (userSignal?.aborted === true) onAbort();
      userSignal?.addEventListener('abort', onAbort, { once: true });
      if (!this.#singleTurn) await this.#createCheckpoint();
      this.#startTimeBudget();
      outcome = this.#singleTurn ? await this.#runSingleTurn() : await this.#runToolLoop();
    } catch (error) {
      outcome = this.#outcomeOf(error);
    } finally {
      userSignal?.removeEventListener('abort', onAbort);
      for (const t of this.#timers) this.#ctx.clock.clearTimeout(t);
      this.#timers.clear();
    }
    return this.#finish(outcome);
  }

  // ── the loop ────────────────────────────────────────────────────────────────

  async #runSingleTurn(): Promise<Outcome> {
    this.#checkStopped();
    this.#emit({ type: 'iteration', index: this.state.iteration, max: this.#ctx.config.maxIterations });
    const response = await this.#callModel([]);
    this.#tracker.roundtripFinished();
    return { status: 'completed', text: response.visible };
  }

  async #runToolLoop(): Promise<Outcome> {
    const { state } = this;
    const max = this.#ctx.config.maxIterations;
    for (;;) {
      this.#checkStopped();
      if (state.round !== null) {
        // A resumed run: finish the round that was in flight first.
        await this.#runTools();
        continue;
      }
      const index = state.iteration;
      this.#emit({ type: 'iteration', index, max });
      if (index + 1 >= 0.8 * max) this.#approach('iterations', index + 1, max);
      let tools: readonly ToolSpec[] = this.#ctx.toolSpecs;
      let reportReason: StopReason | undefined;
      const windDown = state.windDown;
      if (windDown !== null) {
        reportReason = windDown.reason;
        if (!windDown.reportRequested) {
          this.#requestReport(windDown.reason);
          windDown.reportRequested = true;
        }
        windDown.bonusStepsLeft -= 1;
        // The last bonus round must end in text: no tools.
        if (windDown.bonusStepsLeft <= 0) tools = [];
      }
      if (index >= max - 1) {
        tools = [];
        if (reportReason === undefined) {
          this.#emit({ type: 'limit.reached', limit: 'iterations', used: max, max });
          this.#requestReport('max-iterations');
          reportReason = 'max-iterations';
        }
      }
      const response = await this.#callModel(tools);
      if (reportReason !== undefined && (tools.length === 0 || response.toolCalls.length === 0)) {
        this.#tracker.roundtripFinished();
        return { status: 'limit', reason: reportReason, modelText: response.visible };
      }
      if (response.toolCalls.length === 0) {
        this.#tracker.roundtripFinished();
        return { status: 'completed', text: response.visible };
      }
      state.round = { iteration: index, toolCalls: response.toolCalls.map((c): ToolCallStatus => ({ ...c, status: 'pending' })) };
      await this.#runTools();
    }
  }

  #requestReport(reason: StopReason): void {
    const { config, clock } = this.#ctx;
    const limits: ReportPromptLimits = {
      iterations: this.state.iteration,
      maxIterations: config.maxIterations,
      elapsedMs: Math.max(0, clock.now() - this.state.startedAt),
    };
    if (config.timeBudgetMs !== undefined) limits.timeBudgetMs = config.timeBudgetMs + this.state.extendedMs;
    const prompt = buildReportPrompt(reason, { task: this.state.input, log: this.#log, limits });
    this.state.messages.push({ role: 'user', content: prompt });
  }

  /** One provider call: events, usage, `_progress`, the assistant message. */
  async #callModel(tools: readonly ToolSpec[]): Promise<CompletionResponse & { visible: string }> {
    const { state } = this;
    const { config, clock, registry } = this.#ctx;
    const index = state.iteration;
    const step = `llm-${index + 1}`;
    this.#checkBudget();
    this.#tracker.roundtripStarted();
    this.#emit({ type: 'step.started', step, description: tools.length > 0 ? 'model call' : 'model call (no tools)', ...modelOf(registry, config) });
    const startedAt = clock.now();
    const request = {
      messages: state.messages.slice(),
      tools: tools as ToolSpec[],
      temperature: config.temperature,
      ...(config.model === undefined ? {} : { model: config.model }),
    };
    const signal = this.#abort.signal;
    let response: CompletionResponse;
    if (this.#ctx.stream) {
      const filter = new ProgressTextFilter();
      response = await this.#race(
        collectStream(registry.stream(request, { signal }), (chunk) => {
          if (chunk.type !== 'text-delta') return;
          const text = filter.push(chunk.text);
          if (text !== '') this.#emit({ type: 'text.delta', text });
        }),
      );
      const rest = filter.flush();
      if (rest !== '') this.#emit({ type: 'text.delta', text: rest });
    } else {
      response = await this.#race(registry.complete(request, { signal }));
    }
    state.iteration += 1;
    state.usage = addUsage(state.usage, response.usage);
    const spentBefore = state.spentUsd;
    this.#recordSpend(response.usage);
    this.#emit({
      type: 'step.finished',
      step,
      durationMs: Math.max(0, clock.now() - startedAt),
      usage: { inputTokens: response.usage.inputTokens, outputTokens: response.usage.outputTokens },
      finishReason: response.finishReason,
      ...(this.#ctx.spend === undefined ? {} : { costUsd: state.spentUsd - spentBefore }),
    });
    if (response.reasoning !== undefined && response.reasoning !== '') this.#emit({ type: 'thinking', content: response.reasoning });
    const toolCalls = tools.length === 0 ? [] : response.toolCalls;
    state.messages.push(toolCalls.length > 0 ? { role: 'assistant', content: response.content, toolCalls } : { role: 'assistant', content: response.content });
    const visible = stripModelProgress(response.content);
    if (config.progress.aiDriven) {
      const progress = extractModelProgress(response.content, {
        onReject: (reason) => {
          this.#ctx.onInternalError(new Error(`model _progress rejected: ${reason}`), 'model-progress');
        },
      });
      if (progress !== undefined) this.#tracker.reportModelProgress(progress);
    }
    if (visible.trim() !== '') this.#log.recordText({ step: index + 1, text: visible });
    return { ...response, toolCalls, visible };
  }

  /** Runs the calls of the round in flight that have not finished, then closes the round. */
  async #runTools(): Promise<void> {
    const { state } = this;
    const round = state.round;
    if (round === null) return;
    const followUps: string[] = [];
    this.#tracker.toolsStarted();
    for (const call of round.toolCalls) {
      if (call.status === 'finished') continue;
      this.#checkStopped();
      call.status = 'started';
      await this.#updateCheckpoint('tool-started');
      this.#emit({ type: 'tool.executing', toolName: call.name, toolCallId: call.id, args: redact(call.args) });
      const result = await this.#executeTool(call, round.iteration);
      call.status = 'finished';
      call.result = { content: result.content, ok: result.ok, durationMs: result.durationMs };
      state.messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: result.content });
      if (!state.toolsUsed.includes(call.name)) state.toolsUsed.push(call.name);
      this.#emit({
        type: 'tool.completed',
        toolName: call.name,
        toolCallId: call.id,
        durationMs: result.durationMs,
        ok: result.ok,
        preview: toolResultPreview(result.raw),
      });
      this.#tracker.toolCallFinished(call.name, result.ok);
      this.#log.recordToolCall({ step: round.iteration + 1, name: call.name, args: call.args, result: result.raw, ok: result.ok, durationMs: result.durationMs });
      const streak = result.ok ? 0 : (state.failureStreaks[call.name] ?? 0) + 1;
      state.failureStreaks[call.name] = streak;
      if (streak >= STRATEGY_ROTATION_AFTER) {
        state.failureStreaks[call.name] = 0;
        followUps.push(strategyRotationPrompt(call.name, streak, toolResultPreview(result.raw, 200)));
        this.#emit({ type: 'strategy.rotated', toolName: call.name, failures: streak });
      }
      await this.#updateCheckpoint('tool-finished');
    }
    for (const text of followUps) state.messages.push({ role: 'user', content: text });
    state.messages.push({ role: 'user', content: VERIFICATION_PROMPT });
    state.round = null;
    this.#tracker.roundtripFinished();
    await this.#updateCheckpoint('round');
  }

  async #executeTool(call: ToolCallStatus, iteration: number): Promise<{ content: string; raw: unknown; ok: boolean; durationMs: number }> {
    const { clock, tools } = this.#ctx;
    const startedAt = clock.now();
    const tool = tools.get(call.name);
    let raw: unknown;
    let ok = false;
    if (tool === undefined) {
      raw = `Error: unknown tool "${call.name}". Available tools: ${[...tools.keys()].join(', ') || 'none'}.`;
    } else {
      const parsed = tool.parameters.safeParse(call.args);
      if (!parsed.success) {
        raw = `Error: invalid arguments for ${call.name}: ${describeIssues(toValidationIssues(parsed.error))}. Fix the arguments and call it again.`;
      } else {
        const ctx: ToolContext = {
          signal: this.#abort.signal,
          idempotencyKey: `${this.state.runId}:${call.id}`,
          runId: this.state.runId,
          toolCallId: call.id,
          iteration,
        };
        try {
          raw = await this.#race(Promise.resolve().then(() => tool.execute(parsed.data, ctx)));
          ok = true;
        } catch (error) {
          if (error instanceof StopSignal || this.#stop !== undefined) throw error;
          raw = `Error: ${call.name} failed: ${errorMessage(error)}`;
        }
      }
    }
    const durationMs = Math.max(0, clock.now() - startedAt);
    const text = toolOutputText(raw);
    let content = text === '' ? '(no output)' : truncateToolResult(text).text;
    const scan = scanForInjection(content);
    if (scan.flagged) {
      content = wrapUntrusted(call.name, content, scan);
      this.#emit({ type: 'tool.flagged', toolName: call.name, toolCallId: call.id, findings: scan.findings.map((f) => `${f.kind} "${f.match}"`) });
    }
    const externalize = this.#ctx.externalize;
    if (externalize !== undefined) {
      try {
        content = await externalize(content);
      } catch (error) {
        this.#ctx.onInternalError(error, 'checkpoint.blob');
      }
    }
    return { content, raw, ok, durationMs };
  }

  // ── limits ──────────────────────────────────────────────────────────────────

  /** Before a provider call: a session at or over its budget stops the run. */
  #checkBudget(): void {
    const spend = this.#ctx.spend;
    if (spend === undefined) return;
    const at = spend.check(this.state.sessionId);
    if (at.status !== 'exhausted') return;
    this.#emit({ type: 'limit.reached', limit: 'cost', used: at.spentUsd, max: at.budgetUsd });
    this.#halt({ kind: 'budget', reason: 'cost-budget' });
    throw new StopSignal();
  }

  /** After a provider call: its price is added to the run's and the session's spend. */
  #recordSpend(usage: Usage): void {
    const spend = this.#ctx.spend;
    if (spend === undefined) return;
    try {
      this.state.spentUsd += spend.record(this.state.sessionId, usage);
    } catch (error) {
      this.#ctx.onInternalError(error, 'cost');
    }
    const at = spend.check(this.state.sessionId);
    if (at.status === 'approaching' || at.status === 'exhausted') this.#approach('cost', at.spentUsd, at.budgetUsd);
  }

  #approach(limit: LimitKind, used: number, max: number): void {
    if (this.state.approached.includes(limit)) return;
    this.state.approached.push(limit);
    this.#emit({ type: 'limit.approaching', limit, used, max });
  }

  #schedule(ms: number, fn: () => void): unknown {
    const handle = this.#ctx.clock.setTimeout(() => {
      this.#timers.delete(handle);
      if (this.#hub.ended) return;
      fn();
    }, Math.max(0, ms));
    this.#timers.add(handle);
    return handle;
  }

  #startTimeBudget(): void {
    if (this.#ctx.config.timeBudgetMs === undefined || this.state.windDown !== null) return;
    this.#scheduleDeadline();
  }

  #scheduleDeadline(): void {
    const budget = this.#ctx.config.timeBudgetMs;
    if (budget === undefined) return;
    for (const t of this.#deadlineTimers) {
      this.#ctx.clock.clearTimeout(t);
      this.#timers.delete(t);
    }
    const total = budget + this.state.extendedMs;
    const elapsed = this.#ctx.clock.now() - this.state.startedAt;
    this.#deadlineTimers = [
      this.#schedule(0.8 * total - elapsed, () => {
        this.#approach('time', Math.round(this.#ctx.clock.now() - this.state.startedAt), total);
      }),
      this.#schedule(total - elapsed, () => {
        this.#onDeadline();
      }),
    ];
  }

  #onDeadline(): void {
    const { config } = this.#ctx;
    switch (config.timeoutBehavior) {
      case 'hard':
        this.#emitTimeLimit();
        this.#halt({ kind: 'hard-time', reason: 'time-budget' });
        return;
      case 'graceful':
        this.#beginWindDown('time-budget');
        return;
      case 'negotiated':
        void this.#negotiate();
        return;
    }
  }

  #emitTimeLimit(): void {
    const budget = this.#ctx.config.timeBudgetMs ?? 0;
    this.#emit({ type: 'limit.reached', limit: 'time', used: Math.max(0, this.#ctx.clock.now() - this.state.startedAt), max: budget + this.state.extendedMs });
  }

  async #negotiate(): Promise<void> {
    const { config, clock } = this.#ctx;
    const budget = config.timeBudgetMs ?? 0;
    const remainingMs = Math.max(0, config.negotiatedTimeoutBudgetMs - this.state.extendedMs);
    let granted = 0;
    const observer = this.#ctx.onTimeout;
    if (observer !== undefined && remainingMs > 0) {
      // An observer that does not answer within hardStopAfterMs has declined.
      const answer = new AbortController();
      const timer = this.#schedule(config.hardStopAfterMs, () => {
        answer.abort(new Error('onTimeout did not answer in time'));
      });
      try {
        const reply = await this.#race(
          Promise.resolve().then(() =>
            observer({
              elapsedMs: clock.now() - this.state.startedAt,
              budgetMs: budget,
              extendedMs: this.state.extendedMs,
              remainingMs,
              chunkMs: config.negotiatedExtensionMs,
              iteration: this.state.iteration,
              task: this.state.input,
              signal: answer.signal,
            }),
          ),
          answer.signal,
        );
        const asked = reply === true ? config.negotiatedExtensionMs : typeof reply === 'number' && Number.isFinite(reply) ? reply : 0;
        granted = Math.floor(Math.max(0, Math.min(asked, config.negotiatedExtensionMs, remainingMs)));
      } catch (error) {
        if (this.#stop !== undefined || this.#hub.ended) return;
        this.#ctx.onInternalError(error, 'onTimeout');
      } finally {
        clock.clearTimeout(timer);
        this.#timers.delete(timer);
      }
    }
    if (this.#hub.ended || this.#stop !== undefined) return;
    if (granted > 0) {
      this.state.extendedMs += granted;
      this.#emit({ type: 'timeout.extended', byMs: granted, totalBudgetMs: budget + this.state.extendedMs });
      this.#scheduleDeadline();
    } else {
      this.#beginWindDown('negotiated-timeout');
    }
  }

  #beginWindDown(reason: StopReason): void {
    if (this.state.windDown !== null || this.#hub.ended) return;
    const { config, clock } = this.#ctx;
    this.#emitTimeLimit();
    this.state.windDown = { reason, startedAt: clock.now(), bonusStepsLeft: config.gracefulBonusSteps, reportRequested: false };
    this.#emit({ type: 'wind-down.started', reason, bonusSteps: config.gracefulBonusSteps });
    this.#schedule(config.hardStopAfterMs, () => {
      this.#halt({ kind: 'hard-time', reason });
    });
  }

  /** Stops the run now: aborts the provider call and tools in flight. */
  #halt(stop: Stop): void {
    if (this.#stop !== undefined || this.#hub.ended) return;
    this.#stop = stop;
    this.#abort.abort(new StopSignal());
  }

  #checkStopped(): void {
    if (this.#stop !== undefined) throw new StopSignal();
  }

  /** Settles with `promise`, or rejects with a StopSignal as soon as the run is stopped. */
  #race<T>(promise: Promise<T>, extra?: AbortSignal): Promise<T> {
    const signals = extra === undefined ? [this.#abort.signal] : [this.#abort.signal, extra];
    for (const s of signals) {
      if (s.aborted) {
        promise.catch(() => undefined);
        return Promise.reject(s === this.#abort.signal ? new StopSignal() : (s.reason as Error));
      }
    }
    return new Promise<T>((resolve, reject) => {
      const listeners: (() => void)[] = [];
      const cleanup = (): void => {
        signals.forEach((s, i) => {
          const l = listeners[i];
          if (l !== undefined) s.removeEventListener('abort', l);
        });
      };
      signals.forEach((s) => {
        const l = (): void => {
          cleanup();
          reject(s === this.#abort.signal ? new StopSignal() : (s.reason as Error));
        };
        listeners.push(l);
        s.addEventListener('abort', l, { once: true });
      });
      promise.then(
        (value) => {
          cleanup();
          resolve(value);
        },
        (error: unknown) => {
          cleanup();
          reject(error instanceof Error ? error : new Error(errorMessage(error)));
        },
      );
    });
  }

  // ── the end ─────────────────────────────────────────────────────────────────

  #outcomeOf(error: unknown): Outcome {
    const stop = this.#stop;
    if (stop !== undefined) {
      return stop.kind === 'cancel' ? { status: 'cancelled', reason: stop.reason } : { status: 'limit', reason: stop.reason };
    }
    if (isAbortError(error) && this.#ctx.signal?.aborted === true) return { status: 'cancelled', reason: 'cancelled by the caller' };
    return { status: 'error', error: errorMessage(error) };
  }

  #stats(): ProgressReport['stats'] {
    return { iterations: this.state.iteration, toolCalls: this.#log.toolCallCount, elapsedMs: Math.max(0, this.#ctx.clock.now() - this.state.startedAt) };
  }

  #fallbackReport(reason: StopReason): ProgressReport {
    return buildFallbackReport({ task: this.state.input, log: this.#log, reason, stats: this.#stats() });
  }

  /** The model's report when its reply parses into one, else the fallback. */
  #reportFrom(reason: StopReason, modelText: string | undefined): ProgressReport {
    if (modelText !== undefined && modelText.trim() !== '') {
      try {
        const { report } = parseProgressReport(modelText, { task: this.state.input, reason, stats: this.#stats(), generatedBy: 'model' });
        const lists = [report.completedWork, report.keyFindings, report.attemptedInconclusive, report.remaining, report.suggestedNextSteps];
        if (lists.some((l) => l.length > 0)) {
          return { ...report, task: report.task.trim() === '' ? this.state.input : report.task, reason, stats: this.#stats(), generatedBy: 'model' };
        }
      } catch (error) {
        this.#ctx.onInternalError(error, 'report-parse');
      }
    }
    return this.#fallbackReport(reason);
  }

  async #finish(outcome: Outcome): Promise<RunResult> {
    const { state } = this;
    const { clock } = this.#ctx;
    const durationMs = Math.max(0, clock.now() - state.startedAt);
    const iterations = state.iteration;
    const base = { usage: state.usage, iterations, runId: state.runId, sessionId: state.sessionId };
    const tokenCount = state.usage.inputTokens + state.usage.outputTokens;
    let result: RunResult;
    switch (outcome.status) {
      case 'completed': {
        this.#tracker.complete();
        this.#emit({ type: 'run.finished', durationMs, tokenCount, outcome: 'completed', summary: `finished after ${iterations} iteration(s)` });
        result = { ...base, text: outcome.text, status: 'completed' };
        break;
      }
      case 'limit': {
        const report = this.#reportFrom(outcome.reason, outcome.modelText);
        this.#emit({ type: 'report.generated', report });
        this.#emit({
          type: 'run.finished',
          durationMs,
          tokenCount,
          outcome: 'limit',
          summary: `stopped at ${LIMIT_TEXT[outcome.reason]} after ${iterations} iteration(s); progress report attached`,
        });
        result = { ...base, text: renderProgressReport(report), status: 'limit', report };
        break;
      }
      case 'cancelled': {
        const report = this.#fallbackReport('cancelled');
        this.#emit({ type: 'report.generated', report });
        this.#emit({ type: 'run.cancelled', reason: outcome.reason });
        result = { ...base, text: renderProgressReport(report), status: 'cancelled', report };
        break;
      }
      case 'error': {
        const report = this.#fallbackReport('error');
        this.#emit({ type: 'report.generated', report });
        this.#emit({ type: 'run.error', error: outcome.error });
        result = { ...base, text: renderProgressReport(report), status: 'error', report };
        break;
      }
    }
    state.status = result.status;
    this.#snapshot();
    if (this.#checkpointId !== undefined) {
      const id = this.#checkpointId;
      const checkpointer = this.#ctx.checkpointer;
      await this.#safely('checkpoint.finish', () =>
        outcome.status === 'error' ? checkpointer?.fail(id, state, outcome.error) : checkpointer?.complete(id, state),
      );
    }
    return result;
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
  async #safely(where: string, fn: () => unknown): Promise<boolean> {
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

  async #updateCheckpoint(reason: 'round' | 'tool-started' | 'tool-finished'): Promise<void> {
    const checkpointer = this.#ctx.checkpointer;
    const id = this.#checkpointId;
    if (checkpointer === undefined || id === undefined) return;
    this.#snapshot();
    const saved = await this.#safely('checkpoint.update', () => checkpointer.update(id, this.state, reason));
    if (saved && reason === 'round') this.#emit({ type: 'checkpoint.saved', checkpointId: id, iteration: this.state.iteration });
  }
}
