import { z } from 'zod';
import { invalidArgument, shown } from './estimator-error.js';
import { MAX_PLAN_ITEMS, systemClock, type PlanItem } from '@headway/protocol';
import { ProgressTracker } from './progress-tracker.js';
import type { TaskHistory } from './task-history.js';
import type { EtaCalibration, EtaEvidence } from './eta-calibration.js';
import type { PlanTuning } from './plan-progress.js';
import type { ColdStartTuning } from './cold-start.js';

/** What the bar showed at one moment of a replayed run. */
export interface ReplayedProgress {
  /** Epoch ms: the event's `ts`, or a time from {@link ReplayProgressOptions.at}. */
  ts: number;
  percent: number;
  etaMs?: number;
  etaLowMs?: number;
  etaHighMs?: number;
  /** What the ETA rested on (see {@link ProgressTracker.etaEvidence}). */
  etaEvidence?: EtaEvidence;
  /** The percent was a guess (see {@link ProgressTracker.guess}). */
  guess?: true;
  /** Which of the agent's plans the bar followed, from the second on. */
  plan?: number;
}

/** Options of {@link replayProgress}. */
export interface ReplayProgressOptions {
  /**
   * The run's iteration cap; default the log's own (`maxIterations`, `limits.iterations`), else
   * none (`Infinity`): a run is replayed with the cap it really had, so a log without one shows the cold-start guess.
   */
  maxIterations?: number;
  /** Earlier runs of this kind of task (see {@link TaskHistory}). */
  history?: TaskHistory;
  /** Feed `plan.updated` events to the tracker (default true); false replays the bar without plans. */
  plan?: boolean;
  /** How the raw point ETA is calibrated (see {@link EtaCalibration}); default the shipped one. */
  etaCalibration?: EtaCalibration;
  /** The fitted constants of the plan reading (see {@link PlanTuning}); default the shipped one. */
  planTuning?: PlanTuning;
  /** The fitted constants of the guess shown without a cap (see {@link ColdStartTuning}); default the shipped one. */
  coldStart?: ColdStartTuning;
  /** Extra times (epoch ms, ascending) at which to read the bar between events, as a timer would. */
  at?: readonly number[];
}

/** Most events one replay reads; a longer log is refused rather than replayed slowly. */
const MAX_REPLAY_EVENTS = 1_000_000;

const ts = z.number().refine(Number.isFinite);
const planCounts = z.object({ total: z.int().min(1).max(10_000), completed: z.int().min(0), inProgress: z.int().min(0) });
const eventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('run.started'),
    ts,
    maxIterations: z.int().positive().optional(),
    limits: z.object({ iterations: z.number().positive().optional() }).optional(),
  }),
  z.object({ type: z.literal('step.started'), ts }),
  z.object({ type: z.literal('step.finished'), ts }),
  z.object({ type: z.literal('tool.executing'), ts, toolName: z.string() }),
  z.object({ type: z.literal('tool.completed'), ts, toolName: z.string(), ok: z.boolean().optional() }),
  z.object({ type: z.literal('plan.updated'), ts, items: z.unknown().optional(), ...planCounts.partial().shape }),
  z.object({ type: z.literal('run.finished'), ts, outcome: z.string().optional() }),
  z.object({ type: z.literal('run.error'), ts }),
  z.object({ type: z.literal('run.cancelled'), ts }),
]);

/** Items standing in for a plan that a trace gives as counts only (`{ total, completed, inProgress }`). */
function itemsOf(total: number, completed: number, inProgress: number): PlanItem[] {
  return Array.from({ length: total }, (_, i) => ({
    text: `item ${i + 1}`,
    status: i < completed ? 'completed' : i < completed + inProgress ? 'in_progress' : 'pending',
  }));
}

/** The items of a `plan.updated` line: its own, or stand-ins for `{ total, completed, inProgress }`. */
function planItemsOf(e: {
  items?: unknown;
  total?: number | undefined;
  completed?: number | undefined;
  inProgress?: number | undefined;
}): PlanItem[] {
  if (e.items !== undefined || e.total === undefined) return e.items as PlanItem[];
  const total = Math.min(e.total, MAX_PLAN_ITEMS);
  return itemsOf(total, Math.min(e.completed ?? 0, total), e.inProgress ?? 0);
}

