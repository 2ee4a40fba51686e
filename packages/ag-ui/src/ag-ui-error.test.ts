import { errorConstructorForms } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { AgUiError } from './ag-ui-error.js';

it('builds the same AgUiError from the current and the deprecated constructor forms', () => {
  const { current, deprecated } = errorConstructorForms(AgUiError, 'AG_UI_INVALID_INPUT');
  expect(deprecated).toEqual(current);
  expect(current).toMatchObject({ name: 'AgUiError', inspectHead: 'AgUiError: something failed', isInstance: true });
});
