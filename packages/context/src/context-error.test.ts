import { errorOptionsSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { ContextError } from './context-error.js';

it('builds a ContextError with the issues and cause of its options', () => {
  const current = errorOptionsSnapshot(ContextError, 'CONTEXT_CORRUPT_STORE');
  expect(current).toMatchObject({
    message: 'something failed',
    issues: [{ path: 'items[0].price', message: 'expected a number >= 0' }],
    hasCause: true,
  });
  expect(current).toMatchObject({ name: 'ContextError', inspectHead: 'ContextError: something failed', isInstance: true });
});
