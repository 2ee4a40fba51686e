import { z } from 'zod';
import type { Usage } from '../provider/provider.js';

/**
 * What one model cost a run: its provider calls, tokens and money. A model with no price in the
 * runtime's price table is never counted as free: its calls are `unpricedCalls`, and their money is
 * unknown (left out of `spentUsd`, which is then the priced calls' only).
 */
export interface ModelCost {
  /** The model as the runtime priced it, with the provider that served it: `openai/gpt-4o`, `scripted`. */
  model: string;
  /** Provider calls made with it. */
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from a prompt cache, when the provider said. */
  cacheReadTokens?: number;
  /** Input tokens written to a prompt cache, when the provider said. */
  cacheWriteTokens?: number;
  /** USD of its priced calls. */
  spentUsd: number;
  /** Its calls that had no price: what they cost is unknown and not in `spentUsd`. */
  unpricedCalls: number;
}

const count = z.number().int().nonnegative();

/** zod schema of {@link ModelCost}: what a checkpoint keeps of it, validated when read back. */
export const modelCostSchema: z.ZodType<ModelCost> = z.object({
  model: z.string().min(1).max(300),
  calls: count,
  inputTokens: count,
  outputTokens: count,
  cacheReadTokens: count.exactOptional(),
  cacheWriteTokens: count.exactOptional(),
  spentUsd: z.number().nonnegative(),
  unpricedCalls: count,
});

/**
 * Adds one provider call to a run's cost by model, in place: `costUsd` undefined means the model
 * has no price (the call is counted as unpriced, its money unknown).
 */
export function recordModelCost(costs: ModelCost[], model: string, usage: Usage, costUsd: number | undefined): void {
  let row = costs.find((c) => c.model === model);
  if (row === undefined) {
    row = { model, calls: 0, inputTokens: 0, outputTokens: 0, spentUsd: 0, unpricedCalls: 0 };
    costs.push(row);
  }
  row.calls += 1;
  row.inputTokens += usage.inputTokens;
  row.outputTokens += usage.outputTokens;
  if (usage.cacheReadTokens !== undefined) row.cacheReadTokens = (row.cacheReadTokens ?? 0) + usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) row.cacheWriteTokens = (row.cacheWriteTokens ?? 0) + usage.cacheWriteTokens;
  if (costUsd === undefined) row.unpricedCalls += 1;
  else row.spentUsd += costUsd;
}

/**
 * A run's calls whose cost is unknown, from its cost by model (a checkpoint's `costByModel`; 0
 * without one): what its `spentUsd` leaves out, as `headway cost`, `headway runs` and the dashboard say.
 */
export function unpricedCallsOf(costs: readonly ModelCost[] | undefined): number {
  let calls = 0;
  for (const row of costs ?? []) calls += row.unpricedCalls;
  return calls;
}
