import { HeadwayError } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { CostTracker } from './cost-tracker.js';
import { PriceTable } from './price-table.js';

const prices = { 'test-model': { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 } }; // $1 per input token, $2 per output token

describe('CostTracker', () => {
  it('adds usage × price to the session and reports budget, spend, calls and per-session spend', () => {
    const costs = new CostTracker({ budgetUsd: 10, prices });
    expect(costs.record('a', 'test-model', { inputTokens: 2, outputTokens: 1 })).toEqual({ costUsd: 4, priced: true, spentUsd: 4 });
    costs.record('a', 'test-model', { inputTokens: 1, outputTokens: 0 });
    costs.record('b', 'test-model', { inputTokens: 0, outputTokens: 1 });
    expect(costs.cost('a')).toEqual({
      budgetUsd: 10,
      spentUsd: 5,
      calls: 2,
      unpricedCalls: 0,
      bySession: { a: { spentUsd: 5, calls: 2 }, b: { spentUsd: 2, calls: 1 } },
    });
    expect(costs.cost()).toMatchObject({ spentUsd: 7, calls: 3 });
    expect(costs.cost('never')).toMatchObject({ spentUsd: 0, calls: 0 });
  });

  it('keeps prompt-cache counts when it prices a call', () => {
    const costs = new CostTracker({
      prices: { m: { inputPerMillion: 1_000_000, outputPerMillion: 0, cacheReadPerMillion: 100_000, cacheWritePerMillion: 2_000_000 } },
    });
    expect(costs.record('a', 'm', { inputTokens: 30, outputTokens: 0, cacheReadTokens: 10, cacheWriteTokens: 10 }).costUsd).toBeCloseTo(
      10 + 1 + 20,
      10,
    );
    expect(() => costs.record('a', 'm', { inputTokens: 1, outputTokens: 0, cacheReadTokens: -1 })).toThrow(/usage\.cacheReadTokens/);
  });

  it('says when a session approaches (80%) and exhausts its budget', () => {
    const costs = new CostTracker({ budgetUsd: 10, prices });
    expect(costs.status('a')).toBe('ok');
    costs.record('a', 'test-model', { inputTokens: 7, outputTokens: 0 });
    expect(costs.status('a')).toBe('ok');
    costs.record('a', 'test-model', { inputTokens: 1, outputTokens: 0 });
    expect(costs.status('a')).toBe('approaching');
    costs.record('a', 'test-model', { inputTokens: 2, outputTokens: 0 });
    expect(costs.status('a')).toBe('exhausted');
    expect(costs.status('b')).toBe('ok');
    expect(new CostTracker().status('a')).toBe('unlimited');
    expect(new CostTracker({ budgetUsd: 10, prices, approachingAt: 0.5 }).status('x')).toBe('ok');
  });

  it('records a call of an unpriced model as unknown (null), never $0, and counts it per session', () => {
    const costs = new CostTracker({
      budgetUsd: 1,
      prices: new PriceTable({ 'test-model': { inputPerMillion: 1e6, outputPerMillion: 0 } }),
    });
    expect(costs.record('a', 'mystery', { inputTokens: 100, outputTokens: 100 })).toEqual({ costUsd: null, priced: false, spentUsd: 0 });
    expect(costs.record('a', 'test-model', { inputTokens: 0, outputTokens: 0 })).toEqual({ costUsd: 0, priced: true, spentUsd: 0 });
    costs.record('b', 'mystery', { inputTokens: 1, outputTokens: 1 });
    expect(costs.cost()).toMatchObject({ calls: 3, unpricedCalls: 2, spentUsd: 0 });
    expect(costs.cost('a')).toMatchObject({ calls: 2, unpricedCalls: 1 });
    expect([costs.unpriced('b'), costs.unpriced('nobody')]).toEqual([1, 0]);
    // Resumed from a checkpoint: the session's unpriced calls come back with its totals.
    costs.restore('c', { spentUsd: 0.5, calls: 4 }, 3);
    expect(costs.cost('c')).toMatchObject({ spentUsd: 0.5, calls: 4, unpricedCalls: 3 });
    expect(() => {
      costs.restore('c', { spentUsd: 0, calls: 0 }, -1);
    }).toThrow(/unpriced calls/);
  });

  it('restores a session from stored totals', () => {
    const costs = new CostTracker({ budgetUsd: 5, prices });
    costs.restore('s', { spentUsd: 4.5, calls: 9 });
    expect(costs.status('s')).toBe('approaching');
    costs.record('s', 'test-model', { inputTokens: 1, outputTokens: 0 });
    expect(costs.cost('s')).toMatchObject({ spentUsd: 5.5, calls: 10 });
    expect(costs.status('s')).toBe('exhausted');
  });

  it('keeps a session named __proto__ as a session', () => {
    const costs = new CostTracker({ prices });
    costs.record('__proto__', 'test-model', { inputTokens: 1, outputTokens: 0 });
    expect(Object.keys(costs.cost().bySession)).toEqual(['__proto__']);
  });

  it('rejects bad options and usage, naming the field', () => {
    const codeOf = (fn: () => unknown): string | undefined => {
      try {
        fn();
      } catch (error) {
        return HeadwayError.isInstance(error) ? error.code : 'other';
      }
      return undefined;
    };
    expect(codeOf(() => new CostTracker({ budgetUsd: -1 }))).toBe('COST_INVALID_OPTIONS');
    expect(() => new CostTracker({ budgetUsd: Number.NaN })).toThrow(/budgetUsd/);
    expect(() => new CostTracker({ approachingAt: 2 })).toThrow(/approachingAt/);
    const costs = new CostTracker({ prices });
    expect(codeOf(() => costs.record('a', 'test-model', { inputTokens: -1, outputTokens: 0 }))).toBe('COST_INVALID_USAGE');
    expect(() => costs.record('a', 'test-model', { inputTokens: 1.5, outputTokens: 0 })).toThrow(/usage\.inputTokens/);
    expect(costs.cost('a').calls).toBe(0);
  });
});
