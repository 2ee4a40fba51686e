import {
  describeIssues,
  limitIssues,
  planItemsSchema,
  type Clock,
  type PlanItem,
  type ProgressEventBody,
  systemClock,
} from '@headway/protocol';
import { errorMessage, validateUntrusted } from '@headway/protocol/internal';
import { EstimatorError, invalidArgument, shown } from './estimator-error.js';
import type { ProgressRange } from './map-progress-to-range.js';
import { COLD_START_TUNING, coldStartPercent, coldStartTuningSchema, type ColdStartTuning } from './cold-start.js';
import { ETA_CALIBRATION, calibrateEta, etaCalibrationSchema, type EtaCalibration, type EtaEvidence } from './eta-calibration.js';
import type { ModelProgress } from './model-progress.js';
import { PLAN_TUNING, PlanProgress, countPlan, planTuningSchema, type PlanCounts, type PlanTuning } from './plan-progress.js';
import { MAX_STATE_STEPS, progressTrackerStateSchema, type ProgressTrackerState } from './progress-tracker-state.js';
import { RoundtripPosterior } from './roundtrip-posterior.js';
import { computeStepRanges, type StepRange, type WeightedStep } from './step-ranges.js';
import { taskHistorySchema, type TaskHistory } from './task-history.js';

/** The `progress` event body a tracker emits (protocol's `progress` event without the envelope the hub stamps). */
export type ProgressEmission = Extract<ProgressEventBody, { type: 'progress' }>;

/** What {@link ProgressTracker.planUpdated} reads: a `plan.updated` event (or its body). */
export interface PlanUpdate {
  readonly items: readonly PlanItem[];
}

/** Options of a {@link ProgressTracker}. */
export interface ProgressTrackerOptions {
  /** The run's iteration cap; `Infinity` when there is none (then, without history or a plan, the percent is a guess: see {@link ProgressTracker.guess}). */
  maxIterations: number;
  /** Receives a `progress` body whenever the integer percent or the message changes. Errors it throws are swallowed. */
  emit?: (body: ProgressEmission) => void;
  /** Clock the round and ETA times are read from (default protocol's `systemClock`). */
  clock?: Clock;
  /** Trust validated model `_progress` (default true). */
  aiDriven?: boolean;
  /** Weighted steps laid over 10–90 (an agent.json's `fallbackSteps`). */
  steps?: WeightedStep[];
  /** Earlier runs of this kind of task: calibrate percent and ETA. */
  history?: TaskHistory;
  /** A saved {@link ProgressTracker.toJSON} to continue from (validated). */
  state?: unknown;
  /** How the raw point ETA becomes a calibrated median and p10–p90 range (default {@link ETA_CALIBRATION}; validated). */
  etaCalibration?: EtaCalibration;
  /** The fitted constants of the plan reading (see {@link PlanTuning}); default the shipped {@link PLAN_TUNING}. */
  planTuning?: PlanTuning;
  /** The fitted constants of the guess shown without a cap (see {@link ColdStartTuning}); default the shipped {@link COLD_START_TUNING}. */
  coldStart?: ColdStartTuning;
}

/** Options of {@link ProgressTracker.child}; the child inherits the clock. */
export interface ChildTrackerOptions {
  /** The child's own iteration cap; absent, it advances by tool calls (+10 each, up to 80). */
  maxIterations?: number;
  aiDriven?: boolean;
  steps?: WeightedStep[];
  history?: TaskHistory;
}

/** Past this many roundtrips since the last model report, half the remaining gap has been closed. */
const MODEL_ADVANCE_HALF_LIFE = 10;
/** Worker fallback: +10 local per tool call, capped at 80. */
const PER_TOOL_CALL = 10;
const TOOL_CALL_CAP = 80;
/** Furthest into a roundtrip the clock alone may move the bar. */
const MAX_ROUND_SHARE = 0.9;
/** Roundtrips observed before the clock alone moves the bar inside one (a pace from fewer is noise). */
const CLOCK_SHARE_AFTER = 3;

interface ChildSlot {
  range: ProgressRange;
  members: Map<ProgressTracker, number>;
}

