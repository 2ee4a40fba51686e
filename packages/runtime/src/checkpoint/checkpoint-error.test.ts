import { errorConstructorForms } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { CheckpointError } from './checkpoint-error.js';

it('builds the same CheckpointError from the current and the deprecated constructor forms', () => {
  const { current, deprecated } = errorConstructorForms(CheckpointError, 'CHECKPOINT_CORRUPT');
  expect(deprecated).toEqual(current);
  expect(current).toMatchObject({ name: 'CheckpointError', inspectHead: 'CheckpointError: something failed', isInstance: true });
});
