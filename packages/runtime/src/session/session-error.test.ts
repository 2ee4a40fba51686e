import { errorConstructorForms } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { SessionError } from './session-error.js';

it('builds the same SessionError from the current and the deprecated constructor forms', () => {
  const { current, deprecated } = errorConstructorForms(SessionError, 'SESSION_CORRUPT');
  expect(deprecated).toEqual(current);
  expect(current).toMatchObject({ name: 'SessionError', inspectHead: 'SessionError: something failed', isInstance: true });
});
