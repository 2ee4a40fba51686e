import { errorSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { AuditLogError } from './audit-log-error.js';

it('builds an AuditLogError with its location, issues and cause', () => {
  const issues = [{ path: 'eventType', message: 'expected a string' }];
  const cause = new Error('the cause');
  const current = errorSnapshot(new AuditLogError('AUDIT_INVALID_LINE', 'bad line', { location: 'audit.jsonl:3', issues, cause }));
  expect(current).toMatchObject({ name: 'AuditLogError', inspectHead: 'AuditLogError: bad line', isInstance: true, issues, cause });
  expect(current.properties).toMatchObject({ location: 'audit.jsonl:3' });
});
