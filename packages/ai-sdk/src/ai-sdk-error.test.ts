import { errorConstructorForms } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { AiSdkError } from './ai-sdk-error.js';

it('builds the same AiSdkError from the current and the deprecated constructor forms', () => {
  const { current, deprecated } = errorConstructorForms(AiSdkError, 'AI_SDK_INVALID_OPTIONS');
  expect(deprecated).toEqual(current);
  expect(current).toMatchObject({ name: 'AiSdkError', inspectHead: 'AiSdkError: something failed', isInstance: true });
});