/** The options, read once and checked, so a hostile options object fails with a typed error. */
function readOptions(options: unknown): ProgressTrackerOptions {
  if (typeof options !== 'object' || options === null)
    throw invalidArgument('ProgressTracker: options', `must be an object, got ${shown(options)}`);
  let read: ProgressTrackerOptions;
  try {
    const { maxIterations, emit, clock, aiDriven, steps, history, state, etaCalibration, planTuning, coldStart } =
      options as ProgressTrackerOptions;
    read = { maxIterations, emit, clock, aiDriven, steps, history, state, etaCalibration, planTuning, coldStart } as ProgressTrackerOptions;
  } catch (cause) {
    throw new EstimatorError('ESTIMATOR_INVALID_ARGUMENT', `ProgressTracker: options could not be read (${errorMessage(cause, 200)})`, {
      issues: [{ path: 'options', message: 'could not be read' }],
      cause,
    });
  }
  const cap: unknown = read.maxIterations;
  if (typeof cap !== 'number' || Number.isNaN(cap) || cap < 1) {
    throw invalidArgument('ProgressTracker: options.maxIterations', `must be a number >= 1 (or Infinity), got ${shown(cap)}`);
  }
  for (const key of ['emit'] as const) {
    if (read[key] !== undefined && typeof read[key] !== 'function')
      throw invalidArgument(`ProgressTracker: options.${key}`, `must be a function, got ${shown(read[key])}`);
  }
  const clock: unknown = read.clock;
  if (clock !== undefined && (typeof clock !== 'object' || clock === null || typeof (clock as Partial<Clock>).now !== 'function')) {
    throw invalidArgument('ProgressTracker: options.clock', `must be a Clock with now(), got ${shown(clock)}`);
  }
  if (read.aiDriven !== undefined && typeof read.aiDriven !== 'boolean') {
    throw invalidArgument('ProgressTracker: options.aiDriven', `must be true or false, got ${shown(read.aiDriven)}`);
  }
  if (read.history !== undefined) {
    const history = validateUntrusted(taskHistorySchema, read.history, Number.POSITIVE_INFINITY);
    if (!history.success) {
      const issues = limitIssues(
        history.issues.map((i) => ({ path: i.path === '' ? 'history' : `history.${i.path}`, message: i.message })),
      );
      throw new EstimatorError('ESTIMATOR_INVALID_ARGUMENT', `ProgressTracker: options.${describeIssues(issues)}`, { issues });
    }
    read.history = history.data;
  }
  if (read.etaCalibration !== undefined) {
    const calibration = validateUntrusted(etaCalibrationSchema, read.etaCalibration);
    if (!calibration.success) {
      const issues = limitIssues(
        calibration.issues.map((i) => ({ path: i.path === '' ? 'etaCalibration' : `etaCalibration.${i.path}`, message: i.message })),
      );
      throw new EstimatorError('ESTIMATOR_INVALID_ARGUMENT', `ProgressTracker: options.${describeIssues(issues)}`, { issues });
    }
    read.etaCalibration = calibration.data;
  }
  if (read.planTuning !== undefined) {
    const tuning = validateUntrusted(planTuningSchema, read.planTuning);
    if (!tuning.success) {
      const issues = limitIssues(
        tuning.issues.map((i) => ({ path: i.path === '' ? 'planTuning' : `planTuning.${i.path}`, message: i.message })),
      );
      throw new EstimatorError('ESTIMATOR_INVALID_ARGUMENT', `ProgressTracker: options.${describeIssues(issues)}`, { issues });
    }
    read.planTuning = tuning.data;
  }
  if (read.coldStart !== undefined) {
    const tuning = validateUntrusted(coldStartTuningSchema, read.coldStart);
    if (!tuning.success) {
      const issues = limitIssues(
        tuning.issues.map((i) => ({ path: i.path === '' ? 'coldStart' : `coldStart.${i.path}`, message: i.message })),
      );
      throw new EstimatorError('ESTIMATOR_INVALID_ARGUMENT', `ProgressTracker: options.${describeIssues(issues)}`, { issues });
    }
    read.coldStart = tuning.data;
  }
  return read;
}

/** `finishedSteps` of a saved state, read without trusting it (undefined when it cannot be read). */
function readFinishedSteps(state: unknown): unknown {
  try {
    return typeof state === 'object' && state !== null ? (state as { finishedSteps?: unknown }).finishedSteps : undefined;
  } catch {
    return undefined;
  }
}

function stepsOf(steps: unknown): StepRange[] {
  if (steps === undefined) return [];
  try {
    return computeStepRanges(steps as WeightedStep[]);
  } catch (cause) {
    if (cause instanceof EstimatorError) throw cause;
    throw new EstimatorError(
      'ESTIMATOR_INVALID_ARGUMENT',
      `ProgressTracker: options.steps could not be read (${errorMessage(cause, 200)})`,
      { issues: [{ path: 'steps', message: 'could not be read' }], cause },
    );
  }
}

/** Where `fraction` (0–1) of a plan's slice of the bar lies, in percent of the bar. */
function onBar(span: { readonly start: number; readonly end: number }, fraction: number): number {
  return span.start + fraction * (span.end - span.start);
}

