import { errorOptionsSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { ConfigError } from './config-error.js';

it('builds a ConfigError with the issues and cause of its options', () => {
  const current = errorOptionsSnapshot(ConfigError, 'RUNTIME_INVALID_CONFIG');
  expect(current).toMatchObject({
    message: 'something failed',
    issues: [{ path: 'items[0].price', message: 'expected a number >= 0' }],
    hasCause: true,
  });
  expect(current).toMatchObject({ name: 'ConfigError', inspectHead: 'ConfigError: something failed', isInstance: true });
});
