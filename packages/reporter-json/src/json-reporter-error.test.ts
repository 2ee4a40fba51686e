import { errorConstructorForms } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { JSONReporterError } from './json-reporter-error.js';

it('builds the same JSONReporterError from the current and the deprecated constructor forms', () => {
  const { current, deprecated } = errorConstructorForms(JSONReporterError, 'REPORTER_JSON_INVALID_OPTIONS');
  expect(deprecated).toEqual(current);
  expect(current).toMatchObject({ name: 'JSONReporterError', inspectHead: 'JSONReporterError: something failed', isInstance: true });
});
