import { errorConstructorForms } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { SseError } from './sse-error.js';

it('builds the same SseError from the current and the deprecated constructor forms', () => {
  const { current, deprecated } = errorConstructorForms(SseError, 'SSE_CONNECTION_FAILED');
  expect(deprecated).toEqual(current);
  expect(current).toMatchObject({ name: 'SseError', inspectHead: 'SseError: something failed', isInstance: true });
});

it('carries the HTTP status', () => {
  expect(new SseError('SSE_HTTP_STATUS', 'HTTP 404', { status: 404 }).status).toBe(404);
  expect(new SseError('SSE_INVALID_OPTIONS', 'bad').status).toBeUndefined();
});
