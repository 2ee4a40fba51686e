import { errorConstructorForms } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { PostgresError } from './postgres-error.js';

it('builds the same PostgresError from the current and the deprecated constructor forms', () => {
  const { current, deprecated } = errorConstructorForms(PostgresError, 'POSTGRES_CONNECT_FAILED');
  expect(deprecated).toEqual(current);
  expect(current).toMatchObject({ name: 'PostgresError', inspectHead: 'PostgresError: something failed', isInstance: true });
});

it('carries the server it names', () => {
  const error = new PostgresError('POSTGRES_CONNECTION_LOST', 'lost', { host: 'db:5432/app' });
  expect([error.host, new PostgresError('POSTGRES_SCHEMA_NEWER', 'newer').host]).toEqual(['db:5432/app', undefined]);
});
