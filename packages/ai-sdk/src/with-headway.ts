// The bridge between one AI SDK multi-step call and headway's events. The AI SDK owns the
// loop; this file only listens to its callbacks (prepareStep, step/tool hooks, stopWhen) and
// decides, at step boundaries, when the next step must be the report step. It is longer than
// most files because every hook reads and writes the same run state, kept in one closure.
import { ProgressTracker, extractModelProgress, stripModelProgress } from '@headway/estimator';
import {
  createProgressHub,
  createRedactor,
  isNullReporter,
  systemClock,
  toolResultPreview,
  type Clock,
  type EventEnvelope,
  type LimitKind,
  type ModelUsage,
  type ProgressEventBody,
  type ProgressHub,
  type ProgressReport,
  type ProgressReportStats,
  type StepFinishedEvent,
  type StopReason,
} from '@headway/protocol';
import { describeThrown, errorMessage, unrefClock } from '@headway/protocol/internal';
import { buildFallbackReport, buildReportPrompt, ToolCallLog, type ReportPromptLimits } from '@headway/report';
import type { ModelMessage } from 'ai';
import { AiSdkError } from './ai-sdk-error.js';
import { checkInstalledAi } from './ai-version.js';
import { bridgeSignal, createUnpricedCalls, reportFromModel } from '@headway/runtime/bridge-kit';
import { parseOptions, type AiSdkErrorContext, type CostOf, type WithHeadwayOptions } from './options.js';
import { StallWatch } from './stall-watch.js';
import { finishReasonOf, usageOf, type StepFacts } from './step-facts.js';

/** What the AI SDK passes to `prepareStep` that the bridge reads. */
export interface PrepareStepInput {
  readonly stepNumber: number;
  readonly messages: ModelMessage[];
}

/** What the bridge's `prepareStep` returns for the report step: the report prompt, and no tools. */
export interface ReportStepSettings {
  messages: ModelMessage[];
  toolChoice: 'none';
  activeTools: never[];
}

/** What the bridge's `prepareStep` returns for a step after a stall its `nudge` policy answered: one message more. */
export interface NudgeStepSettings {
  messages: ModelMessage[];
}

/** A tool call as the AI SDK's tool hooks describe it. */
export interface ToolCallFacts {
  readonly toolCall: { readonly toolName: string; readonly toolCallId: string; readonly input: unknown };
  readonly stepNumber?: number | undefined;
}

/** The tool-finished hook's event: `success` with `output`, or not with `error`. */
export type ToolCallFinishFacts = ToolCallFacts & { readonly durationMs: number } & (
    { readonly success: true; readonly output: unknown } | { readonly success: false; readonly error: unknown }
  );

/**
 * The options to spread into `generateText` / `streamText`. They replace the AI SDK's
 * `stopWhen` (its default stops after one step); spread your own callbacks after them only if
 * you call ours from yours.
 */
export interface HeadwaySettings {
  /** Nothing for a working step, the nudge for the step after a stall (`stallPolicy: 'nudge'`), the report settings for the report step. */
  prepareStep: (options: PrepareStepInput) => ReportStepSettings | NudgeStepSettings | undefined;
  stopWhen: (options: { steps: readonly unknown[] }) => boolean;
  experimental_onStepStart: (event: {
    readonly stepNumber: number;
    readonly model: { readonly provider: string; readonly modelId: string };
  }) => void;
  onStepFinish: (step: StepFacts) => void;
  experimental_onToolCallStart: (event: ToolCallFacts) => void;
  experimental_onToolCallFinish: (event: ToolCallFinishFacts) => void;
  /**
   * Aborts the call at the hard time stop, or when your `abortSignal` fires; absent when neither
   * can happen (no `timeBudgetMs`, no `abortSignal`).
   */
  abortSignal?: AbortSignal;
}

/** How a run ended. */
export type HeadwayOutcome = 'completed' | 'limit' | 'cancelled' | 'error';

/** What {@link HeadwayRun.finish} and {@link HeadwayRun.fail} return. */
export interface HeadwayRunResult {
  outcome: HeadwayOutcome;
  /** Why the run stopped short; absent when it completed. */
  reason?: StopReason;
  /** The progress report, for every run that did not complete. */
  report?: ProgressReport;
  /** Problems the caller may want to log: an unusable model report, a model `costOf` could not price under `maxSpendUsd` (once per model). */
  warnings: string[];
  /**
   * Steps whose cost is unknown (no usable token counts, or `costOf` threw or gave no finite
   * number >= 0): left out of the spend and of `report.stats.costUsd`, never counted as $0 or as
   * the budget (headway's runtime's rule). Present when `costOf` was given.
   */
  unpricedCalls?: number;
}

