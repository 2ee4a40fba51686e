import { errorConstructorForms } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { AuditError } from './audit-error.js';

it('builds the same AuditError from the current and the deprecated constructor forms', () => {
  const { current, deprecated } = errorConstructorForms(AuditError, 'AUDIT_INVALID_EVENT');
  expect(deprecated).toEqual(current);
  expect(current).toMatchObject({ name: 'AuditError', inspectHead: 'AuditError: something failed', isInstance: true });
});
