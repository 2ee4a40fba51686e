import { HeadwayError, type ValidationIssue } from '@headway/protocol';

/** Codes an {@link AiSdkError} can carry. */
export type AiSdkErrorCode = 'AI_SDK_INVALID_OPTIONS' | 'AI_SDK_HARD_STOP';

/**
 * Thrown by `withHeadway` for options it cannot use (`AI_SDK_INVALID_OPTIONS`; the message
 * names every offending field), and the abort reason of `settings.abortSignal` at the hard
 * time stop (`AI_SDK_HARD_STOP`), which the AI SDK call then rejects with.
 */
export class AiSdkError extends HeadwayError {
  declare readonly code: AiSdkErrorCode;

  constructor(code: AiSdkErrorCode, message: string, options: { issues?: readonly ValidationIssue[]; cause?: unknown } = {}) {
    super(code, message, options);
    this.name = 'AiSdkError';
  }
}
