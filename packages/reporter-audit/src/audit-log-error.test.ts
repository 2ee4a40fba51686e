import { errorSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { AuditLogError } from './audit-log-error.js';

it('builds the same AuditLogError from the current and the deprecated constructor forms', () => {
  const issues = [{ path: 'eventType', message: 'expected a string' }];
  const cause = new Error('the cause');
  const current = errorSnapshot(new AuditLogError('AUDIT_INVALID_LINE', 'bad line', { location: 'audit.jsonl:3', issues, cause }));
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the deprecated form is what this compares
  const deprecated = errorSnapshot(new AuditLogError('AUDIT_INVALID_LINE', 'audit.jsonl:3', 'bad line', issues, { cause }));
  expect(deprecated).toEqual(current);
  expect(current).toMatchObject({ name: 'AuditLogError', inspectHead: 'AuditLogError: bad line', isInstance: true, issues, cause });
  expect(current.properties).toMatchObject({ location: 'audit.jsonl:3' });
});
