import { errorOptionsSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { AgUiError } from './ag-ui-error.js';

it('builds a AgUiError with the issues and cause of its options', () => {
  const current = errorOptionsSnapshot(AgUiError, 'AG_UI_INVALID_INPUT');
  expect(current).toMatchObject({
    message: 'something failed',
    issues: [{ path: 'items[0].price', message: 'expected a number >= 0' }],
    hasCause: true,
  });
  expect(current).toMatchObject({ name: 'AgUiError', inspectHead: 'AgUiError: something failed', isInstance: true });
});