function mean(values: Iterable<number>): number {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    sum += v;
    n++;
  }
  return n === 0 ? 0 : sum / n;
}

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/**
 * The one place a run's percent and ETA are decided.
 *
 * Combines, in order of trust, validated model `_progress` (when `aiDriven`), the current
 * weighted step's slice, and a roundtrip estimate that conditions a prior on the total
 * number of roundtrips (log-uniform up to the cap, or learned from `history`) on how many
 * have started. The shown percent is an integer that never decreases, stays at most 99
 * until {@link complete}, and is exactly 100 after it.
 *
 * @example
 * ```ts
 * const tracker = new ProgressTracker({ maxIterations: 30, emit: (body) => hub.emit(body) });
 * tracker.iterationStarted();
 * tracker.toolsStarted();
 * tracker.toolCallFinished('read_file', true);
 * tracker.iterationFinished();
 * tracker.complete(); // emits { type: 'progress', percent: 100 }
 * ```
 */
export class ProgressTracker {
  private readonly cap: number;
  private readonly emitFn: ((body: ProgressEmission) => void) | undefined;
  private readonly source: Clock;
  private readonly aiDriven: boolean;
  private readonly ranges: StepRange[];
  private readonly posterior: RoundtripPosterior | undefined;
  private readonly historyRoundMs: number | undefined;
  private readonly slots = new Map<string, ChildSlot>();
  private readonly calibration: EtaCalibration;
  private readonly coldTuning: ColdStartTuning;
  /** A child tracker without a cap: it advances by tool calls, never by the cold-start guess. */
  private worker = false;

  private shown = 0;
  private message: string | undefined;
  private completed = false;
  private roundtrips = 0;
  private finishedRoundtrips = 0;
  private phase: 'idle' | 'llm' | 'tools' = 'idle';
  private toolCalls = 0;
  private stepToolCalls = 0;
  private currentStep: string | undefined;
  private readonly finishedSteps = new Set<string>();
  private model: { percent: number; atRoundtrip: number } | undefined;
  private llmMs: number | undefined;
  private toolsMs: number | undefined;
  private observedRoundtrips = 0;
  private readonly startedAt: number;
  private roundStartedAt = 0;
  private toolsStartedAt = 0;
  private eta: number | undefined;
  /**
   * The clock reading of the last update while its ETA is not computed yet: the ETA is worked
   * out only when it is read (an emitted `progress` event, the getters), from the state of that
   * update. Most updates change no shown value and emit nothing, and nothing but an update
   * changes what the ETA is computed from, so the value read is the one computing it at every
   * update would have given (progress-tracker.property.test.ts checks this).
   */
  private etaPendingAt: number | undefined;
  private etaLow: number | undefined;
  private etaHigh: number | undefined;
  private evidence: EtaEvidence | undefined;
  private readonly plan: PlanProgress;
  /** The latest plan's counts, for the ETA's `finishing` evidence. */
  private planCounts: PlanCounts | undefined;
  private lastEmitted: { percent: number; message: string | undefined; guess: boolean; plan: number | undefined; stalled?: boolean };
  private stalled = false;

  /**
   * @throws {EstimatorError} `ESTIMATOR_INVALID_ARGUMENT` naming the option (a cap below 1,
   * a zero weight, a `history` that is not `{ runs: [...] }`), or `ESTIMATOR_INVALID_STATE`
   * for a `state` that does not validate.
   */
  constructor(input: ProgressTrackerOptions) {
    const options = readOptions(input);
    const cap = options.maxIterations;
    this.cap = cap;
    this.emitFn = options.emit;
    const source = options.clock ?? systemClock;
    this.source = source;
    this.aiDriven = options.aiDriven ?? true;
    this.calibration = options.etaCalibration ?? ETA_CALIBRATION;
    this.plan = new PlanProgress(options.planTuning ?? PLAN_TUNING);
    this.coldTuning = options.coldStart ?? COLD_START_TUNING;
    this.ranges = stepsOf(options.steps);
    const runs = options.history?.runs ?? [];
    const finiteCap = Number.isFinite(cap) ? cap : undefined;
    this.posterior = finiteCap !== undefined || runs.length > 0 ? new RoundtripPosterior(finiteCap, options.history) : undefined;
    this.historyRoundMs = median(runs.filter((r) => r.roundtrips > 0).map((r) => r.durationMs / r.roundtrips));
    let elapsed = 0;
    if (options.state !== undefined) elapsed = this.restore(options.state);
    this.startedAt = this.now() - elapsed;
    this.roundStartedAt = this.now();
    this.toolsStartedAt = this.roundStartedAt;
    this.lastEmitted = { percent: this.shown, message: this.message, guess: this.guess, plan: this.plan.phase() };
  }

