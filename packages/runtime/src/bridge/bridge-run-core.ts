// The run state behind one bridged run (`@headway/openai-agents`, `@headway/langgraph`, …): the
// hub, the estimator, the tool-call log, the limits and the report. The framework owns the loop;
// its bridge turns what the framework's hooks or stream say into calls here, and this file turns
// them into headway events and decides, between iterations, when the run must stop. It is one
// closure over one run's state (over 300 lines): the limits, steps and report share that state.
import { ProgressTracker } from '@headway/estimator';
import {
  createProgressHub,
  describeIssues,
  planItemsSchema,
  isNullReporter,
  redact,
  systemClock,
  toolResultPreview,
  type Clock,
  type LimitKind,
  type ModelUsage,
  type ProgressEventBody,
  type ProgressHub,
  type ProgressReport,
  type ProgressReportStats,
  type StopReason,
} from '@headway/protocol';
import { describeThrown, errorMessage, unrefClock, validateUntrusted } from '@headway/protocol/internal';
import { buildFallbackReport, buildReportPrompt, ToolCallLog, type ReportPromptLimits } from '@headway/report';
import type { BridgeErrorContext, BridgeOptions, BridgeWarning } from './bridge-options.js';
import { createUnpricedCalls } from '../cost/unpriced-calls.js';
import { reportFromModel } from './model-report.js';

/** How a bridged run ended. */
export type HeadwayOutcome = 'completed' | 'limit' | 'cancelled' | 'error';

/** What a bridged run returns. */
export interface HeadwayRunResult {
  outcome: HeadwayOutcome;
  /** Why the run stopped short; absent when it completed. */
  reason?: StopReason;
  /** The progress report, for every run that did not complete. */
  report?: ProgressReport;
  /** Typed problems the caller may want to log: a guardrail trip, an unusable model report, a model `costOf` could not price. */
  warnings: BridgeWarning[];
  /**
   * Model calls whose cost is unknown (`costOf` gave no usable number, or the call reported no
   * token counts): left out of the spend and of `report.stats.costUsd`, never counted as $0 or as
   * the budget. Present when `costOf` was given.
   */
  unpricedCalls?: number;
}

const DEFAULT_MAX_ITERATIONS = 20;
const DEFAULT_HARD_STOP_AFTER_MS = 30_000;
const APPROACHING = 0.8;
const FLUSH_TIMEOUT_MS = 5_000;
const LIMIT_OF: Partial<Record<StopReason, LimitKind>> = { 'max-iterations': 'iterations', 'time-budget': 'time', 'cost-budget': 'cost' };

// Unref'd: a forgotten run must not keep the process alive for the time budget.
const defaultClock: Clock = unrefClock(systemClock);

/** A limit that ended the working turns: the report is asked from the model (`ask`) or built from the log (`fallback`). */
export interface StopState {
  reason: StopReason;
  mode: 'ask' | 'asked' | 'answered' | 'fallback';
}

/** How the bridge saw the run end: completed, or stopped short (with the model's report text, the error, or a cancellation). */
export type EndKind = { completed: true } | { completed: false; reportText?: string; error?: unknown; cancelled?: boolean };

/** What a bridge tells {@link createBridgeRunCore} about its framework. */
export interface BridgeRunSetup {
  /** `agentName` of `run.started` unless the options or {@link BridgeRunCore.nameAgent} give one. */
  defaultAgentName: string;
  /** The bridge's typed error for the hard time stop (the abort reason the framework's loop ends with). */
  hardStopError: (message: string) => Error;
  /** The bridge's typed error for a `costOf` answer that is not a finite number >= 0 (passed to `onInternalError`). */
  invalidCostError: (message: string) => Error;
  /**
   * The bridge stops the working turns itself one iteration before `maxIterations` (the last one
   * is the report call), instead of waiting for the framework's own limit (default false).
   */
  stopBeforeLastIteration?: boolean;
}

/**
 * The run state behind one bridged run: every hook or stream chunk of the framework becomes a call
 * here, and this emits the events, moves the estimator, keeps the tool-call log and builds the
 * report. Made by {@link createBridgeRunCore}.
 */
