import { describeIssues, toValidationIssues } from '@headway/protocol';
import { z } from 'zod';
import { CostError } from './cost-error.js';
import type { Usage } from '../provider/provider.js';
import { PriceTable, type ModelPrice } from './price-table.js';

/** Spend of one session. */
export interface SessionCost {
  spentUsd: number;
  calls: number;
}

/** What {@link CostTracker.cost} returns. */
export interface CostSummary {
  /** The per-session budget (0 = unlimited). */
  budgetUsd: number;
  /** Spent by the session asked about, or by all sessions. */
  spentUsd: number;
  /** Provider calls of the session asked about, or of all sessions. */
  calls: number;
  /**
   * Calls whose model had no price, of the session asked about or of all sessions: what they cost
   * is unknown, so it is not in `spentUsd` and a budget cannot see it.
   */
  unpricedCalls: number;
  bySession: Record<string, SessionCost>;
}

/** Where a session stands against the budget. */
export type BudgetStatus = 'unlimited' | 'ok' | 'approaching' | 'exhausted';

/** Options of {@link CostTracker}. */
export interface CostTrackerOptions {
  /** Per-session budget in USD; 0 (the default) is unlimited. */
  budgetUsd?: number;
  /** A price table, or overrides on top of the defaults. */
  prices?: PriceTable | Readonly<Record<string, ModelPrice>>;
  /** Fraction of the budget at which a session is `approaching` (default 0.8). */
  approachingAt?: number;
}

/** What one recorded call cost. */
export interface RecordedCost {
  /** USD of this call; `null` when the model has no price (unknown, never counted as $0). */
  costUsd: number | null;
  /** False when the model has no price. */
  priced: boolean;
  /** The session's spend after this call (its priced calls). */
  spentUsd: number;
}

const optionsSchema = z.object({
  budgetUsd: z.number().nonnegative().exactOptional(),
  approachingAt: z.number().gt(0).max(1).exactOptional(),
});
const count = z.number().int().nonnegative();
const usageSchema = z.object({
  inputTokens: count,
  outputTokens: count,
  cacheReadTokens: count.exactOptional(),
  cacheWriteTokens: count.exactOptional(),
});
const sessionCostSchema = z.object({ spentUsd: z.number().nonnegative(), calls: z.number().int().nonnegative() });

function invalid(code: 'COST_INVALID_OPTIONS' | 'COST_INVALID_USAGE', where: string, error: z.ZodError): CostError {
  const issues = toValidationIssues(error).map((i) => ({ path: i.path === '' ? where : `${where}.${i.path}`, message: i.message }));
  return new CostError(code, `invalid ${where}: ${describeIssues(issues)}`, { issues });
}

/**
 * Adds up what provider calls cost, per session, and says where each session stands
 * against a per-session budget.
 *
 * @example
 * ```ts
 * const costs = new CostTracker({ budgetUsd: 5 });
 * costs.record('session-1', 'gpt-4o', { inputTokens: 12_000, outputTokens: 800 });
 * costs.status('session-1'); // 'ok'
 * costs.cost('session-1'); // { budgetUsd: 5, spentUsd: 0.038, calls: 1, unpricedCalls: 0, bySession: {…} }
 * ```
 */
export class CostTracker {
  /** Per-session budget (0 = unlimited). */
  readonly budgetUsd: number;
  /** Fraction of the budget at which a session is `approaching`. */
  readonly approachingAt: number;
  readonly prices: PriceTable;
  readonly #sessions = new Map<string, SessionCost>();
  /** Unpriced calls per session. */
  readonly #unpriced = new Map<string, number>();

  /** @throws {CostError} `COST_INVALID_OPTIONS` or `COST_INVALID_PRICE` naming the field. */
  constructor(options: CostTrackerOptions = {}) {
    const parsed = optionsSchema.safeParse({
      ...(options.budgetUsd === undefined ? {} : { budgetUsd: options.budgetUsd }),
      ...(options.approachingAt === undefined ? {} : { approachingAt: options.approachingAt }),
    });
    if (!parsed.success) throw invalid('COST_INVALID_OPTIONS', 'cost options', parsed.error);
    this.budgetUsd = parsed.data.budgetUsd ?? 0;
    this.approachingAt = parsed.data.approachingAt ?? 0.8;
    this.prices = options.prices instanceof PriceTable ? options.prices : new PriceTable(options.prices);
  }

