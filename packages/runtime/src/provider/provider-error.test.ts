import { errorSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { ProviderError } from './provider-error.js';

it('carries the details of the failure, and is not retryable unless told so', () => {
  const cause = new Error('socket hang up');
  const error = new ProviderError('PROVIDER_REQUEST_FAILED', 'openai: 429', { provider: 'openai', status: 429, retryable: true, cause });
  expect(errorSnapshot(error)).toMatchObject({ name: 'ProviderError', inspectHead: 'ProviderError: openai: 429', isInstance: true, cause });
  expect([error.provider, error.status, error.retryable, error.retryAfterMs]).toEqual(['openai', 429, true, undefined]);
  expect(new ProviderError('PROVIDER_UNAVAILABLE', 'none').retryable).toBe(false);
});
