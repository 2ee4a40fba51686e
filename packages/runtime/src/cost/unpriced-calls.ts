import { CostError } from './cost-error.js';

/**
 * The calls of one run whose cost is unknown, under the one rule every headway loop follows (the
 * runtime's and every bridge's): such a call is left out of the spend (never counted as $0, never
 * as the whole budget: either would be a made-up number), counted here, and, while a spend budget
 * is set, said once per model so its user can price it. A budget therefore never stops a run
 * because of a call it cannot price. Made by {@link createUnpricedCalls}.
 */
export interface UnpricedCalls {
  /**
   * Counts one call of `model` whose cost is unknown. Returns the `COST_UNPRICED_MODEL`
   * {@link CostError} to tell (to `onInternalError`, or as a warning) for the run's first such call
   * of `model` while a budget (`budgetUsd` > 0) is set; undefined for every other call.
   */
  record(model: string, budgetUsd: number | undefined): CostError | undefined;
  /** The calls counted so far. */
  readonly count: number;
}

/**
 * Counts a run's calls of unknown cost; `fix` ends the message and says where a price is given
 * (`give it a price in the runtime's prices`, `have costOf price it`).
 *
 * @example
 * ```ts
 * const unpriced = createUnpricedCalls("give it a price in the runtime's prices");
 * const told = unpriced.record('local/llama-3', 5); // CostError COST_UNPRICED_MODEL
 * unpriced.record('local/llama-3', 5); // undefined: said once per model
 * unpriced.count; // 2
 * ```
 */
export function createUnpricedCalls(fix: string): UnpricedCalls {
  const told = new Set<string>();
  let count = 0;
  return {
    record(model, budgetUsd) {
      count += 1;
      if (budgetUsd === undefined || budgetUsd <= 0 || told.has(model)) return undefined;
      told.add(model);
      return new CostError(
        'COST_UNPRICED_MODEL',
        `${model} has no price: its calls are not counted against the cost limit of $${String(budgetUsd)} (what they cost is unknown); ${fix}`,
      );
    },
    get count(): number {
      return count;
    },
  };
}