  /** The clock's time. A method, not a closure per tracker: the per-step calls inline it. */
  private now(): number {
    return this.source.now();
  }

  /** The percent shown now: an integer in 0–100 that never decreases. */
  get percent(): number {
    return this.shown;
  }

  /** Milliseconds left, when there is evidence for it (two observed roundtrips and a cap, or history); otherwise undefined. */
  get etaMs(): number | undefined {
    this.settleEta();
    return this.eta;
  }

  /** Low end (about p10) of the time left, with {@link etaMs}; undefined without evidence. */
  get etaLowMs(): number | undefined {
    this.settleEta();
    return this.etaLow;
  }

  /** High end (about p90) of the time left, with {@link etaMs}; undefined without evidence. */
  get etaHighMs(): number | undefined {
    this.settleEta();
    return this.etaHigh;
  }

  /** What the ETA rests on now (`plan` while the agent's plan is trusted, else `history` with history, else `iterations`); undefined without an ETA. */
  get etaEvidence(): EtaEvidence | undefined {
    this.settleEta();
    return this.evidence;
  }

  /**
   * True while the percent is a guess: no cap, no history, no trusted plan, no model report
   * and no weighted steps. The percent then follows the cold-start curve in the iterations
   * ({@link ColdStartTuning}: it rises over the first few, then flattens) and there is no ETA;
   * a view shows it as `~35%`.
   */
  get guess(): boolean {
    return (
      !this.completed &&
      this.posterior === undefined &&
      !this.worker &&
      this.ranges.length === 0 &&
      this.slots.size === 0 &&
      this.model === undefined &&
      this.plan.trust(this.roundtrips) === 0
    );
  }

  /** Which of the agent's plans the bar follows (1, 2, …) once a finished plan was replaced; undefined before. */
  get planNumber(): number | undefined {
    return this.plan.phase();
  }

  /**
   * The agent's own plan changed: pass the `plan.updated` event (or any `{ items }`). The
   * plan moves the bar while the agent keeps it current; a plan that is only declared,
   * stops changing, or restarts after it was finished falls back to the roundtrip estimate,
   * which a fresh plan (changed within `staleAfter` roundtrips, see {@link PLAN_TUNING}) keeps from running more than 3 items ahead.
   * A plan that does not validate (no items, duplicate ids, an unknown status, too many
   * items) is ignored and returns false.
   */
  planUpdated(update: PlanUpdate): boolean {
    if (this.completed) return false;
    let items: unknown;
    try {
      items = typeof update === 'object' && (update as unknown) !== null ? (update as { items?: unknown }).items : undefined;
    } catch {
      return false;
    }
    const parsed = validateUntrusted(planItemsSchema, items);
    if (!parsed.success) return false;
    this.planCounts = countPlan(parsed.data);
    this.plan.update(this.planCounts, this.roundtrips, this.now(), this.shown);
    this.update();
    return true;
  }

  /** A model call begins (phase `llm`); an unfinished previous roundtrip counts as finished. */
  iterationStarted(): void {
    if (this.completed) return;
    const t = this.now();
    if (this.phase !== 'idle') this.closeRound(t);
    this.roundtrips++;
    this.phase = 'llm';
    this.roundStartedAt = t;
    this.toolsStartedAt = t;
    this.update();
  }

  /** The round's tool calls begin (phase `tools`). */
  toolsStarted(): void {
    if (this.completed) return;
    if (this.phase === 'idle') this.iterationStarted();
    if (this.phase === 'tools') return;
    this.phase = 'tools';
    this.toolsStartedAt = this.now();
    this.update();
  }

  /** One tool call ended; counts toward the worker fallback (+10 local each, up to 80). */
  toolCallFinished(name: string, _ok: boolean): void {
    if (this.completed) return;
    if (typeof name === 'string') this.plan.toolRan(name);
    this.toolCalls++;
    this.stepToolCalls++;
    this.update();
  }

  /** The roundtrip (model call and its tools) ended. */
  iterationFinished(): void {
    if (this.completed || this.phase === 'idle') return;
    this.closeRound(this.now());
    this.update();
  }

  /** A validated model `_progress` (see `extractModelProgress`); ignored unless `aiDriven`. */
  reportModelProgress(progress: ModelProgress): void {
    if (this.completed || !Number.isFinite(progress.percent)) return;
    if (progress.message !== undefined) this.message = progress.message;
    if (this.aiDriven) {
      const percent = Math.min(100, Math.max(0, progress.percent));
      this.model = { percent: Math.max(percent, this.model?.percent ?? 0), atRoundtrip: this.roundtrips };
    }
    this.update();
  }

