import { errorOptionsSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { AuditError } from './audit-error.js';

it('builds a AuditError with the issues and cause of its options', () => {
  const current = errorOptionsSnapshot(AuditError, 'AUDIT_INVALID_EVENT');
  expect(current).toMatchObject({
    message: 'something failed',
    issues: [{ path: 'items[0].price', message: 'expected a number >= 0' }],
    hasCause: true,
  });
  expect(current).toMatchObject({ name: 'AuditError', inspectHead: 'AuditError: something failed', isInstance: true });
});
