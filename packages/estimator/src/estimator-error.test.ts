import { errorOptionsSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { EstimatorError } from './estimator-error.js';

it('builds a EstimatorError with the issues and cause of its options', () => {
  const current = errorOptionsSnapshot(EstimatorError, 'ESTIMATOR_INVALID_STATE');
  expect(current).toMatchObject({
    message: 'something failed',
    issues: [{ path: 'items[0].price', message: 'expected a number >= 0' }],
    hasCause: true,
  });
  expect(current).toMatchObject({ name: 'EstimatorError', inspectHead: 'EstimatorError: something failed', isInstance: true });
});