  /** A weighted step begins; its name becomes the message. Unknown names only set the message. */
  stepStarted(name: string): void {
    if (this.completed) return;
    if (this.currentStep !== undefined && this.currentStep !== name) this.finishedSteps.add(this.currentStep);
    this.currentStep = name;
    this.stepToolCalls = 0;
    this.message = name;
    this.update();
  }

  /** A weighted step ended: the bar reaches at least the end of its slice. */
  stepFinished(name: string): void {
    if (this.completed) return;
    this.finishedSteps.add(name);
    if (this.currentStep === name) this.currentStep = undefined;
    this.update();
  }

  /** Sets the message shown with the percent. */
  setMessage(message: string): void {
    if (this.completed) return;
    this.message = message;
    this.update();
  }

  /** Re-reads the clock: lets the bar creep within a long roundtrip. Call it from a timer. */
  tick(): void {
    if (!this.completed) this.update();
  }

  /**
   * The run looks stuck (`stall.detected`) or moves again (`stall.cleared`): while stalled the
   * percent stays where it is and the ETA is unknown, so the bar does not creep forward on a loop.
   */
  setStalled(stalled: boolean): void {
    if (this.completed || this.stalled === stalled) return;
    this.stalled = stalled;
    this.update();
  }

  /** True between `setStalled(true)` and `setStalled(false)`. */
  get isStalled(): boolean {
    return this.stalled;
  }

  /** The run finished successfully: the percent becomes exactly 100. */
  complete(): void {
    if (this.completed) return;
    if (this.phase !== 'idle') this.closeRound(this.now());
    this.completed = true;
    this.update();
  }

