import { expect, it } from 'vitest';
import { retryAfterMs } from './retry-policy.js';

it('counts an HTTP-date retry-after from the injected now, not the system clock', () => {
  const now = Date.parse('Wed, 01 Jan 2020 00:00:00 GMT');
  const headers = new Headers({ 'retry-after': 'Wed, 01 Jan 2020 00:00:07 GMT' });
  expect(retryAfterMs(headers, now)).toBe(7000);
  expect(retryAfterMs(headers, now + 10_000)).toBe(0);
});

it('prefers retry-after-ms, then seconds, and says nothing without either header', () => {
  expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), 0)).toBe(250);
  expect(retryAfterMs(new Headers({ 'retry-after': '1.5' }), 0)).toBe(1500);
  expect(retryAfterMs(new Headers(), 0)).toBeUndefined();
  expect(retryAfterMs(undefined, 0)).toBeUndefined();
});
