import { errorOptionsSnapshot } from './error-forms.js';
import { expect, it } from 'vitest';
import { ProtocolError } from './protocol-error.js';

it('builds a ProtocolError with the issues and cause of its options', () => {
  const current = errorOptionsSnapshot(ProtocolError, 'PROTOCOL_INVALID_EVENT');
  expect(current).toMatchObject({
    message: 'something failed',
    issues: [{ path: 'items[0].price', message: 'expected a number >= 0' }],
    hasCause: true,
  });
  expect(current).toMatchObject({ name: 'ProtocolError', inspectHead: 'ProtocolError: something failed', isInstance: true });
});
