import { HeadwayError, type HeadwayErrorOptions, type ValidationIssue } from '@headway/protocol';
import { toErrorOptions } from '@headway/protocol/internal';

/** Codes a {@link ConfigError} can carry. */
export type ConfigErrorCode = 'RUNTIME_INVALID_CONFIG' | 'RUNTIME_INVALID_TOOL';

/**
 * Thrown when an `AgentConfig`, a runtime's dependencies or a tool definition is invalid;
 * the message names every offending field.
 */
export class ConfigError extends HeadwayError {
  declare readonly code: ConfigErrorCode;

  constructor(code: ConfigErrorCode, message: string, options?: HeadwayErrorOptions);
  /** @deprecated pass `{ issues, cause }` as the third argument: `new ConfigError(code, message, { issues })`. */
  constructor(code: ConfigErrorCode, message: string, issues: readonly ValidationIssue[], options?: ErrorOptions);
  constructor(
    code: ConfigErrorCode,
    message: string,
    issuesOrOptions?: readonly ValidationIssue[] | HeadwayErrorOptions,
    options?: ErrorOptions,
  ) {
    super(code, message, toErrorOptions(issuesOrOptions, options));
    this.name = 'ConfigError';
  }
}