/**
 * What the bar would have shown after each event of a recorded run.
 *
 * Reads the trace format of recorded agent runs (`run.started`, `step.started` per model
 * call, `tool.executing` / `tool.completed`, `step.finished`, `plan.updated` with items or
 * with `{ total, completed, inProgress }`, `run.finished`) and headway's own event log (the
 * same types with an envelope). Events of other types are skipped; an event that does not
 * validate is skipped too. A successful `run.finished` completes the bar.
 *
 * @example
 * ```ts
 * const lines = readFileSync('run.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l));
 * for (const p of replayProgress(lines)) console.log(p.ts, p.percent, p.etaLowMs, p.etaHighMs);
 * ```
 * @throws {EstimatorError} `ESTIMATOR_INVALID_ARGUMENT` when `events` is not an array or holds too many events.
 */
export function replayProgress(events: readonly unknown[], options: ReplayProgressOptions = {}): ReplayedProgress[] {
  if (!Array.isArray(events)) throw invalidArgument('replayProgress: events', `must be an array, got ${shown(events)}`);
  if (events.length > MAX_REPLAY_EVENTS)
    throw invalidArgument('replayProgress: events', `holds ${events.length} events, more than ${MAX_REPLAY_EVENTS}`);
  const at = options.at ?? [];
  const usePlan = options.plan ?? true;
  const out: ReplayedProgress[] = [];
  let clock = 0;
  let tracker: ProgressTracker | undefined;
  let inRound = false;
  let inTools = false;
  let nextAt = 0;
  const read = (t: number): void => {
    if (tracker === undefined) return;
    const point: ReplayedProgress = { ts: t, percent: tracker.percent };
    if (tracker.etaMs !== undefined) point.etaMs = tracker.etaMs;
    if (tracker.etaLowMs !== undefined) point.etaLowMs = tracker.etaLowMs;
    if (tracker.etaHighMs !== undefined) point.etaHighMs = tracker.etaHighMs;
    if (tracker.etaEvidence !== undefined) point.etaEvidence = tracker.etaEvidence;
    if (tracker.guess) point.guess = true;
    if (tracker.planNumber !== undefined) point.plan = tracker.planNumber;
    out.push(point);
  };
  const start = (t: number, cap: number | undefined): ProgressTracker => {
    clock = t;
    return new ProgressTracker({
      maxIterations: options.maxIterations ?? cap ?? Number.POSITIVE_INFINITY,
      clock: { ...systemClock, now: () => clock },
      ...(options.history === undefined ? {} : { history: options.history }),
      ...(options.etaCalibration === undefined ? {} : { etaCalibration: options.etaCalibration }),
      ...(options.planTuning === undefined ? {} : { planTuning: options.planTuning }),
      ...(options.coldStart === undefined ? {} : { coldStart: options.coldStart }),
    });
  };
  for (const raw of events) {
    let parsed;
    try {
      parsed = eventSchema.safeParse(raw);
    } catch {
      // An event that cannot be read (a throwing getter, a revoked proxy) is skipped like an invalid one.
      continue;
    }
    if (!parsed.success) continue;
    const e = parsed.data;
    for (; nextAt < at.length && (at[nextAt] ?? 0) < e.ts; nextAt++) {
      if (tracker === undefined) continue;
      clock = Math.max(clock, at[nextAt] ?? 0);
      tracker.tick();
      read(clock);
    }
    if (e.type === 'run.started') {
      tracker ??= start(e.ts, e.maxIterations ?? e.limits?.iterations);
      read(e.ts);
      continue;
    }
    tracker ??= start(e.ts, undefined);
    clock = Math.max(clock, e.ts);
    switch (e.type) {
      case 'step.started':
        tracker.iterationStarted();
        inRound = true;
        inTools = false;
        break;
      case 'tool.executing':
        if (inRound && !inTools) tracker.toolsStarted();
        inTools = true;
        break;
      case 'tool.completed':
        // Logs without tool.executing: the tools phase starts at the first completion.
        if (inRound && !inTools) tracker.toolsStarted();
        inTools = true;
        tracker.toolCallFinished(e.toolName, e.ok ?? true);
        break;
      case 'step.finished':
        if (inRound) tracker.iterationFinished();
        inRound = false;
        break;
      case 'plan.updated':
        if (usePlan) tracker.planUpdated({ items: planItemsOf(e) });
        break;
      case 'run.finished':
        if (e.outcome === undefined || e.outcome === 'completed') tracker.complete();
        break;
      case 'run.error':
      case 'run.cancelled':
        break;
    }
    read(clock);
  }
  for (; nextAt < at.length; nextAt++) {
    if (tracker === undefined) break;
    clock = Math.max(clock, at[nextAt] ?? 0);
    tracker.tick();
    read(clock);
  }
  return out;
}
