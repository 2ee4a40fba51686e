import { HeadwayError, type ValidationIssue } from '@headway/protocol';

/** Codes an {@link AiSdkError} can carry. */
export type AiSdkErrorCode = 'AI_SDK_INVALID_OPTIONS' | 'AI_SDK_RUN_ENDED';

/**
 * Thrown by `withHeadway` for options it cannot use (the message names every offending
 * field) and by a run's `finish`/`fail` when the run already ended.
 */
export class AiSdkError extends HeadwayError {
  declare readonly code: AiSdkErrorCode;

  constructor(code: AiSdkErrorCode, message: string, options: { issues?: readonly ValidationIssue[]; cause?: unknown } = {}) {
    super(code, message, options);
    this.name = 'AiSdkError';
  }
}
