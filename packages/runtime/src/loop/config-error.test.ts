import { errorConstructorForms } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { ConfigError } from './config-error.js';

it('builds the same ConfigError from the current and the deprecated constructor forms', () => {
  const { current, deprecated } = errorConstructorForms(ConfigError, 'RUNTIME_INVALID_CONFIG');
  expect(deprecated).toEqual(current);
  expect(current).toMatchObject({ name: 'ConfigError', inspectHead: 'ConfigError: something failed', isInstance: true });
});