  /**
   * Adds one provider call of `model` to `sessionId`'s spend. A model with no price adds nothing
   * to the spend and is counted as an unpriced call (`costUsd: null`).
   *
   * @throws {CostError} `COST_INVALID_USAGE` for negative or fractional token counts.
   */
  record(sessionId: string, model: string, usage: Usage): RecordedCost {
    const parsed = usageSchema.safeParse(usage);
    if (!parsed.success) throw invalid('COST_INVALID_USAGE', 'usage', parsed.error);
    const cost = this.prices.cost(model, parsed.data);
    const session = this.#session(sessionId);
    session.calls += 1;
    if (cost === undefined) {
      this.#unpriced.set(sessionId, (this.#unpriced.get(sessionId) ?? 0) + 1);
      return { costUsd: null, priced: false, spentUsd: session.spentUsd };
    }
    session.spentUsd += cost;
    return { costUsd: cost, priced: true, spentUsd: session.spentUsd };
  }

  /**
   * Sets a session's totals, e.g. from the session store when it is loaded or from a
   * checkpoint when a run is resumed (`unpricedCalls`: its calls whose cost is unknown).
   */
  restore(sessionId: string, cost: SessionCost, unpricedCalls = 0): void {
    const parsed = sessionCostSchema.safeParse(cost);
    if (!parsed.success) throw invalid('COST_INVALID_USAGE', 'session cost', parsed.error);
    const unpriced = z.number().int().nonnegative().safeParse(unpricedCalls);
    if (!unpriced.success) throw invalid('COST_INVALID_USAGE', 'unpriced calls', unpriced.error);
    this.#sessions.set(sessionId, { ...parsed.data });
    if (unpriced.data === 0) this.#unpriced.delete(sessionId);
    else this.#unpriced.set(sessionId, unpriced.data);
  }

  /** True once the tracker has a total for the session (recorded or restored). */
  has(sessionId: string): boolean {
    return this.#sessions.has(sessionId);
  }

  /** USD spent by a session so far (0 for one never seen). */
  spent(sessionId: string): number {
    return this.#sessions.get(sessionId)?.spentUsd ?? 0;
  }

  /** Calls of a session whose model had no price (0 for one never seen). */
  unpriced(sessionId: string): number {
    return this.#unpriced.get(sessionId) ?? 0;
  }

  /**
   * Where a session stands: `exhausted` at or over the budget, `approaching` from `approachingAt`
   * of it. Only priced calls count: a call whose cost is unknown cannot be measured against it.
   */
  status(sessionId: string): BudgetStatus {
    if (this.budgetUsd === 0) return 'unlimited';
    const spent = this.spent(sessionId);
    if (spent >= this.budgetUsd) return 'exhausted';
    return spent >= this.budgetUsd * this.approachingAt ? 'approaching' : 'ok';
  }

  /** Budget and spend of one session, or of all sessions when no id is given. */
  cost(sessionId?: string): CostSummary {
    // fromEntries defines own properties, so a session named `__proto__` stays a session.
    const bySession = Object.fromEntries([...this.#sessions].map(([id, s]) => [id, { ...s }])) as Record<string, SessionCost>;
    let spentUsd = 0;
    let calls = 0;
    let unpricedCalls = 0;
    for (const s of this.#sessions.values()) {
      spentUsd += s.spentUsd;
      calls += s.calls;
    }
    for (const n of this.#unpriced.values()) unpricedCalls += n;
    if (sessionId !== undefined) {
      const one = this.#sessions.get(sessionId);
      spentUsd = one?.spentUsd ?? 0;
      calls = one?.calls ?? 0;
      unpricedCalls = this.#unpriced.get(sessionId) ?? 0;
    }
    return { budgetUsd: this.budgetUsd, spentUsd, calls, unpricedCalls, bySession };
  }

  #session(sessionId: string): SessionCost {
    let s = this.#sessions.get(sessionId);
    if (s === undefined) {
      s = { spentUsd: 0, calls: 0 };
      this.#sessions.set(sessionId, s);
    }
    return s;
  }
}
