import { errorOptionsSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { SseError } from './sse-error.js';

it('builds a SseError with the issues and cause of its options', () => {
  const current = errorOptionsSnapshot(SseError, 'SSE_CONNECTION_FAILED');
  expect(current).toMatchObject({
    message: 'something failed',
    issues: [{ path: 'items[0].price', message: 'expected a number >= 0' }],
    hasCause: true,
  });
  expect(current).toMatchObject({ name: 'SseError', inspectHead: 'SseError: something failed', isInstance: true });
});

it('carries the HTTP status', () => {
  expect(new SseError('SSE_HTTP_STATUS', 'HTTP 404', { status: 404 }).status).toBe(404);
  expect(new SseError('SSE_INVALID_OPTIONS', 'bad').status).toBeUndefined();
});
