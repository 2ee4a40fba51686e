import type { PlanItem } from '@headway/protocol';
import { z } from 'zod';

/** Weight of an item in progress, as a share of a completed one. */
const IN_PROGRESS_SHARE = 0.5;
/** Past {@link PlanTuning.staleAfter}, the roundtrips over which the remaining trust halves. */
const STALE_HALF_LIFE = 6;
/** Share of the bar the plan spans: the agent usually wraps up (commit, report) after its last item. */
const PLAN_SPAN = 0.92;
/** Items past the completed ones the roundtrip estimate may run ahead of a plan. */
const CEILING_ITEMS = 3;
/** Furthest into the next item the clock alone may move the plan (as a share of one item). */
const MAX_ITEM_SHARE = 0.8;
/** A lone plan's slice: the whole bar (one frozen object, read on every update). */
const WHOLE_BAR: Readonly<{ start: number; end: number }> = Object.freeze({ start: 0, end: 100 });

/**
 * The fitted constants of the plan reading. The shipped {@link PLAN_TUNING} was fitted on
 * recorded runs; pass your own (e.g. refitted on your own runs with the bench's
 * `bench:estimator:percent-refit`) as `planTuning` to the tracker or `replayProgress`.
 */
export interface PlanTuning {
  /** Iterations without a change to the plan after which a kept plan starts to lose trust. */
  staleAfter: number;
  /**
   * How many plans a run known to hold several is assumed to have already, a priori: plan `k`
   * takes `1 / (k + phasePrior)` of the bar left when it began, so the bar follows the plans
   * as k / (k + phasePrior) whatever their number turns out to be.
   */
  phasePrior: number;
  /**
   * Items past the completed ones up to which the roundtrip estimate may lead a trusted plan
   * (0: the trusted plan alone sets the bar); between plan updates the bar then follows the
   * iterations inside that band instead of waiting on the plan.
   */
  leadItems: number;
}

/**
 * Fitted by `pnpm -F @headway/bench bench:estimator:percent-refit` (bench/estimator/percent-refit.ts):
 * a grid over the three constants (with the shipped `COLD_START_TUNING`), each scored by the
 * pooled MAE (shown percent against the true elapsed share, 400 samples per run) of the plan
 * tracker replayed over every recorded run of shared/data/traces and shared/data/plan-traces, each
 * with the cap its trace recorded, else none; chosen leave-one-group-out (the value chosen on the
 * other groups is the one scored on each group; the point shipped is the best on all groups).
 * On the 143 runs: plan-traces pooled MAE 15.65 leave-one-group-out (15.28 with the shipped point;
 * 15.41 with the earlier staleAfter 30, phasePrior 1, leadItems 1), traces 20.96 (21.50).
 * `phasePrior` 0.5 moves the runs that show a queue of tasks (the autopilot sessions of both
 * folders: 26.4 → 23.6 on those without a plan); left out, the multi-issue sessions alone would choose 1.
 */
export const PLAN_TUNING: PlanTuning = Object.freeze({ staleAfter: 20, phasePrior: 0.5, leadItems: 2 });

/** Validates a {@link PlanTuning} given by a caller. */
export const planTuningSchema: z.ZodType<PlanTuning> = z.strictObject({
  staleAfter: z.number().min(0).max(10_000),
  phasePrior: z.number().min(0.1).max(100),
  leadItems: z.number().min(0).max(100),
});

/** Tool names that show a queue of tasks (an issue list, a backlog): the run will hold several plans. */
const QUEUE_TOOL = /issues?_(?:ready|list)|list_?issues|backlog|queue/i;

/** The saved state of a {@link PlanProgress}; times are ms into the run, so a resumed run keeps the plan's pace. */
export interface PlanProgressState {
  total: number;
  completed: number;
  inProgress: number;
  /** The agent was seen keeping the plan current (an item completed). */
  maintained: boolean;
  /** A new list replaced a finished one: the plan is no longer trusted. */
  restarted: boolean;
  /** How many plans the agent has written, counting a new list after a finished one as the next (absent: 1). */
  phase?: number;
  /** The percent shown when the current plan began (absent: 0). */
  phaseStart?: number;
  /** Roundtrips started when the current plan began (absent: 0). */
  phaseRoundtrip?: number;
  /** The agent showed a queue of tasks (absent: false). */
  queue?: boolean;
  /** Roundtrips started when the plan last changed. */
  changedAtRoundtrip: number;
  /** When the plan was first declared, and when an item was last completed. */
  declaredAtMs: number;
  completedAtMs: number;
}

