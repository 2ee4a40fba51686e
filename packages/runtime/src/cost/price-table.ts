import type { Usage } from '../provider/provider.js';
import { describeIssues, toValidationIssues } from '@headway/protocol';
import { z } from 'zod';
import { CostError } from './cost-error.js';

/** What a model costs, in USD per million tokens; input read from or written to a prompt cache at its own price (else as input). */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
  cacheReadPerMillion?: number;
  cacheWritePerMillion?: number;
}

/** zod schema of {@link ModelPrice}: finite, non-negative. */
const modelPriceSchema: z.ZodType<ModelPrice> = z.strictObject({
  inputPerMillion: z.number().nonnegative(),
  outputPerMillion: z.number().nonnegative(),
  cacheReadPerMillion: z.number().nonnegative().exactOptional(),
  cacheWritePerMillion: z.number().nonnegative().exactOptional(),
});

function p(inputPerMillion: number, outputPerMillion: number, cacheWritePerMillion?: number, cacheReadPerMillion?: number): ModelPrice {
  const price: ModelPrice = { inputPerMillion, outputPerMillion };
  if (cacheWritePerMillion !== undefined) price.cacheWritePerMillion = cacheWritePerMillion;
  if (cacheReadPerMillion !== undefined) price.cacheReadPerMillion = cacheReadPerMillion;
  return Object.freeze(price);
}

/**
 * List prices (USD per million tokens, standard tier, no caching or batch discounts) of
 * common models as their vendors published them. Prices change: override the ones you
 * use. A dated model name (`gpt-4o-2024-08-06`) is priced as its family (`gpt-4o`).
 */
export const DEFAULT_MODEL_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  'gpt-5': p(1.25, 10),
  'gpt-5-mini': p(0.25, 2),
  'gpt-5-nano': p(0.05, 0.4),
  'gpt-4.1': p(2, 8),
  'gpt-4.1-mini': p(0.4, 1.6),
  'gpt-4.1-nano': p(0.1, 0.4),
  'gpt-4o': p(2.5, 10),
  'gpt-4o-mini': p(0.15, 0.6),
  'gpt-4-turbo': p(10, 30),
  'gpt-3.5-turbo': p(0.5, 1.5),
  o1: p(15, 60),
  'o1-mini': p(1.1, 4.4),
  o3: p(2, 8),
  'o3-mini': p(1.1, 4.4),
  'o4-mini': p(1.1, 4.4),
  // Claude: input, output, 5-minute cache write, cache read.
  'claude-opus-4-8': p(5, 25, 6.25, 0.5),
  'claude-opus-4-7': p(5, 25, 6.25, 0.5),
  'claude-opus-4-6': p(5, 25, 6.25, 0.5),
  'claude-opus-4-5': p(5, 25, 6.25, 0.5),
  'claude-opus-4-1': p(15, 75, 18.75, 1.5),
  'claude-opus-4': p(15, 75, 18.75, 1.5),
  'claude-sonnet-4-6': p(3, 15, 3.75, 0.3),
  'claude-sonnet-4-5': p(3, 15, 3.75, 0.3),
  'claude-sonnet-4': p(3, 15, 3.75, 0.3),
  'claude-haiku-4-5': p(1, 5, 1.25, 0.1),
  'claude-3-7-sonnet': p(3, 15),
  'claude-3-5-sonnet': p(3, 15),
  'claude-3-5-haiku': p(0.8, 4),
  'claude-3-opus': p(15, 75),
  'claude-3-haiku': p(0.25, 1.25),
  'gemini-2.5-pro': p(1.25, 10),
  'gemini-2.5-flash': p(0.3, 2.5),
  'gemini-2.5-flash-lite': p(0.1, 0.4),
  'gemini-2.0-flash': p(0.1, 0.4),
  'deepseek-chat': p(0.27, 1.1),
  'deepseek-reasoner': p(0.55, 2.19),
  'mistral-large': p(2, 6),
  'mistral-small': p(0.1, 0.3),
});

/** Options of {@link PriceTable}. */
export interface PriceTableOptions {
  /** Start from {@link DEFAULT_MODEL_PRICES} (default true); false prices only the overrides. */
  defaults?: boolean;
}

function normalise(model: string): string {
  const name = model.trim().toLowerCase();
  // `openai/gpt-4o`, `anthropic/claude-…` (router-style names) are priced by the model part.
  const slash = name.lastIndexOf('/');
  return slash === -1 ? name : name.slice(slash + 1);
}

/**
 * Prices per model: the defaults plus your overrides. Lookup is case-insensitive, ignores
 * a `vendor/` prefix, and falls back to the longest known name the model's name starts
 * with (followed by `-`, `:`, `@` or `.`), so dated and tagged variants are priced.
 *
 * @example
 * ```ts
 * const prices = new PriceTable({ 'my-local-model': { inputPerMillion: 0, outputPerMillion: 0 } });
 * prices.cost('gpt-4o-2024-08-06', { inputTokens: 1_000_000, outputTokens: 0 }); // 2.5
 * ```
 */
export class PriceTable {
  readonly #prices = new Map<string, ModelPrice>();

  /** @throws {CostError} `COST_INVALID_PRICE` naming the model and field. */
  constructor(overrides: Readonly<Record<string, ModelPrice>> = {}, options: PriceTableOptions = {}) {
    if (options.defaults !== false) for (const [model, price] of Object.entries(DEFAULT_MODEL_PRICES)) this.#prices.set(model, price);
    const parsed = z.record(z.string().min(1), modelPriceSchema).safeParse(overrides);
    if (!parsed.success) {
      const issues = toValidationIssues(parsed.error).map((i) => ({
        path: i.path === '' ? 'prices' : `prices.${i.path}`,
        message: i.message,
      }));
      throw new CostError('COST_INVALID_PRICE', `invalid price table: ${describeIssues(issues)}`, { issues });
    }
    for (const [model, price] of Object.entries(parsed.data)) this.#prices.set(normalise(model), Object.freeze({ ...price }));
  }

  /** The price of `model`, or undefined when neither it nor its family is known. */
  get(model: string): ModelPrice | undefined {
    const name = normalise(model);
    const exact = this.#prices.get(name);
    if (exact !== undefined) return exact;
    let best: string | undefined;
    for (const key of this.#prices.keys()) {
      if (
        name.length > key.length &&
        name.startsWith(key) &&
        '-:@.'.includes(name.charAt(key.length)) &&
        (best === undefined || key.length > best.length)
      ) {
        best = key;
      }
    }
    return best === undefined ? undefined : this.#prices.get(best);
  }

  /** USD that `usage` of `model` costs, or undefined when the model has no price. */
  cost(model: string, usage: Usage): number | undefined {
    const price = this.get(model);
    if (price === undefined) return undefined;
    const read = usage.cacheReadTokens ?? 0;
    const write = usage.cacheWriteTokens ?? 0;
    const uncached = Math.max(0, usage.inputTokens - read - write);
    const cached =
      read * (price.cacheReadPerMillion ?? price.inputPerMillion) + write * (price.cacheWritePerMillion ?? price.inputPerMillion);
    return (uncached * price.inputPerMillion + cached + usage.outputTokens * price.outputPerMillion) / 1_000_000;
  }

  /** Every model with a price, sorted by name. */
  models(): string[] {
    return [...this.#prices.keys()].sort();
  }
}
