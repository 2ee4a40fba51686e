import { errorConstructorForms } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { CostError } from './cost-error.js';

it('builds the same CostError from the current and the deprecated constructor forms', () => {
  const { current, deprecated } = errorConstructorForms(CostError, 'COST_INVALID_PRICE');
  expect(deprecated).toEqual(current);
  expect(current).toMatchObject({ name: 'CostError', inspectHead: 'CostError: something failed', isInstance: true });
});
