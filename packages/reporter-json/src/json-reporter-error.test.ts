import { errorOptionsSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { JSONReporterError } from './json-reporter-error.js';

it('builds a JSONReporterError with the issues and cause of its options', () => {
  const current = errorOptionsSnapshot(JSONReporterError, 'REPORTER_JSON_INVALID_OPTIONS');
  expect(current).toMatchObject({
    message: 'something failed',
    issues: [{ path: 'items[0].price', message: 'expected a number >= 0' }],
    hasCause: true,
  });
  expect(current).toMatchObject({ name: 'JSONReporterError', inspectHead: 'JSONReporterError: something failed', isInstance: true });
});
