import { errorOptionsSnapshot, errorSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { RedisError } from './redis-error.js';

it('carries the run and the stream entry as properties of the error', () => {
  const { properties } = errorSnapshot(new RedisError('REDIS_INVALID_ENTRY', 'bad entry', { runId: 'r1', entryId: '1-0' }));
  expect(properties).toEqual({ runId: 'r1', entryId: '1-0', code: 'REDIS_INVALID_ENTRY', issues: [], name: 'RedisError' });
});

it('builds a RedisError with the issues and cause of its options', () => {
  const current = errorOptionsSnapshot(RedisError, 'REDIS_INVALID_ENTRY');
  expect(current).toMatchObject({
    message: 'something failed',
    issues: [{ path: 'items[0].price', message: 'expected a number >= 0' }],
    hasCause: true,
  });
  expect(current).toMatchObject({ name: 'RedisError', inspectHead: 'RedisError: something failed', isInstance: true });
});
