import { errorOptionsSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { CheckpointError } from './checkpoint-error.js';

it('builds a CheckpointError with the issues and cause of its options', () => {
  const current = errorOptionsSnapshot(CheckpointError, 'CHECKPOINT_CORRUPT');
  expect(current).toMatchObject({
    message: 'something failed',
    issues: [{ path: 'items[0].price', message: 'expected a number >= 0' }],
    hasCause: true,
  });
  expect(current).toMatchObject({ name: 'CheckpointError', inspectHead: 'CheckpointError: something failed', isInstance: true });
});
