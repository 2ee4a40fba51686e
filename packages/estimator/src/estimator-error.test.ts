import { errorConstructorForms } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { EstimatorError } from './estimator-error.js';

it('builds the same EstimatorError from the current and the deprecated constructor forms', () => {
  const { current, deprecated } = errorConstructorForms(EstimatorError, 'ESTIMATOR_INVALID_STATE');
  expect(deprecated).toEqual(current);
  expect(current).toMatchObject({ name: 'EstimatorError', inspectHead: 'EstimatorError: something failed', isInstance: true });
});
