import { HeadwayError, type ValidationIssue } from '@headway/protocol';

/** Codes a {@link ConfigError} can carry. */
export type ConfigErrorCode = 'RUNTIME_INVALID_CONFIG' | 'RUNTIME_INVALID_TOOL';

/**
 * Thrown when an `AgentConfig`, a runtime's dependencies or a tool definition is invalid;
 * the message names every offending field.
 */
export class ConfigError extends HeadwayError {
  declare readonly code: ConfigErrorCode;

  constructor(code: ConfigErrorCode, message: string, issues: readonly ValidationIssue[] = [], options?: ErrorOptions) {
    super(code, message, { ...options, issues });
    this.name = 'ConfigError';
  }
}
