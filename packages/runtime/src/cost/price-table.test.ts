import fc from 'fast-check';
import { HeadwayError } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_PRICES, PriceTable, type ModelPrice } from './price-table.js';

describe('PriceTable', () => {
  const table = new PriceTable();

  it('prices common models per million tokens', () => {
    expect(table.cost('gpt-4o', { inputTokens: 1_000_000, outputTokens: 1_000_000 })).toBe(12.5);
    expect(table.cost('claude-sonnet-4-5', { inputTokens: 2_000, outputTokens: 1_000 })).toBeCloseTo(0.021, 10);
  });

  it('prices prompt-cache reads and writes at their own rates, as input when a model has none', () => {
    // claude-sonnet-4-6: $3 input, $15 output, $3.75 cache write, $0.30 cache read per million.
    const usage = { inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 600_000, cacheWriteTokens: 300_000 };
    expect(table.cost('claude-sonnet-4-6', usage)).toBeCloseTo(0.1 * 3 + 0.3 * 3.75 + 0.6 * 0.3, 10);
    expect(table.cost('claude-opus-4-8-20261101', { ...usage, outputTokens: 1_000_000 })).toBeCloseTo(
      0.1 * 5 + 0.3 * 6.25 + 0.6 * 0.5 + 25,
      10,
    );
    expect(table.cost('gpt-4o', usage)).toBe(2.5);
    const custom = new PriceTable(
      { m: { inputPerMillion: 10, outputPerMillion: 0, cacheReadPerMillion: 1, cacheWritePerMillion: 20 } },
      { defaults: false },
    );
    expect(custom.cost('m', { inputTokens: 100_000, outputTokens: 0, cacheReadTokens: 100_000 })).toBeCloseTo(0.1, 10);
    expect(() => new PriceTable({ m: { inputPerMillion: 1, outputPerMillion: 1, cacheReadPerMillion: -1 } })).toThrow(
      /cacheReadPerMillion/,
    );
  });

  it('prices dated, tagged, vendor-prefixed and differently cased names as their family', () => {
    expect(table.get('gpt-4o-2024-08-06')).toBe(DEFAULT_MODEL_PRICES['gpt-4o']);
    expect(table.get('gpt-4o-mini-2024-07-18')).toBe(DEFAULT_MODEL_PRICES['gpt-4o-mini']);
    expect(table.get('claude-sonnet-4-5-20250929')).toBe(DEFAULT_MODEL_PRICES['claude-sonnet-4-5']);
    expect(table.get('claude-sonnet-4-20250514')).toBe(DEFAULT_MODEL_PRICES['claude-sonnet-4']);
    expect(table.get('openai/GPT-4.1-mini')).toBe(DEFAULT_MODEL_PRICES['gpt-4.1-mini']);
    expect(table.get('deepseek-chat:latest')).toBe(DEFAULT_MODEL_PRICES['deepseek-chat']);
    // A prefix alone is not a family: gpt-4 is neither gpt-4o nor gpt-4.1.
    expect(table.get('gpt-4')).toBeUndefined();
    expect(table.get('gpt-4ox')).toBeUndefined();
    expect(table.cost('llama-3-local', { inputTokens: 5, outputTokens: 5 })).toBeUndefined();
  });

  it('takes overrides per model, on top of the defaults or alone', () => {
    const custom = new PriceTable({
      'GPT-4o': { inputPerMillion: 1, outputPerMillion: 2 },
      'my-model': { inputPerMillion: 0, outputPerMillion: 0 },
    });
    expect(custom.get('gpt-4o-2024-08-06')).toEqual({ inputPerMillion: 1, outputPerMillion: 2 });
    expect(custom.cost('my-model', { inputTokens: 10, outputTokens: 10 })).toBe(0);
    expect(custom.get('o3')).toBe(DEFAULT_MODEL_PRICES.o3);
    const only = new PriceTable({ 'my-model': { inputPerMillion: 3, outputPerMillion: 4 } }, { defaults: false });
    expect(only.models()).toEqual(['my-model']);
  });

  it('rejects a bad price, naming the model and field', () => {
    let caught: unknown;
    try {
      new PriceTable({ 'gpt-4o': { inputPerMillion: -1, outputPerMillion: 2 } });
    } catch (error) {
      caught = error;
    }
    expect(HeadwayError.isInstance(caught, 'COST_INVALID_PRICE')).toBe(true);
    expect((caught as Error).message).toMatch(/prices\["gpt-4o"\]\.inputPerMillion|prices\.gpt-4o\.inputPerMillion/);
    expect(() => new PriceTable({ x: { inputPerMillion: 1 } as ModelPrice })).toThrow(/outputPerMillion/);
  });

  it('is linear in tokens and never negative (property)', () => {
    const models = Object.keys(DEFAULT_MODEL_PRICES);
    fc.assert(
      fc.property(fc.constantFrom(...models), fc.nat(10_000_000), fc.nat(10_000_000), (model, i, o) => {
        const one = table.cost(model, { inputTokens: i, outputTokens: o })!;
        const two = table.cost(model, { inputTokens: 2 * i, outputTokens: 2 * o })!;
        expect(one).toBeGreaterThanOrEqual(0);
        expect(two).toBeCloseTo(2 * one, 9);
      }),
    );
  });
});
