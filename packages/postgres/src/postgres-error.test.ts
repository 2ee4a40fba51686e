import { errorOptionsSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { PostgresError } from './postgres-error.js';

it('builds a PostgresError with the issues and cause of its options', () => {
  const current = errorOptionsSnapshot(PostgresError, 'POSTGRES_CONNECT_FAILED');
  expect(current).toMatchObject({
    message: 'something failed',
    issues: [{ path: 'items[0].price', message: 'expected a number >= 0' }],
    hasCause: true,
  });
  expect(current).toMatchObject({ name: 'PostgresError', inspectHead: 'PostgresError: something failed', isInstance: true });
});

it('carries the server it names', () => {
  const error = new PostgresError('POSTGRES_CONNECTION_LOST', 'lost', { host: 'db:5432/app' });
  expect([error.host, new PostgresError('POSTGRES_SCHEMA_NEWER', 'newer').host]).toEqual(['db:5432/app', undefined]);
});
