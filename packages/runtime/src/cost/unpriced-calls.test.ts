import { HeadwayError } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { createUnpricedCalls } from './unpriced-calls.js';

describe('createUnpricedCalls', () => {
  it('counts every call and says once per model, only while a budget is set', () => {
    const unpriced = createUnpricedCalls('have costOf price it');
    const told = [
      unpriced.record('local/llama-3', undefined),
      unpriced.record('local/llama-3', 0),
      unpriced.record('local/llama-3', 5),
      unpriced.record('local/llama-3', 5),
      unpriced.record('mystery', 2.5),
      unpriced.record('mystery', 2.5),
    ];
    expect(unpriced.count).toBe(6);
    expect(told.map((e) => (e === undefined ? undefined : [e.code, e.message]))).toEqual([
      undefined,
      undefined,
      [
        'COST_UNPRICED_MODEL',
        'local/llama-3 has no price: its calls are not counted against the cost limit of $5 (what they cost is unknown); have costOf price it',
      ],
      undefined,
      [
        'COST_UNPRICED_MODEL',
        'mystery has no price: its calls are not counted against the cost limit of $2.5 (what they cost is unknown); have costOf price it',
      ],
      undefined,
    ]);
    expect(HeadwayError.isInstance(told[2], 'COST_UNPRICED_MODEL')).toBe(true);
  });

  it('keeps each run apart: a new counter says it again', () => {
    const first = createUnpricedCalls('x');
    expect(first.record('m', 1)).toBeDefined();
    expect(createUnpricedCalls('x').record('m', 1)).toBeDefined();
  });
});
