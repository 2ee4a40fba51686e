import { errorConstructorForms, errorSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { RedisError } from './redis-error.js';

it('carries the run and the stream entry as properties of the error', () => {
  const { properties } = errorSnapshot(new RedisError('REDIS_INVALID_ENTRY', 'bad entry', { runId: 'r1', entryId: '1-0' }));
  expect(properties).toEqual({ runId: 'r1', entryId: '1-0', code: 'REDIS_INVALID_ENTRY', issues: [], name: 'RedisError' });
});

it('builds the same RedisError from the current and the deprecated constructor forms', () => {
  const { current, deprecated } = errorConstructorForms(RedisError, 'REDIS_INVALID_ENTRY');
  expect(deprecated).toEqual(current);
  expect(current).toMatchObject({ name: 'RedisError', inspectHead: 'RedisError: something failed', isInstance: true });
});
