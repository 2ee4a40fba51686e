import type { BudgetStatus, CostTracker } from './cost-tracker.js';
import type { Usage } from '../provider/provider.js';

/** Where a session stands against the budget, with the numbers for `limit.*` events. */
interface SpendStatus {
  status: BudgetStatus;
  spentUsd: number;
  budgetUsd: number;
}

/** What the loop needs from cost tracking: price a call, and say where a session stands. */
export interface SpendGuard {
  /** Adds a provider call to the session; returns what it cost (USD). */
  record(sessionId: string, usage: Usage): number;
  check(sessionId: string): SpendStatus;
}

/** A {@link SpendGuard} over a tracker; `model` names the model being called, asked at each call. */
export function spendGuard(tracker: CostTracker, model: () => string): SpendGuard {
  return {
    record: (sessionId, usage) => tracker.record(sessionId, model(), usage).costUsd,
    check: (sessionId) => ({ status: tracker.status(sessionId), spentUsd: tracker.spent(sessionId), budgetUsd: tracker.budgetUsd }),
  };
}
