import { errorOptionsSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { ReportError } from './report-error.js';

it('builds a ReportError with the issues and cause of its options', () => {
  const current = errorOptionsSnapshot(ReportError, 'REPORT_INVALID_LOG_STATE');
  expect(current).toMatchObject({
    message: 'something failed',
    issues: [{ path: 'items[0].price', message: 'expected a number >= 0' }],
    hasCause: true,
  });
  expect(current).toMatchObject({ name: 'ReportError', inspectHead: 'ReportError: something failed', isInstance: true });
});
