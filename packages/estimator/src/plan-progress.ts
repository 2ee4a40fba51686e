import type { PlanItem } from '@headway/protocol';

/** Weight of an item in progress, as a share of a completed one. */
const IN_PROGRESS_SHARE = 0.5;
/** Roundtrips without a change after which a maintained plan starts to lose trust. */
const STALE_AFTER = 12;
/** Past {@link STALE_AFTER}, the roundtrips over which the remaining trust halves. */
const STALE_HALF_LIFE = 6;
/** Share of the bar the plan spans: the agent usually wraps up (commit, report) after its last item. */
const PLAN_SPAN = 0.92;
/** Items past the completed ones the roundtrip estimate may run ahead of a plan. */
const CEILING_ITEMS = 3;
/** Furthest into the next item the clock alone may move the plan (as a share of one item). */
const MAX_ITEM_SHARE = 0.8;

/** The saved state of a {@link PlanProgress}; times are ms into the run, so a resumed run keeps the plan's pace. */
export interface PlanProgressState {
  total: number;
  completed: number;
  inProgress: number;
  /** The agent was seen keeping the plan current (an item completed). */
  maintained: boolean;
  /** A new list replaced a finished one: the plan is no longer trusted. */
  restarted: boolean;
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
  private counts: PlanCounts | undefined;
  private maintained = false;
  private restarted = false;
  private changedAtRoundtrip = 0;
  /** When the plan was first declared, and when an item was last completed. */
  private declaredAt = 0;
  private completedAt = 0;

  /** The plan was (re)written at time `t`, when `roundtrip` roundtrips had started. */
  update(counts: PlanCounts, roundtrip: number, t: number): void {
    const previous = this.counts;
    if (previous !== undefined) {
      if (counts.completed < previous.completed && previous.completed >= previous.total) this.restarted = true;
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
    if (c === undefined || c.total <= 0 || this.restarted) return undefined;
    const since = roundtrip - this.changedAtRoundtrip;
    const weight = since <= STALE_AFTER ? 1 : 0.5 ** ((since - STALE_AFTER) / STALE_HALF_LIFE);
    return { fraction: (PLAN_SPAN * Math.min(c.total, c.completed + CEILING_ITEMS)) / c.total, weight };
  }

  /** How much the plan is trusted now, 0–1, given how many roundtrips have started. */
  trust(roundtrip: number): number {
    // A plan only declared (nothing ever completed) says what the agent meant to do, not how far it got.
    if (this.counts === undefined || this.restarted || !this.maintained) return 0;
    const since = roundtrip - this.changedAtRoundtrip;
    if (since <= STALE_AFTER) return 1;
    return 0.5 ** ((since - STALE_AFTER) / STALE_HALF_LIFE);
  }
}