/** The counts of a plan that the tracker uses: how many items, done, and in progress. */
export interface PlanCounts {
  total: number;
  completed: number;
  inProgress: number;
}

/** Counts the items of a plan by status. */
export function countPlan(items: readonly PlanItem[]): PlanCounts {
  let completed = 0;
  let inProgress = 0;
  for (const item of items) {
    if (item.status === 'completed') completed++;
    else if (item.status === 'in_progress') inProgress++;
  }
  return { total: items.length, completed, inProgress };
}

/**
 * The agent's own plan as a source of progress, with its own trust.
 *
 * A plan is trusted only once the agent has been seen maintaining it (an update that
 * completes an item); it loses trust when it stops changing for many roundtrips (a plan
 * declared and never kept current), and is dropped for good when a new list replaces a
 * finished one (a session whose todo list restarts per sub-task measures the sub-task,
 * not the run). Between updates, the clock moves it into the next item at the pace the
 * agent has kept so far. Even untrusted, a fresh plan bounds how far ahead of it the
 * roundtrip estimate may run ({@link PlanProgress.ceiling}).
 */
export class PlanProgress {
  constructor(private readonly tuning: PlanTuning = PLAN_TUNING) {}

  private counts: PlanCounts | undefined;
  private maintained = false;
  private restarted = false;
  private phases = 1;
  private phaseStart = 0;
  private phaseRoundtrip = 0;
  private queue = false;
  private changedAtRoundtrip = 0;
  /** When the plan was first declared, and when an item was last completed. */
  private declaredAt = 0;
  private completedAt = 0;

  /** A tool ran: a tool that lists a queue of tasks says the run holds several plans. */
  toolRan(name: string): void {
    if (QUEUE_TOOL.test(name)) this.queue = true;
  }

  /** The plan was (re)written at time `t`, when `roundtrip` roundtrips had started and the bar showed `shown`. */
  update(counts: PlanCounts, roundtrip: number, t: number, shown = 0): void {
    let previous = this.counts;
    if (previous !== undefined && counts.completed < previous.completed && previous.completed >= previous.total) {
      // A new list after a finished one: the next plan of the run, read like a first one.
      this.restarted = true;
      this.phases++;
      this.phaseStart = shown;
      this.phaseRoundtrip = roundtrip;
      this.maintained = false;
      previous = undefined;
    }
    if (previous !== undefined) {
      const advanced = counts.completed > previous.completed;
      if (advanced) {
        this.maintained = true;
        this.completedAt = t;
      }
      if (advanced || counts.total !== previous.total || counts.inProgress !== previous.inProgress) this.changedAtRoundtrip = roundtrip;
    } else {
      this.changedAtRoundtrip = roundtrip;
      this.declaredAt = t;
      this.completedAt = t;
      // A plan written with items already done is one the agent keeps, not just announces.
      if (counts.completed > 0) this.maintained = true;
    }
    this.counts = counts;
  }

  /** Fraction of the run (0–1) the plan says is done at time `t`, or undefined without a plan. */
  fraction(t: number): number | undefined {
    const c = this.counts;
    if (c === undefined || c.total <= 0) return undefined;
    let done = Math.min(c.total, c.completed + IN_PROGRESS_SHARE * Math.min(c.inProgress, 1));
    if (c.completed > 0 && c.completed < c.total) {
      const perItem = (this.completedAt - this.declaredAt) / c.completed;
      if (perItem > 0) done = Math.max(done, c.completed + Math.min(MAX_ITEM_SHARE, (t - this.completedAt) / perItem));
    }
    return (PLAN_SPAN * Math.min(c.total, done)) / c.total;
  }