  /**
   * A tracker whose 0–100 lands in a slice of this one: a `{ start, end }` range or the
   * slice of a weighted step (which starts it). Several children of one slice (parallel
   * members) count as their mean. Nests to any depth.
   *
   * @example
   * ```ts
   * const worker = manager.child('Generate Content');
   * worker.reportModelProgress({ percent: 50 }); // the manager shows the middle of the step's slice
   * ```
   */
  child(rangeOrStep: ProgressRange | string, options: ChildTrackerOptions = {}): ProgressTracker {
    let key: string;
    let range: ProgressRange;
    if (typeof rangeOrStep === 'string') {
      const step = this.ranges.find((s) => s.name === rangeOrStep);
      if (step === undefined) throw invalidArgument('ProgressTracker.child: step', `names no step: "${shown(rangeOrStep)}"`);
      key = `step:${rangeOrStep}`;
      range = { start: step.start, end: step.end };
      if (this.currentStep !== rangeOrStep && !this.finishedSteps.has(rangeOrStep)) this.stepStarted(rangeOrStep);
    } else {
      const { start, end } = rangeOrStep;
      if (!Number.isFinite(start) || !Number.isFinite(end) || start < 0 || end > 100 || start > end) {
        throw invalidArgument('ProgressTracker.child: range', `must satisfy 0 <= start <= end <= 100, got ${shown(start)}–${shown(end)}`);
      }
      key = `range:${start}-${end}`;
      range = { start, end };
    }
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = { range, members: new Map() };
      this.slots.set(key, slot);
    }
    const members = slot.members;
    const child: ProgressTracker = new ProgressTracker({
      maxIterations: options.maxIterations ?? Number.POSITIVE_INFINITY,
      clock: this.source,
      emit: (body) => {
        members.set(child, body.percent);
        if (body.message !== undefined && !this.completed) this.message = body.message;
        this.update();
      },
      ...(options.aiDriven === undefined ? {} : { aiDriven: options.aiDriven }),
      ...(options.steps === undefined ? {} : { steps: options.steps }),
      ...(options.history === undefined ? {} : { history: options.history }),
    });
    child.worker = options.maxIterations === undefined;
    members.set(child, 0);
    return child;
  }

  /** Plain JSON state for checkpoints; pass it back as `state` to continue. */
  toJSON(): ProgressTrackerState {
    const state: ProgressTrackerState = {
      version: 1,
      percent: this.shown,
      completed: this.completed,
      roundtrips: this.roundtrips,
      finishedRoundtrips: this.finishedRoundtrips,
      phase: this.phase,
      toolCalls: this.toolCalls,
      stepToolCalls: this.stepToolCalls,
      finishedSteps: [...this.finishedSteps],
      observedRoundtrips: this.observedRoundtrips,
      elapsedMs: Math.max(0, this.now() - this.startedAt),
    };
    if (this.message !== undefined) state.message = this.message;
    if (this.currentStep !== undefined) state.currentStep = this.currentStep;
    if (this.model !== undefined) state.model = { ...this.model };
    if (this.llmMs !== undefined) state.llmMs = this.llmMs;
    if (this.toolsMs !== undefined) state.toolsMs = this.toolsMs;
    const plan = this.plan.toJSON(this.startedAt);
    if (plan !== undefined) state.plan = plan;
    return state;
  }

  private restore(input: unknown): number {
    // Refused before validation: zod would make an issue for each bad entry of a huge list.
    const steps = readFinishedSteps(input);
    if (Array.isArray(steps) && steps.length > MAX_STATE_STEPS) {
      const message = `has ${steps.length} entries; the limit is ${MAX_STATE_STEPS}`;
      throw new EstimatorError('ESTIMATOR_INVALID_STATE', `Invalid progress tracker state: finishedSteps: ${message}`, {
        issues: [{ path: 'finishedSteps', message }],
      });
    }
    const result = validateUntrusted(progressTrackerStateSchema, input);
    if (!result.success) {
      const { issues } = result;
      throw new EstimatorError('ESTIMATOR_INVALID_STATE', `Invalid progress tracker state: ${describeIssues(issues)}`, { issues });
    }
    const s = result.data;
    this.shown = s.completed ? 100 : Math.min(99, s.percent);
    this.message = s.message;
    this.completed = s.completed;
    this.roundtrips = s.roundtrips;
    this.finishedRoundtrips = Math.min(s.finishedRoundtrips, s.roundtrips);
    this.phase = s.phase;
    this.toolCalls = s.toolCalls;
    this.stepToolCalls = s.stepToolCalls;
    this.currentStep = s.currentStep;
    for (const name of s.finishedSteps) this.finishedSteps.add(name);
    this.model = s.model;
    this.llmMs = s.llmMs;
    this.toolsMs = s.toolsMs;
    this.observedRoundtrips = s.observedRoundtrips;
    // Plan times are saved relative to the run's start, which is known once the elapsed time is.
    if (s.plan !== undefined) {
      this.plan.restore(s.plan, this.now() - s.elapsedMs);
      this.planCounts = { total: s.plan.total, completed: s.plan.completed, inProgress: s.plan.inProgress };
    }
    return s.elapsedMs;
  }

  private closeRound(t: number): void {
    const llm = Math.max(0, (this.phase === 'tools' ? this.toolsStartedAt : t) - this.roundStartedAt);
    const tools = this.phase === 'tools' ? Math.max(0, t - this.toolsStartedAt) : 0;
    this.observedRoundtrips++;
    // The plain mean for the first few roundtrips, then an exponentially weighted one.
    const alpha = Math.max(0.2, 1 / this.observedRoundtrips);
    this.llmMs = this.llmMs === undefined ? llm : this.llmMs + alpha * (llm - this.llmMs);
    this.toolsMs = this.toolsMs === undefined ? tools : this.toolsMs + alpha * (tools - this.toolsMs);
    this.finishedRoundtrips = this.roundtrips;
    this.phase = 'idle';
  }

  private roundMs(): number | undefined {
    if (this.llmMs !== undefined && this.toolsMs !== undefined) return this.llmMs + this.toolsMs;
    return this.historyRoundMs;
  }

  /** Finished roundtrips plus the share of the current one, and how many have started. */
  private position(t: number): { position: number; atLeast: number } {
    // Between roundtrips the run is not over (complete() says that), so another one is due.
    if (this.phase === 'idle') return { position: this.finishedRoundtrips, atLeast: this.finishedRoundtrips + 1 };
    const expected = this.roundMs();
    let share = this.phase === 'tools' ? 0.5 : 0;
    if (expected !== undefined && expected > 0 && (this.observedRoundtrips >= CLOCK_SHARE_AFTER || this.historyRoundMs !== undefined))
      share = Math.min(MAX_ROUND_SHARE, (t - this.roundStartedAt) / expected);
    return { position: this.roundtrips - 1 + Math.max(0, share), atLeast: this.roundtrips };
  }

  /** The best current estimate on this tracker's own 0–100 scale, before the monotone floor. */
  private target(t: number): number {
    const { position, atLeast } = this.position(t);
    let estimate: number;
    if (this.posterior !== undefined) {
      estimate = 100 * this.posterior.fractionDone(position, atLeast);
      // Without a cap, history is the only bound on the run's length, and history of other tasks is a weak one.
      if (!Number.isFinite(this.cap)) {
        const weight = this.coldTuning.historyWeight;
        estimate = weight * estimate + (1 - weight) * this.coldStart(position);
      }
    } else if (this.worker) estimate = Math.min(TOOL_CALL_CAP, PER_TOOL_CALL * this.toolCalls);
    else estimate = this.coldStart(position);
    let value = estimate;
    if (this.ranges.length > 0) value = this.stepValue(estimate);
    // The agent is not far past where its plan says it is, trusted or not (the early-run overshoot).
    // Each plan spans its slice of the bar: all of it, or a share of what is left in a run of several plans.
    const span = this.plan.span();
    // In a run of several plans (a queue shown, or a finished plan replaced) the estimate stays within the current plan's slice.
    if (this.plan.several()) value = Math.min(value, span.end);
    const ceiling = this.plan.ceiling(this.roundtrips);
    if (ceiling !== undefined && value > onBar(span, ceiling.fraction))
      value = ceiling.weight * onBar(span, ceiling.fraction) + (1 - ceiling.weight) * value;
    const trust = this.plan.trust(this.roundtrips);
    const planFraction = this.plan.fraction(t);
    if (trust > 0 && planFraction !== undefined) {
      // A trusted plan sets the bar; between its updates the roundtrip estimate may lead it by up to a few items.
      const lead = this.plan.lead();
      const planned = onBar(span, planFraction);
      const led = lead === undefined ? planned : Math.min(Math.max(value, planned), Math.max(planned, onBar(span, lead)));
      value = trust * led + (1 - trust) * value;
    }
    // Most runs have no child trackers: no iterator is made for an empty map.
    if (this.slots.size > 0)
      for (const [key, slot] of this.slots) {
        if (key.startsWith('step:')) continue;
        value = Math.max(value, slot.range.start + (mean(slot.members.values()) / 100) * (slot.range.end - slot.range.start));
      }
    if (this.aiDriven && this.model !== undefined) {
      const since = Math.max(0, this.roundtrips - this.model.atRoundtrip);
      const advanced = this.model.percent + ((99 - this.model.percent) * since) / (since + MODEL_ADVANCE_HALF_LIFE) / 2;
      value = Math.max(advanced, this.rangedFloor());
    }
    return value;
  }

  /**
   * The cold-start guess at `position`. In a run known to hold several plans each plan is a task
   * of its own: the iterations since the current plan began walk the guess through its slice.
   */
  private coldStart(position: number): number {
    if (!this.plan.several()) return coldStartPercent(position, this.coldTuning);
    const span = this.plan.span();
    return span.start + (coldStartPercent(position - this.plan.phaseBegan(), this.coldTuning) / 100) * (span.end - span.start);
  }

  /** Where weighted steps put the bar: inside the current step's slice, by its children or tool calls. */
  private stepValue(estimate: number): number {
    const current = this.ranges.find((s) => s.name === this.currentStep);
    if (current !== undefined) {
      const slot = this.slots.get(`step:${current.name}`);
      const local = Math.max(
        slot === undefined ? 0 : mean(slot.members.values()),
        Math.min(TOOL_CALL_CAP, PER_TOOL_CALL * this.stepToolCalls),
      );
      return Math.max(this.finishedFloor(), current.start + (Math.min(100, local) / 100) * (current.end - current.start));
    }
    if (this.finishedSteps.size === 0) {
      // No step was started by name (an agent.json's fallbackSteps in a runtime that cannot
      // know which step it is in): the roundtrip estimate walks the bar through the steps' span.
      const first = this.ranges[0];
      const last = this.ranges[this.ranges.length - 1];
      if (first === undefined || last === undefined) return estimate;
      return first.start + (estimate / 100) * (last.end - first.start);
    }
    const floor = this.finishedFloor();
    const last = this.ranges[this.ranges.length - 1];
    // After the last step, the roundtrip estimate moves the bar through the finalisation slice.
    if (last !== undefined && this.finishedSteps.has(last.name)) return floor + (99 - floor) * (estimate / 100) * 0.5;
    return floor;
  }

  private finishedFloor(): number {
    let floor = 0;
    for (const s of this.ranges) if (this.finishedSteps.has(s.name)) floor = Math.max(floor, s.end);
    return floor;
  }

  /** Explicit measurements (children, finished steps) the model's estimate may not undercut. */
  private rangedFloor(): number {
    let floor = this.finishedFloor();
    for (const slot of this.slots.values()) {
      floor = Math.max(floor, slot.range.start + (mean(slot.members.values()) / 100) * (slot.range.end - slot.range.start));
    }
    return floor;
  }

  /** The roundtrip estimate of the time left: the roundtrips still expected times the time one takes. */
  private roundtripEta(t: number): number | undefined {
    // Two observed roundtrips are evidence enough; so is history of this kind of task, from the start.
    if (this.posterior === undefined || (this.observedRoundtrips < 2 && this.historyRoundMs === undefined)) return undefined;
    const roundMs = this.roundMs();
    if (roundMs === undefined || roundMs <= 0) return undefined;
    const { position, atLeast } = this.position(t);
    return this.posterior.remaining(position, atLeast) * roundMs;
  }

  /** Point ETA and its p10–p90 range, from the roundtrips seen and the plan while it is trusted. */
  private computeEta(t: number): void {
    this.eta = undefined;
    this.etaLow = undefined;
    this.etaHigh = undefined;
    this.evidence = undefined;
    if (this.completed) return;
    const elapsed = t - this.startedAt;
    const trust = this.plan.trust(this.roundtrips);
    const local = this.plan.fraction(t);
    const span = this.plan.span();
    // The share of the whole run the plan puts behind (a later plan starts where the last one left the bar).
    const fraction = local === undefined ? undefined : (span.start + local * (span.end - span.start)) / 100;
    const fromRoundtrips = this.roundtripEta(t);
    let point = fromRoundtrips;
    let evidence: EtaEvidence = this.historyRoundMs === undefined ? 'iterations' : 'history';
    if (trust > 0 && fraction !== undefined && fraction > 0 && elapsed > 0) {
      evidence = 'plan';
      // The plan's pace: the time the done share took, stretched over the share left.
      const fromPlan = (elapsed * (1 - fraction)) / fraction;
      point =
        fromRoundtrips === undefined
          ? fromPlan
          : Math.exp(trust * Math.log(Math.max(1, fromPlan)) + (1 - trust) * Math.log(Math.max(1, fromRoundtrips)));
    }
    const finishing = this.finishing();
    if (trust > 0 && elapsed > 0 && finishing !== undefined) {
      // The agent's one plan is on its last item (or done): the run is wrapping up. What is left
      // is about half an item at this run's pace per item (the calibration spreads it).
      evidence = 'finishing';
      point = elapsed / (2 * finishing);
    }
    if (point === undefined || !Number.isFinite(point)) return;
    // Bins are chosen by the percent shown: the part of the run the bar says is behind us (the fit bins its samples the same way).
    const calibrated = calibrateEta(this.calibration, evidence, this.shown, point);
    this.eta = Math.round(calibrated.point);
    this.etaLow = Math.round(calibrated.low);
    this.etaHigh = Math.round(calibrated.high);
    this.evidence = evidence;
  }

  /** The item count of the run's one plan (no queue shown, never replaced) when its last item is in progress or all are done. */
  private finishing(): number | undefined {
    const c = this.planCounts;
    if (c === undefined || c.total < 1 || this.plan.several()) return undefined;
    return c.completed >= c.total || (c.inProgress > 0 && c.completed + c.inProgress >= c.total) ? c.total : undefined;
  }

  /** Computes the ETA an update left pending ({@link etaPendingAt}). */
  private settleEta(): void {
    const t = this.etaPendingAt;
    if (t === undefined) return;
    this.etaPendingAt = undefined;
    this.computeEta(t);
  }

  // Each update reads the clock itself: a clock may move between two readings in one call (a
  // test's ticking clock does), and what the bar shows is computed from the update's own reading.
  private update(): void {
    const t = this.now();
    if (this.completed) {
      this.shown = 100;
      this.etaPendingAt = t;
    } else if (this.stalled) {
      // Frozen: no evidence of how long a loop lasts, so no ETA. What the ETA rested on before
      // (`etaEvidence`) is kept, as computed by the update before this one.
      this.settleEta();
      this.eta = undefined;
      this.etaLow = undefined;
      this.etaHigh = undefined;
    } else {
      const target = Math.min(99, Math.max(0, Math.round(this.target(t))));
      if (target > this.shown) this.shown = target;
      this.etaPendingAt = t;
    }
    const guess = this.guess;
    const plan = this.plan.phase();
    const stalled = this.stalled && !this.completed;
    const last = this.lastEmitted;
    if (
      last.percent === this.shown &&
      last.message === this.message &&
      last.guess === guess &&
      last.plan === plan &&
      (last.stalled ?? false) === stalled
    )
      return;
    this.lastEmitted = { percent: this.shown, message: this.message, guess, plan, stalled };
    if (this.emitFn === undefined) return;
    this.settleEta();
    const body: ProgressEmission = { type: 'progress', percent: this.shown };
    if (this.message !== undefined) body.message = this.message;
    if (guess) body.guess = true;
    if (plan !== undefined) body.plan = plan;
    if (this.eta !== undefined) body.etaMs = this.eta;
    if (this.etaLow !== undefined) body.etaLowMs = this.etaLow;
    if (this.etaHigh !== undefined) body.etaHighMs = this.etaHigh;
    try {
      this.emitFn(body);
    } catch {
      // A sink's failure must never break the run that is being tracked.
    }
  }
}
