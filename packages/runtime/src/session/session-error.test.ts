import { errorOptionsSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { SessionError } from './session-error.js';

it('builds a SessionError with the issues and cause of its options', () => {
  const current = errorOptionsSnapshot(SessionError, 'SESSION_CORRUPT');
  expect(current).toMatchObject({
    message: 'something failed',
    issues: [{ path: 'items[0].price', message: 'expected a number >= 0' }],
    hasCause: true,
  });
  expect(current).toMatchObject({ name: 'SessionError', inspectHead: 'SessionError: something failed', isInstance: true });
});
