import { describe, expect, it } from 'vitest';
import type { SpendGuard } from '../cost/spend-guard.js';
import { costLimit, iterationLimit, stallLimit } from './limits.js';

describe('iterationLimit', () => {
  it('warns from 80% of the cap, at the latest one iteration ahead, and is reached on the last iteration', () => {
    const answers = Array.from({ length: 10 }, (_, index) => iterationLimit(index, 10));
    expect(answers).toEqual([
      {},
      {},
      {},
      {},
      {},
      {},
      {},
      { approaching: { limit: 'iterations', used: 8, max: 10 } },
      { approaching: { limit: 'iterations', used: 9, max: 10 } },
      { reached: 'max-iterations' },
    ]);
  });

  it('gives a run of one no room to warn, and warns a run of two one iteration ahead', () => {
    expect(iterationLimit(0, 1)).toEqual({ reached: 'max-iterations' });
    expect([iterationLimit(0, 2), iterationLimit(1, 2)]).toEqual([
      { approaching: { limit: 'iterations', used: 1, max: 2 } },
      { reached: 'max-iterations' },
    ]);
  });

  it('never reaches an unbounded cap', () => {
    expect(iterationLimit(1_000_000, Infinity)).toEqual({});
  });
});

describe('costLimit', () => {
  const guard = (status: 'ok' | 'approaching' | 'exhausted'): SpendGuard => ({
    record: () => 0,
    check: () => ({ status, spentUsd: 0.9, budgetUsd: 1 }),
  });

  it('answers with the spend, a warning when close, and the cost-budget reason when at the cap', () => {
    expect(costLimit(guard('ok'), 's1')).toEqual({ spentUsd: 0.9, budgetUsd: 1 });
    expect(costLimit(guard('approaching'), 's1')).toEqual({
      spentUsd: 0.9,
      budgetUsd: 1,
      approaching: { limit: 'cost', used: 0.9, max: 1 },
    });
    expect(costLimit(guard('exhausted'), 's1')).toEqual({
      spentUsd: 0.9,
      budgetUsd: 1,
      approaching: { limit: 'cost', used: 0.9, max: 1 },
      reached: 'cost-budget',
    });
  });
});

describe('stallLimit', () => {
  it('is reached with `stalled` once the stall policy chose to wind down', () => {
    expect(stallLimit(undefined)).toEqual({});
    expect(stallLimit('ls src/work 5× with the same result')).toEqual({ reached: 'stalled' });
  });
});