export interface BridgeRunCore {
  readonly hub: ProgressHub;
  readonly log: ToolCallLog;
  /** Aborts at the hard time stop, or when the caller's `abortSignal` fires. */
  readonly signal: AbortSignal;
  readonly maxIterations: number;
  readonly warnings: BridgeWarning[];
  readonly stop: StopState | undefined;
  readonly ending: boolean;
  readonly iterations: number;
  emit(body: ProgressEventBody): void;
  start(): void;
  nameAgent(name: string): void;
  cancelled(): boolean;
  /**
   * Ends step `id` with `step.finished` (`finishReason` when it did not end normally); false when no
   * such step was open. A step with `usage`, or started as a model call, is priced with `costOf`.
   */
  finishStep(id: string, usage: ModelUsage | undefined, model: string, finishReason?: string): boolean;
  /** Whether step `id` is open (started, not yet finished). */
  isStepOpen(id: string): boolean;
  elapsed(): number;
  stats(): ProgressReportStats;
  turnStarting(): StopState | undefined;
  turnLimitReached(): StopState;
  iterationStarted(): void;
  iterationFinished(): void;
  /** Step `id` begins; given `model`, it is a model call (priced when it ends, even without usage). */
  stepStarted(id: string, name: string, description: string, model?: { provider?: string; model?: string }): void;
  unnest(): void;
  planUpdated(items: unknown): boolean;
  toolStarted(toolName: string, toolCallId: string, args: unknown): void;
  toolFinished(toolName: string, toolCallId: string, args: unknown, result: unknown, ok: boolean): void;
  text(text: string): void;
  nest(label: string): void;
  reportPrompt(reason: StopReason, extraIterations?: number): string;
  reportAsked(): void;
  end(kind: EndKind): Promise<HeadwayRunResult>;
}

/**
 * Builds the run state of one bridged run for `o` (already validated by the bridge's
 * {@link createBridgeOptionsParser} parser). A hub made for `sinks` that are all NullReporters is
 * never fed: no event is built, but the limits hold and the report is still kept.
 *
 * @example
 * ```ts
 * const core = createBridgeRunCore(options, {
 *   defaultAgentName: 'langgraph',
 *   hardStopError: (message) => new LangGraphError('LANGGRAPH_HARD_STOP', message),
 *   invalidCostError: (message) => new LangGraphError('LANGGRAPH_INVALID_COST', message),
 * });
 * ```
 */