/** One tracked AI SDK call: its settings, and the two ways to end it. */
export interface HeadwayRun {
  readonly runId: string;
  /** The hub events go to (the one passed in, or the one created for `sinks`). */
  readonly hub: ProgressHub;
  /** Spread into `generateText` / `streamText`. */
  readonly settings: HeadwaySettings;
  /** Call after the AI SDK call settled (for `streamText`: after the stream was read): emits the terminal event and returns the report. */
  finish(): Promise<HeadwayRunResult>;
  /** Call with what the AI SDK call threw: a cancellation, the hard time stop, or an error. */
  fail(error: unknown): Promise<HeadwayRunResult>;
  /** Awaits `call`, then finishes or fails the run; rethrows nothing. */
  track<T>(call: PromiseLike<T>): Promise<HeadwayRunResult & { result?: T; error?: unknown }>;
}

const DEFAULT_MAX_ITERATIONS = 20;
const DEFAULT_HARD_STOP_AFTER_MS = 30_000;
const APPROACHING = 0.8;
const FLUSH_TIMEOUT_MS = 5_000;

// Unref'd: a forgotten `finish()` must not keep the process alive for the time budget.
const defaultClock: Clock = unrefClock(systemClock);

/** Whether `value` can key a WeakMap (the AI SDK's tool call always can; a caller of ours from plain JavaScript may pass anything). */
function isObject(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

const LIMIT_OF: Partial<Record<StopReason, LimitKind>> = { 'max-iterations': 'iterations', 'time-budget': 'time', 'cost-budget': 'cost' };
/** How the summary of a run stopped without a limit names why. */
const STOP_TEXT: Partial<Record<StopReason, string>> = { stalled: 'a stall (the run was repeating itself)' };

/**
 * Tracks one `generateText` / `streamText` call with headway: the same events as headway's
 * runtime (`run.started`, `iteration`, `step.*`, `tool.*`, `progress`, limits, wind-down,
 * `report.generated`, one terminal event), and at a limit a last step in which the model is
 * asked for its progress report (the prompt goes into the step's messages, with no tools).
 * Stalls (the same call with the same result again and again, and the like) are detected as in
 * the runtime: `stall.detected` / `stall.cleared`, a frozen bar, and `stallPolicy` to nudge the
 * model once or wind the run down (stop reason `stalled`).
 *
 * @throws {AiSdkError} `AI_SDK_INVALID_OPTIONS`, naming every invalid field;
 * `AI_SDK_UNSUPPORTED_VERSION` when the installed `ai` is not a supported major (`^6`).
 * @example
 * ```ts
 * const run = withHeadway({ task: 'Find the auth middleware', sinks: [new CLIReporter()], maxIterations: 10 });
 * const result = await generateText({ model, tools, prompt: 'Find the auth middleware', ...run.settings });
 * const { outcome, report } = await run.finish();
 * ```
 */
export function withHeadway(options: WithHeadwayOptions): HeadwayRun {
  checkInstalledAi();
  const o = parseOptions(options);
  const clock = o.clock ?? defaultClock;
  const maxIterations = o.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  const hardStopAfterMs = o.hardStopAfterMs ?? DEFAULT_HARD_STOP_AFTER_MS;
  const ownsHub = o.hub === undefined;
  const hub = o.hub ?? createProgressHub({ runId: o.runId ?? crypto.randomUUID(), clock });
  if (ownsHub) for (const sink of o.sinks ?? []) hub.add(sink);
  const internal = (error: unknown, where: AiSdkErrorContext['where']): void => {
    try {
      o.onInternalError?.(error, { where });
    } catch {
      // The callback may not break the run either.
    }
  };
  // A NullReporter costs nothing: with only NullReporters (which the hub skips) and no hub of
  // the caller's, no event would reach anyone, so none is built. The report is still kept.
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
  // Built once per run, with the log's own (default) options: every tool call's args pass through it once.
  const redactArgs = createRedactor({});
  /**
   * Each running call's arguments, redacted when the call starts, by the AI SDK's tool call
   * object (the same object in the start and finish hooks): the tool-call log takes them from
   * here instead of redacting them again at the end, so it keeps the arguments the tool was
   * called with (a tool may change its input object) and `tool.executing` carries the same copy.
   * A call never finished leaves nothing behind (a WeakMap).
   */
  const startedArgs = new WeakMap<object, unknown>();
  const previewOptions = o.redact === false ? { redact: false as const } : {};
  const tracker = quiet ? undefined : new ProgressTracker({ maxIterations: maxIterations, clock, steps: o.steps ?? [], emit });
  // With no event going anywhere and `warn`, a stall would change nothing: the detector is not fed.
  const watching = !quiet || (o.stallPolicy !== undefined && o.stallPolicy !== 'warn');
  const stall = new StallWatch({
    policy: o.stallPolicy ?? 'warn',
    thresholds: o.stall ?? {},
    pollTools: o.pollTools ?? [],
    emit,
    setStalled: (stalled) => tracker?.setStalled(stalled),
    onPolicyError: (error) => {
      internal(error, 'stallPolicy');
    },
  });
  // Plan updates the caller emits into the hub (its own plan tool) count as progress.
  let stopWatchingPlan: (() => void) | undefined;
  if (!quiet)
    try {
      stopWatchingPlan = hub.add((event) => {
        if (event.type === 'plan.updated') stall.plan(event.items.filter((item) => item.status === 'completed').length);
      });
    } catch (error) {
      // A hub of the caller's that takes no sinks: plan updates then do not count as progress.
      internal(error, 'emit');
    }
  const hardStop = new AbortController();
  // Read once: `signal` is a getter of Node's AbortController, and stopWhen asks every step.
  const hardStopSignal = hardStop.signal;
  // As every bridge: no signal when nothing can fire one (no time budget, no abortSignal of yours).
  const abortSignal = bridgeSignal(hardStopSignal, o.timeBudgetMs !== undefined, o.abortSignal);
  const timers: unknown[] = [];

  let startedAt = 0;
  let started = false;
  let iterations = 0;
  let spentUsd = 0;
  let priced = false;
  /** Steps that could not be priced: left out of the spend, counted, said once per model (the runtime's rule). */
  const unpriced = createUnpricedCalls('have costOf price it');
  const costWarnings: string[] = [];
  let stepStartedAt = 0;
  let toolsStarted = false;
  const approached = new Set<LimitKind>();
  const reached = new Set<LimitKind>();
  /** Set when a limit was hit: the next step is the report step (`asked`), or none is made (`fallback`). */
  let stop: { reason: StopReason; mode: 'pending' | 'asked' | 'answered' | 'fallback' } | undefined;
  let reportText: string | undefined;
  let ending: Promise<HeadwayRunResult> | undefined;

  const schedule = (ms: number, fn: () => void): void => {
    timers.push(clock.setTimeout(fn, ms));
  };
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
      agentName: o.agentName ?? 'ai-sdk-agent',
      task: o.task,
      ...(o.sessionId === undefined ? {} : { sessionId: o.sessionId }),
      limits,
    });
    const budget = o.timeBudgetMs;
    if (budget !== undefined) {
      schedule(budget * APPROACHING, () => {
        approach('time', elapsed(), budget);
      });
      schedule(budget, () => {
        windDown('time-budget');
      });
    }
  };

  /** Graceful stop: the next step is the report step; the hard stop follows `hardStopAfterMs` later. */
  const windDown = (reason: 'time-budget'): void => {
    if (stop !== undefined || ending !== undefined) return;
    const budget = o.timeBudgetMs ?? 0;
    approach('time', elapsed(), budget);
    reach('time', elapsed(), budget);
    stop = { reason, mode: 'pending' };
    emit({ type: 'wind-down.started', reason, graceIterations: 1 });
    schedule(hardStopAfterMs, () => {
      if (ending === undefined)
        hardStop.abort(
          new AiSdkError(
            'AI_SDK_HARD_STOP',
            `hard stop: the time budget of ${String(budget)} ms and ${String(hardStopAfterMs)} ms of grace are used up`,
          ),
        );
    });
  };

  const stats = (): ProgressReportStats => {
    const s: ProgressReportStats = { iterations, toolCalls: log.toolCallCount, elapsedMs: elapsed() };
    if (priced) s.costUsd = spentUsd;
    return s;
  };

  const reportPrompt = (reason: StopReason): string => {
    const limits: ReportPromptLimits = { iterations, maxIterations, elapsedMs: elapsed() };
    if (o.timeBudgetMs !== undefined) limits.timeBudgetMs = o.timeBudgetMs;
    if (priced) limits.costUsd = spentUsd;
    if (o.maxSpendUsd !== undefined) limits.costBudgetUsd = o.maxSpendUsd;
    if (reason === 'stalled' && stall.lastStall !== undefined) limits.stall = stall.lastStall;
    return buildReportPrompt(reason, { task: o.task, log, limits });
  };

  /** The step's cost by `costOf`, or `undefined` (told to `onInternalError`) when it cannot be known. */
  const priceStep = (costOf: CostOf, step: StepFacts, usage: ModelUsage | undefined): number | undefined => {
    const where = `step ${String(iterations)}`;
    const budgetNote = o.maxSpendUsd === undefined ? '' : '; not counted against maxSpendUsd';
    if (usage === undefined || step.model === undefined) {
      const what = step.model === undefined ? 'no model' : `no usable token counts (${describeThrown(step.usage, 120)})`;
      internal(new AiSdkError('AI_SDK_UNKNOWN_USAGE', `${where} reported ${what}: its cost is unknown${budgetNote}`), 'usage');
      return undefined;
    }
    let c: unknown;
    try {
      c = costOf(usage, { provider: step.model.provider, modelId: step.model.modelId });
    } catch (error) {
      const message = `${where}: costOf threw ${describeThrown(error, 80)}: its cost is unknown${budgetNote}`;
      internal(new AiSdkError('AI_SDK_INVALID_COST', message, { cause: error }), 'costOf');
      return undefined;
    }
    if (typeof c === 'number' && Number.isFinite(c) && c >= 0) return c;
    const message = `${where}: costOf returned ${describeThrown(c, 80)}, not a finite number >= 0: its cost is unknown${budgetNote}`;
    internal(new AiSdkError('AI_SDK_INVALID_COST', message), 'costOf');
    return undefined;
  };

  const settings: HeadwaySettings = {
    prepareStep({ stepNumber, messages }) {
      start();
      if (ending !== undefined) return undefined;
      if (o.timeBudgetMs !== undefined && stop === undefined && elapsed() >= o.timeBudgetMs) windDown('time-budget');
      const index = stepNumber;
      iterations = index + 1;
      // Quiet, no body is built: emit would drop it (as every emit below that checks `quiet` first).
      if (!quiet) emit({ type: 'iteration', index, max: maxIterations });
      // As headway's runtime: before the last iteration (from 80% of the limit, and at the latest one
      // iteration ahead of it), never in the iteration that reaches it.
      if (index < maxIterations - 1) approach('iterations', index + 1, maxIterations, index + 2 >= maxIterations);
      if (stop === undefined && index >= maxIterations - 1) {
        reach('iterations', maxIterations, maxIterations);
        stop = { reason: 'max-iterations', mode: 'pending' };
      }
      tracker?.iterationStarted();
      if (stop?.mode !== 'pending') {
        // Once per stall, and never in the report step: the report prompt says what looped.
        const nudge = stop === undefined ? stall.takeNudge() : undefined;
        return nudge === undefined ? undefined : { messages: [...messages, { role: 'user', content: nudge }] };
      }
      stop.mode = 'asked';
      // Messages, not `userMessage`: prepareStep's result has no such field and the model would never see it.
      return { messages: [...messages, { role: 'user', content: reportPrompt(stop.reason) }], toolChoice: 'none', activeTools: [] };
    },

    experimental_onStepStart({ stepNumber, model }) {
      // Quiet, the step's start is read by nothing: no step.started, no step.finished duration, no tracker.
      if (quiet) return;
      stepStartedAt = clock.now();
      toolsStarted = false;
      const reporting = stop?.mode === 'asked';
      emit({
        type: 'step.started',
        step: `llm-${stepNumber + 1}`,
        description: reporting ? 'model call (no tools)' : 'model call',
        provider: model.provider,
        model: model.modelId,
      });
    },

    experimental_onToolCallStart({ toolCall }) {
      // Quiet, there is no tracker and no event: only the arguments are kept, for the log.
      if (!quiet && !toolsStarted) {
        toolsStarted = true;
        tracker?.toolsStarted();
      }
      const { toolName, toolCallId, input } = toolCall;
      const redacted = redactArgs(input);
      if (isObject(toolCall)) startedArgs.set(toolCall, redacted);
      // `redact: false` turns redaction off in the events only: the log keeps its own.
      if (!quiet) emit({ type: 'tool.executing', toolName, toolCallId, args: o.redact === false ? input : redacted });
    },

    experimental_onToolCallFinish(event) {
      // Each field read once: the AI SDK's event and tool call are foreign objects, read three times over below.
      const { toolCall, success } = event;
      const { toolName, toolCallId, input } = toolCall;
      const result = success ? event.output : errorMessage(event.error);
      // Redacted once, when the call started (the copy tool.executing carried, unless `redact: false`);
      // a call whose start this run did not see is redacted by the log itself.
      const redacted = isObject(toolCall) && startedArgs.has(toolCall);
      const args = redacted ? startedArgs.get(toolCall) : input;
      if (redacted) startedArgs.delete(toolCall);
      log.recordToolCall({
        iteration: iterations,
        name: toolName,
        args,
        argsRedacted: redacted,
        result,
        ok: success,
        durationMs: event.durationMs,
      });
      if (!quiet) {
        tracker?.toolCallFinished(toolName, success);
        emit({
          type: 'tool.completed',
          toolName,
          toolCallId,
          durationMs: Math.max(0, event.durationMs),
          ok: success,
          // Redacted here, where the event is made: any sink may be a browser, a stream or a trace.
          preview: toolResultPreview(result, 100, previewOptions),
        });
      }
      // After tool.completed, as in the runtime: the stall names the call just shown.
      if (watching)
        stall.toolCall({ iteration: Math.max(0, iterations - 1), id: toolCallId, name: toolName, args: input, result, ok: success });
    },

    onStepFinish(step) {
      // Read for the price and for step.finished: quiet and unpriced, neither is made.
      const usage = quiet && o.costOf === undefined ? undefined : usageOf(step);
      const costUsd = o.costOf === undefined ? undefined : priceStep(o.costOf, step, usage);
      if (costUsd !== undefined) {
        priced = true;
        spentUsd += costUsd;
      } else if (o.costOf !== undefined) {
        const model = step.model === undefined ? 'a model the step did not name' : `${step.model.provider}/${step.model.modelId}`;
        const told = unpriced.record(model, o.maxSpendUsd);
        if (told !== undefined) costWarnings.push(told.message);
      }
      if (!quiet) {
        // Built field by field (in the event's key order), not with spreads: this runs every step.
        const finished: Omit<StepFinishedEvent, keyof EventEnvelope> = {
          type: 'step.finished',
          step: `llm-${iterations}`,
          durationMs: Math.max(0, clock.now() - stepStartedAt),
        };
        const finishReason = finishReasonOf(step);
        if (usage !== undefined) finished.usage = usage;
        if (finishReason !== undefined) finished.finishReason = finishReason;
        if (costUsd !== undefined) finished.costUsd = costUsd;
        emit(finished);
      }
      // Read once: the AI SDK works the step's text out anew on every read of `text`.
      const stepText = step.text;
      const text = typeof stepText === 'string' ? stepText : '';
      // Quiet, the reasoning is read by nothing (the AI SDK computes it anew on every read).
      if (!quiet) {
        const reasoning = step.reasoningText;
        if (typeof reasoning === 'string' && reasoning !== '') emit({ type: 'thinking', content: reasoning });
      }
      if (stop?.mode === 'asked') {
        stop.mode = 'answered';
        reportText = text;
      } else if (text !== '') {
        // A model asked for `_progress` (PROGRESS_PROMPT_INSTRUCTIONS) reports it in its text.
        const progress = tracker === undefined ? undefined : extractModelProgress(text);
        if (progress !== undefined) tracker?.reportModelProgress(progress);
        const visible = stripModelProgress(text);
        log.recordText({ iteration: iterations, text: visible });
        if (watching) stall.text(Math.max(0, iterations - 1), visible);
      }
      if (stop === undefined && watching) {
        stall.iterationFinished(Math.max(0, iterations - 1));
        // A stall the policy answered with `wind-down` ends the run like a limit: the next step is the report step.
        if (stall.windDown !== undefined && ending === undefined) {
          stop = { reason: 'stalled', mode: 'pending' };
          emit({ type: 'wind-down.started', reason: 'stalled', graceIterations: 1 });
        }
      }
      tracker?.iterationFinished();
      if (o.maxSpendUsd !== undefined) approach('cost', spentUsd, o.maxSpendUsd);
    },

    stopWhen() {
      if (ending !== undefined || hardStopSignal.aborted) return true;
      if (stop !== undefined && stop.mode !== 'pending') return true;
      const budget = o.maxSpendUsd;
      // Only the priced spend counts (the runtime's rule): an unknown cost is neither free nor the budget.
      if (budget !== undefined && spentUsd >= budget && stop === undefined) {
        // The budget is spent: no model call is left to write the report with.
        reach('cost', spentUsd, budget);
        stop = { reason: 'cost-budget', mode: 'fallback' };
        return true;
      }
      return false;
    },

    // Left out, not undefined, when there is none: the AI SDK's option is optional, not nullable.
    ...(abortSignal === undefined ? {} : { abortSignal }),
  };

  const end = async (compute: () => HeadwayRunResult & { terminal: ProgressEventBody }): Promise<HeadwayRunResult> => {
    start();
    for (const t of timers) clock.clearTimeout(t);
    try {
      stopWatchingPlan?.();
    } catch (error) {
      internal(error, 'emit');
    }
    const { terminal, ...result } = compute();
    if (costWarnings.length > 0) result.warnings.unshift(...costWarnings);
    if (o.costOf !== undefined) result.unpricedCalls = unpriced.count;
    if (result.report !== undefined) emit({ type: 'report.generated', report: result.report });
    emit(terminal);
    if (ownsHub) await hub.flush({ timeoutMs: FLUSH_TIMEOUT_MS });
    return result;
  };

  const limitResult = (
    reason: StopReason,
    text: string | undefined,
    useModel: boolean,
  ): HeadwayRunResult & { terminal: ProgressEventBody } => {
    const written = useModel
      ? reportFromModel(text, { task: o.task, reason, stats: stats(), log })
      : { report: buildFallbackReport({ task: o.task, log, reason, stats: stats() }), warnings: [] };
    const warnings = written.warnings;
    // A report of a run stopped as stuck says what looped, whoever wrote it (as the runtime's).
    const looped = reason === 'stalled' && stall.lastStall !== undefined ? `Stopped as stuck: ${stall.lastStall}` : undefined;
    const report: ProgressReport =
      looped === undefined
        ? written.report
        : { ...written.report, attemptedInconclusive: [looped, ...written.report.attemptedInconclusive] };
    const limit = LIMIT_OF[reason];
    const why = limit === undefined ? (STOP_TEXT[reason] ?? reason) : `the ${limit} limit`;
    return {
      outcome: 'limit',
      reason,
      report,
      warnings,
      terminal: {
        type: 'run.finished',
        durationMs: elapsed(),
        outcome: 'limit',
        summary: `stopped at ${why} after ${String(iterations)} iteration(s); progress report attached`,
      },
    };
  };

  const run: HeadwayRun = {
    runId: hub.runId,
    hub,
    settings,
    finish() {
      ending ??= end(() => {
        if (stop !== undefined) return limitResult(stop.reason, reportText, stop.mode === 'answered');
        tracker?.complete();
        return {
          outcome: 'completed',
          warnings: [],
          terminal: {
            type: 'run.finished',
            durationMs: elapsed(),
            outcome: 'completed',
            summary: `finished after ${String(iterations)} iteration(s)`,
          },
        };
      });
      return ending;
    },
    fail(error) {
      ending ??= end(() => {
        const cancelled = o.abortSignal?.aborted === true;
        if (hardStopSignal.aborted && !cancelled) return limitResult(stop?.reason ?? 'time-budget', undefined, false);
        if (stop?.mode === 'asked' && !cancelled) {
          // The report step itself failed (a tool call despite toolChoice none, a provider error): still a limit.
          const result = limitResult(stop.reason, undefined, false);
          result.warnings.push(`the model's report step failed (${errorMessage(error)}); built the report from the tool-call log`);
          return result;
        }
        const reason: StopReason = cancelled ? 'cancelled' : 'error';
        const report = buildFallbackReport({ task: o.task, log, reason, stats: stats() });
        const message = errorMessage(error);
        const terminal: ProgressEventBody = cancelled
          ? { type: 'run.cancelled', reason: errorMessage(o.abortSignal?.reason ?? 'aborted') }
          : { type: 'run.error', error: message };
        return { outcome: cancelled ? 'cancelled' : 'error', reason, report, warnings: [], terminal };
      });
      return ending;
    },
    async track(call) {
      try {
        const result = await call;
        return { ...(await run.finish()), result };
      } catch (error) {
        return { ...(await run.fail(error)), error };
      }
    },
  };
  return run;
}
