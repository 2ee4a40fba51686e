import type { BudgetStatus, CostTracker } from './cost-tracker.js';
import type { Usage } from '../provider/provider.js';

/** Where a session stands against the budget, with the numbers for `limit.*` events. */
interface SpendStatus {
  status: BudgetStatus;
  /** What its priced calls spent (USD). */
  spentUsd: number;
  budgetUsd: number;
  /** Its calls whose model had no price: not in `spentUsd`, not counted against the budget. */
  unpricedCalls: number;
}

/** What one call cost, and the model it was priced as. */
interface SpentOnCall {
  /** USD; undefined when the model has no price (unknown, never counted as $0). */
  costUsd: number | undefined;
  /** The model as priced, for the run's cost by model. */
  model: string;
}

/** What the loop needs from cost tracking: price a call, and say where a session stands. */
export interface SpendGuard {
  /** Adds a provider call to the session; returns what it cost and the model it was priced as. */
  record(sessionId: string, usage: Usage): SpentOnCall;
  check(sessionId: string): SpendStatus;
}

/**
 * A {@link SpendGuard} over a tracker; `model` names the model being called (what it is priced as),
 * `label` the same with the provider that serves it (what the run's cost by model shows); both are
 * asked at each call.
 */
export function spendGuard(tracker: CostTracker, model: () => string, label: () => string = model): SpendGuard {
  return {
    record: (sessionId, usage) => {
      const { costUsd } = tracker.record(sessionId, model(), usage);
      return { costUsd: costUsd ?? undefined, model: label() };
    },
    check: (sessionId) => ({
      status: tracker.status(sessionId),
      spentUsd: tracker.spent(sessionId),
      budgetUsd: tracker.budgetUsd,
      unpricedCalls: tracker.unpriced(sessionId),
    }),
  };
}
