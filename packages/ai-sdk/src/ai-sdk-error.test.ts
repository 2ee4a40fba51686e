import { errorOptionsSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { AiSdkError } from './ai-sdk-error.js';

it('builds a AiSdkError with the issues and cause of its options', () => {
  const current = errorOptionsSnapshot(AiSdkError, 'AI_SDK_INVALID_OPTIONS');
  expect(current).toMatchObject({
    message: 'something failed',
    issues: [{ path: 'items[0].price', message: 'expected a number >= 0' }],
    hasCause: true,
  });
  expect(current).toMatchObject({ name: 'AiSdkError', inspectHead: 'AiSdkError: something failed', isInstance: true });
});
