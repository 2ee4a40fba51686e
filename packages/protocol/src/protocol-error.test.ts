import { errorConstructorForms } from './error-forms.js';
import { expect, it } from 'vitest';
import { ProtocolError } from './protocol-error.js';

it('builds the same ProtocolError from the current and the deprecated constructor forms', () => {
  const { current, deprecated } = errorConstructorForms(ProtocolError, 'PROTOCOL_INVALID_EVENT');
  expect(deprecated).toEqual(current);
  expect(current).toMatchObject({ name: 'ProtocolError', inspectHead: 'ProtocolError: something failed', isInstance: true });
});
