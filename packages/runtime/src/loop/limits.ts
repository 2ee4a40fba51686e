import type { LimitKind, StopReason } from '@headway/protocol';
import type { SpendGuard } from '../cost/spend-guard.js';

/**
 * What one limit says at the boundary between iterations: the 80% warning (`limit.approaching`,
 * emitted once per limit) and, once the limit is reached, the reason the run stops with. The
 * reason is decided here, where the limit answers; the loop only carries it to the report.
 */
export interface LimitAnswer {
  /** The limit is close: `used` of `max` (iterations, ms or USD). */
  approaching?: { limit: LimitKind; used: number; max: number };
  /** The limit is reached: the run ends with this reason and a progress report. */
  reached?: StopReason;
}

/**
 * The iteration limit, asked as iteration `index` (0-based) begins. It warns before the last
 * iteration (from 80% of `max`, and at the latest one iteration ahead of it), never in the
 * iteration that reaches it: a run of one has no room to warn. The last iteration is reached:
 * it offers no tools and asks for the report.
 */
export function iterationLimit(index: number, max: number): LimitAnswer {
  if (index >= max - 1) return { reached: 'max-iterations' };
  if (index + 1 >= 0.8 * max || index + 2 >= max) return { approaching: { limit: 'iterations', used: index + 1, max } };
  return {};
}

/** The cost limit's answer, with what was spent of the budget (for `limit.reached`). */
interface CostAnswer extends LimitAnswer {
  spentUsd: number;
  budgetUsd: number;
}

/**
 * The cost limit of a session, asked before each model call (a session at or over its budget is
 * reached: the run stops before spending more) and after it (the spend so far may be close).
 */
export function costLimit(spend: SpendGuard, sessionId: string): CostAnswer {
  const at = spend.check(sessionId);
  const used = { spentUsd: at.spentUsd, budgetUsd: at.budgetUsd };
  if (at.status === 'exhausted')
    return { ...used, reached: 'cost-budget', approaching: { limit: 'cost', used: at.spentUsd, max: at.budgetUsd } };
  if (at.status === 'approaching') return { ...used, approaching: { limit: 'cost', used: at.spentUsd, max: at.budgetUsd } };
  return used;
}

/**
 * Stall detection as one more limit: once the run's stall policy answered `wind-down`
 * (`stalledWith` is what repeated), the run is reached with `stalled` and winds down like a
 * time limit, with one grace iteration for its report.
 */
export function stallLimit(stalledWith: string | undefined): LimitAnswer {
  return stalledWith === undefined ? {} : { reached: 'stalled' };
}
