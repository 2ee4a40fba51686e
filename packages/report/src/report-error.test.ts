import { errorConstructorForms } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { ReportError } from './report-error.js';

it('builds the same ReportError from the current and the deprecated constructor forms', () => {
  const { current, deprecated } = errorConstructorForms(ReportError, 'REPORT_INVALID_LOG_STATE');
  expect(deprecated).toEqual(current);
  expect(current).toMatchObject({ name: 'ReportError', inspectHead: 'ReportError: something failed', isInstance: true });
});