export function createBridgeRunCore(o: BridgeOptions, setup: BridgeRunSetup): BridgeRunCore {
  const { defaultAgentName } = setup;
  const clock = o.clock ?? defaultClock;
  const maxIterations = o.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  const hardStopAfterMs = o.hardStopAfterMs ?? DEFAULT_HARD_STOP_AFTER_MS;
  const ownsHub = o.hub === undefined;
  const hub: ProgressHub = o.hub ?? createProgressHub({ runId: o.runId ?? crypto.randomUUID(), clock });
  if (ownsHub) for (const sink of o.sinks ?? []) hub.add(sink);
  const internal = (error: unknown, where: BridgeErrorContext['where']): void => {
    try {
      o.onInternalError?.(error, { where });
    } catch {
      // The callback may not break the run either.
    }
  };
  // With only NullReporters (which the hub skips) and no hub of the caller's, no event would
  // reach anyone, so none is built. The report is still kept.
  const quiet = ownsHub && (o.sinks ?? []).every((sink) => isNullReporter(sink));
  const emit = (body: ProgressEventBody): void => {
    if (quiet || hub.ended) return;
    try {
      hub.emit(body);
    } catch (error) {
      internal(error, 'emit');
    }
  };

  const log = new ToolCallLog();
  const root = quiet ? undefined : new ProgressTracker({ maxIterations, clock, steps: o.steps ?? [], emit });
  /** The tracker the current agent's turns move: the root, or a handed-off agent's slice of its parent. */
  let active = root;
  const hardStop = new AbortController();
  const signal = o.abortSignal === undefined ? hardStop.signal : AbortSignal.any([o.abortSignal, hardStop.signal]);
  const timers: unknown[] = [];
  const warnings: BridgeWarning[] = [];
  const toolStarts = new Map<string, number>();

  let agentName = o.agentName ?? defaultAgentName;
  let startedAt = 0;
  let started = false;
  let iterations = 0;
  let spentUsd = 0;
  let priced = false;
  const unpriced = createUnpricedCalls('have costOf price it');
  /** Open steps; `modelCall` when it was started as one (with a `model`): such a step is priced even without usage. */
  const steps = new Map<string, { name: string; startedAt: number; modelCall: boolean }>();
  const parents: ProgressTracker[] = [];
  let toolsStarted = false;
  const approached = new Set<LimitKind>();
  const reached = new Set<LimitKind>();
  let stop: StopState | undefined;
  let ending: Promise<HeadwayRunResult> | undefined;

  const approach = (limit: LimitKind, used: number, max: number, early = false): void => {
    if (approached.has(limit) || (used < APPROACHING * max && !early)) return;
    approached.add(limit);
    emit({ type: 'limit.approaching', limit, used, max });
  };
  const reach = (limit: LimitKind, used: number, max: number): void => {
    if (reached.has(limit)) return;
    reached.add(limit);
    emit({ type: 'limit.reached', limit, used, max });
  };
  const elapsed = (): number => Math.max(0, clock.now() - startedAt);

  const start = (): void => {
    if (started) return;
    started = true;
    startedAt = clock.now();
    const limits: Partial<Record<LimitKind, number>> = { iterations: maxIterations };
    if (o.timeBudgetMs !== undefined) limits.time = o.timeBudgetMs;
    if (o.maxSpendUsd !== undefined) limits.cost = o.maxSpendUsd;
    emit({
      type: 'run.started',
      agentName,
      task: o.task,
      ...(o.sessionId === undefined ? {} : { sessionId: o.sessionId }),
      limits,
    });
    const budget = o.timeBudgetMs;
    if (budget !== undefined) {
      timers.push(
        clock.setTimeout(() => {
          approach('time', elapsed(), budget);
        }, budget * APPROACHING),
      );
      timers.push(
        clock.setTimeout(() => {
          windDown();
        }, budget),
      );
    }
  };

  /** Graceful stop: the next turn boundary ends the working turns; the hard stop follows `hardStopAfterMs` later. */
  const windDown = (): void => {
    if (stop !== undefined || ending !== undefined) return;
    const budget = o.timeBudgetMs ?? 0;
    approach('time', elapsed(), budget);
    reach('time', elapsed(), budget);
    stop = { reason: 'time-budget', mode: 'ask' };
    emit({ type: 'wind-down.started', reason: 'time-budget', graceIterations: 1 });
    timers.push(
      clock.setTimeout(() => {
        if (ending === undefined)
          hardStop.abort(
            setup.hardStopError(
              `hard stop: the time budget of ${String(budget)} ms and ${String(hardStopAfterMs)} ms of grace are used up`,
            ),
          );
      }, hardStopAfterMs),
    );
  };

  const stats = (): ProgressReportStats => {
    const s: ProgressReportStats = { iterations, toolCalls: log.toolCallCount, elapsedMs: elapsed() };
    if (priced) s.costUsd = spentUsd;
    return s;
  };

  const finishStep = (id: string, usage: ModelUsage | undefined, model: string, finishReason?: string): boolean => {
    const step = steps.get(id);
    if (step === undefined) return false;
    steps.delete(id);
    let costUsd: number | undefined;
    // A model call is priced: one that reported usage, or was started as one. Its cost is unknown
    // when costOf gives no usable number; the runtime's rule then holds (cost/unpriced-calls.ts).
    if (o.costOf !== undefined && (usage !== undefined || step.modelCall)) {
      if (usage !== undefined) {
        try {
          const c = o.costOf(usage, { model });
          if (typeof c === 'number' && Number.isFinite(c) && c >= 0) costUsd = c;
          else if (c !== undefined)
            internal(setup.invalidCostError(`costOf returned ${describeThrown(c, 80)}, not a finite number >= 0`), 'costOf');
        } catch (error) {
          internal(error, 'costOf');
        }
      }
      if (costUsd === undefined) {
        const told = unpriced.record(model, o.maxSpendUsd);
        if (told !== undefined) warnings.push({ code: 'cost-unknown', message: told.message });
      } else {
        priced = true;
        spentUsd += costUsd;
      }
    }
    emit({
      type: 'step.finished',
      step: step.name,
      durationMs: Math.max(0, clock.now() - step.startedAt),
      ...(usage === undefined ? {} : { usage }),
      ...(finishReason === undefined ? {} : { finishReason }),
      ...(costUsd === undefined ? {} : { costUsd }),
    });
    if (o.maxSpendUsd !== undefined) approach('cost', spentUsd, o.maxSpendUsd);
    return true;
  };

  return {
    hub,
    log,
    signal,
    maxIterations,
    warnings,
    get stop(): StopState | undefined {
      return stop;
    },
    get ending(): boolean {
      return ending !== undefined;
    },
    get iterations(): number {
      return iterations;
    },
    emit,
    start,
    /** The agent's own name for `run.started`, unless `agentName` was given. */
    nameAgent(name: string): void {
      if (o.agentName === undefined && !started && name !== '') agentName = name;
    },
    /** True when the caller's `abortSignal` fired. */
    cancelled(): boolean {
      return o.abortSignal?.aborted === true;
    },
    finishStep,
    isStepOpen(id: string): boolean {
      return steps.has(id);
    },
    elapsed,
    stats,
    /**
     * An iteration (a model call, a superstep) is about to begin. Returns the stop when a limit says
     * no further working iteration may run (the bridge then ends the working turns); undefined to go on.
     */
    turnStarting(): StopState | undefined {
      start();
      if (stop === undefined && o.timeBudgetMs !== undefined && elapsed() >= o.timeBudgetMs) windDown();
      const budget = o.maxSpendUsd;
      if (stop === undefined && budget !== undefined && spentUsd >= budget) {
        // The budget is spent: no model call is left to write the report with.
        reach('cost', spentUsd, budget);
        stop = { reason: 'cost-budget', mode: 'fallback' };
      }
      if (setup.stopBeforeLastIteration === true && stop === undefined && iterations >= maxIterations - 1) {
        reach('iterations', maxIterations, maxIterations);
        stop = { reason: 'max-iterations', mode: 'ask' };
      }
      return stop;
    },
    /** The framework's own iteration limit fired: the working turns end with an iteration-limit report. */
    turnLimitReached(): StopState {
      start();
      if (stop === undefined) {
        reach('iterations', maxIterations, maxIterations);
        stop = { reason: 'max-iterations', mode: 'ask' };
      }
      return stop;
    },
    /** An iteration (a turn, a superstep) begins. */
    iterationStarted(): void {
      start();
      const index = iterations;
      iterations = index + 1;
      emit({ type: 'iteration', index, max: maxIterations });
      // As headway's runtime: before the last iteration (from 80% of the limit, and at the latest one ahead of it).
      if (index < maxIterations - 1) approach('iterations', index + 1, maxIterations, index + 2 >= maxIterations);
      active?.iterationStarted();
      toolsStarted = false;
    },
    /** The iteration's steps have all finished. */
    iterationFinished(): void {
      active?.iterationFinished();
    },
    /** Step `id` (a model call, a node run) begins. */
    stepStarted(id: string, name: string, description: string, model?: { provider?: string; model?: string }): void {
      start();
      steps.set(id, { name, startedAt: clock.now(), modelCall: model !== undefined });
      emit({
        type: 'step.started',
        step: name,
        description,
        ...(model?.provider === undefined ? {} : { provider: model.provider }),
        ...(model?.model === undefined ? {} : { model: model.model }),
      });
    },
    toolStarted(toolName: string, toolCallId: string, args: unknown): void {
      if (!toolsStarted) {
        toolsStarted = true;
        active?.toolsStarted();
      }
      toolStarts.set(toolCallId, clock.now());
      if (!quiet) emit({ type: 'tool.executing', toolName, toolCallId, args: redact(args) });
    },
    toolFinished(toolName: string, toolCallId: string, args: unknown, result: unknown, ok: boolean): void {
      const began = toolStarts.get(toolCallId);
      toolStarts.delete(toolCallId);
      const durationMs = began === undefined ? 0 : Math.max(0, clock.now() - began);
      log.recordToolCall({ iteration: iterations, name: toolName, args, result, ok, durationMs });
      active?.toolCallFinished(toolName, ok);
      if (!quiet) emit({ type: 'tool.completed', toolName, toolCallId, durationMs, ok, preview: toolResultPreview(result) });
    },
    /** Model text of a working turn: kept in the log for the fallback report. */
    text(text: string): void {
      if (text !== '') log.recordText({ iteration: iterations, text });
    },
    /**
     * Work handed to a nested agent (a handoff, a subgraph): from now on its turns move a child
     * tracker that fills the rest of the current tracker's bar (`mapProgressToRange` inside the
     * estimator), so the bar never moves backwards.
     */
    nest(label: string): void {
      if (active === undefined) return;
      parents.push(active);
      const from = active.percent;
      active = active.child({ start: from, end: Math.max(from, 95) }, { maxIterations: Math.max(1, maxIterations - iterations) });
      active.setMessage(label);
    },
    /** The nested work ended: the parent's tracker moves the bar again. */
    unnest(): void {
      const parent = parents.pop();
      if (parent !== undefined) active = parent;
    },
    /** A plan from the agent (a graph's state key): validated, then `plan.updated` and the estimator's plan source. */
    planUpdated(items: unknown): boolean {
      const parsed = validateUntrusted(planItemsSchema, items);
      if (!parsed.success) {
        warnings.push({ code: 'plan-invalid', message: `the plan in the state was not used: ${describeIssues(parsed.issues)}` });
        return false;
      }
      emit({ type: 'plan.updated', items: parsed.data });
      root?.planUpdated({ items: parsed.data });
      return true;
    },
    /** The report prompt for `reason`, with the run's counters (plus `extraIterations` when the report call is one more iteration). */
    reportPrompt(reason: StopReason, extraIterations = 0): string {
      const limits: ReportPromptLimits = { iterations: iterations + extraIterations, maxIterations, elapsedMs: elapsed() };
      if (o.timeBudgetMs !== undefined) limits.timeBudgetMs = o.timeBudgetMs;
      if (priced) limits.costUsd = spentUsd;
      if (o.maxSpendUsd !== undefined) limits.costBudgetUsd = o.maxSpendUsd;
      return buildReportPrompt(reason, { task: o.task, log, limits });
    },
    /** Marks the report call as made (`asked`) or answered with `text`. */
    reportAsked(): void {
      if (stop !== undefined) stop.mode = 'asked';
    },
    /** Emits the terminal event once and returns the run's result. */
    end(kind: EndKind): Promise<HeadwayRunResult> {
      ending ??= (async (): Promise<HeadwayRunResult> => {
        start();
        for (const t of timers) clock.clearTimeout(t);
        const result = compute(kind);
        const { terminal } = result;
        if (result.report !== undefined) emit({ type: 'report.generated', report: result.report });
        emit(terminal);
        if (ownsHub) await hub.flush({ timeoutMs: FLUSH_TIMEOUT_MS });
        const out: HeadwayRunResult = { outcome: result.outcome, warnings: [...warnings] };
        if (o.costOf !== undefined) out.unpricedCalls = unpriced.count;
        if (result.reason !== undefined) out.reason = result.reason;
        if (result.report !== undefined) out.report = result.report;
        return out;
      })();
      return ending;
    },
  };

  function compute(kind: EndKind): { outcome: HeadwayOutcome; reason?: StopReason; report?: ProgressReport; terminal: ProgressEventBody } {
    if (kind.completed && stop === undefined) {
      root?.complete();
      return {
        outcome: 'completed',
        terminal: {
          type: 'run.finished',
          durationMs: elapsed(),
          outcome: 'completed',
          summary: `finished after ${String(iterations)} iteration(s)`,
        },
      };
    }
    const cancelled = !kind.completed && kind.cancelled === true;
    if (stop !== undefined && !cancelled) {
      const reason = stop.reason;
      let report: ProgressReport;
      if (!kind.completed && kind.reportText !== undefined) {
        const read = reportFromModel(kind.reportText, { task: o.task, reason, stats: stats(), log });
        report = read.report;
        warnings.push(...read.warnings.map((message) => ({ code: 'report-unusable' as const, message })));
      } else {
        report = buildFallbackReport({ task: o.task, log, reason, stats: stats() });
      }
      const limit = LIMIT_OF[reason];
      return {
        outcome: 'limit',
        reason,
        report,
        terminal: {
          type: 'run.finished',
          durationMs: elapsed(),
          outcome: 'limit',
          summary: `stopped at ${limit === undefined ? reason : `the ${limit} limit`} after ${String(iterations)} iteration(s); progress report attached`,
        },
      };
    }
    const reason: StopReason = cancelled ? 'cancelled' : 'error';
    const report = buildFallbackReport({ task: o.task, log, reason, stats: stats() });
    const error = kind.completed ? undefined : kind.error;
    const terminal: ProgressEventBody = cancelled
      ? { type: 'run.cancelled', reason: errorMessage(o.abortSignal?.reason ?? 'aborted') }
      : { type: 'run.error', error: errorMessage(error) };
    return { outcome: cancelled ? 'cancelled' : 'error', reason, report, terminal };
  }
}
