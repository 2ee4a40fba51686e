import { errorConstructorForms } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { ContextError } from './context-error.js';

it('builds the same ContextError from the current and the deprecated constructor forms', () => {
  const { current, deprecated } = errorConstructorForms(ContextError, 'CONTEXT_CORRUPT_STORE');
  expect(deprecated).toEqual(current);
  expect(current).toMatchObject({ name: 'ContextError', inspectHead: 'ContextError: something failed', isInstance: true });
});
