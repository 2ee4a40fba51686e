import { errorOptionsSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { CostError } from './cost-error.js';

it('builds a CostError with the issues and cause of its options', () => {
  const current = errorOptionsSnapshot(CostError, 'COST_INVALID_PRICE');
  expect(current).toMatchObject({
    message: 'something failed',
    issues: [{ path: 'items[0].price', message: 'expected a number >= 0' }],
    hasCause: true,
  });
  expect(current).toMatchObject({ name: 'CostError', inspectHead: 'CostError: something failed', isInstance: true });
});