  /** The state to save, or undefined before any plan; `startedAt` is the run's start on the same clock. */
  toJSON(startedAt: number): PlanProgressState | undefined {
    const c = this.counts;
    if (c === undefined) return undefined;
    return {
      ...c,
      maintained: this.maintained,
      restarted: this.restarted,
      ...(this.phases > 1 ? { phase: this.phases, phaseStart: this.phaseStart, phaseRoundtrip: this.phaseRoundtrip } : {}),
      ...(this.queue ? { queue: true } : {}),
      changedAtRoundtrip: this.changedAtRoundtrip,
      declaredAtMs: Math.max(0, this.declaredAt - startedAt),
      completedAtMs: Math.max(0, this.completedAt - startedAt),
    };
  }

  /** Continues from a saved (validated) state in a run that started at `startedAt`. */
  restore(state: PlanProgressState, startedAt: number): void {
    this.counts = {
      total: state.total,
      completed: Math.min(state.completed, state.total),
      inProgress: Math.min(state.inProgress, state.total),
    };
    this.maintained = state.maintained;
    this.restarted = state.restarted;
    this.phases = state.phase ?? 1;
    this.phaseStart = state.phaseStart ?? 0;
    this.phaseRoundtrip = state.phaseRoundtrip ?? 0;
    this.queue = state.queue ?? false;
    this.changedAtRoundtrip = state.changedAtRoundtrip;
    this.declaredAt = startedAt + state.declaredAtMs;
    this.completedAt = startedAt + Math.max(state.declaredAtMs, state.completedAtMs);
  }

  /**
   * The most of the run (0–1) the plan allows before its next item is completed, and how much
   * that bound holds now (0–1). A plan kept current or just declared says the agent is not past
   * its next item; the bound fades as the plan goes stale, and is gone once the plan restarts.
   */
  ceiling(roundtrip: number): { fraction: number; weight: number } | undefined {
    const c = this.counts;
    if (c === undefined || c.total <= 0) return undefined;
    const weight = this.freshness(roundtrip);
    return { fraction: (PLAN_SPAN * Math.min(c.total, c.completed + CEILING_ITEMS)) / c.total, weight };
  }

  /**
   * The slice of the bar (percent) the current plan spans: all of it for a lone plan; once the
   * run is known to hold several plans, plan k takes 1 / (k + {@link PlanTuning.phasePrior}) of
   * what was left when it began (the number of plans to come is unknown: the more were seen,
   * the more are likely to follow).
   */
  span(): Readonly<{ start: number; end: number }> {
    if (!this.several()) return WHOLE_BAR;
    return { start: this.phaseStart, end: this.phaseStart + (100 - this.phaseStart) / (this.phases + this.tuning.phasePrior) };
  }

  /** The run is known to hold several plans: the agent showed a queue of tasks, or replaced a finished plan. */
  several(): boolean {
    return this.queue || this.phases > 1;
  }

  /** Roundtrips started when the current plan of a run of several began (0 for the first). */
  phaseBegan(): number {
    return this.phaseRoundtrip;
  }

  /** Which plan the agent is on (2, 3, …) once a finished plan was replaced by a new one; undefined before. */
  phase(): number | undefined {
    return this.phases > 1 ? this.phases : undefined;
  }

  /** How much the plan is trusted now, 0–1, given how many roundtrips have started. */
  trust(roundtrip: number): number {
    // A plan only declared (nothing ever completed) says what the agent meant to do, not how far it got.
    if (this.counts === undefined || !this.maintained) return 0;
    return this.freshness(roundtrip);
  }

  /** 1 while the plan changed within {@link PlanTuning.staleAfter} roundtrips, then halving every {@link STALE_HALF_LIFE}. */
  private freshness(roundtrip: number): number {
    const since = roundtrip - this.changedAtRoundtrip;
    const after = this.tuning.staleAfter;
    return since <= after ? 1 : 0.5 ** ((since - after) / STALE_HALF_LIFE);
  }

  /**
   * The most of the run (0–1) the roundtrip estimate may show while the plan is trusted:
   * {@link PlanTuning.leadItems} past the completed items; undefined without a plan or with a lead of 0.
   */
  lead(): number | undefined {
    const c = this.counts;
    if (c === undefined || c.total <= 0 || this.tuning.leadItems <= 0) return undefined;
    return (PLAN_SPAN * Math.min(c.total, c.completed + this.tuning.leadItems)) / c.total;
  }
}
