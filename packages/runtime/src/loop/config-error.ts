import { HeadwayError } from '@headway/protocol';

/** Codes a {@link ConfigError} can carry. */
export type ConfigErrorCode =
  /** An `AgentConfig` or the runtime's dependencies are invalid; `issues` names every offending field. */
  | 'RUNTIME_INVALID_CONFIG'
  /** A tool is not usable: not made with `defineTool`, a duplicate name, an invalid definition. */
  | 'RUNTIME_INVALID_TOOL'
  /** What `continueRun` was given is not a run to continue: a missing run id or an invalid progress report. */
  | 'RUNTIME_INVALID_CONTINUATION'
  /** A context part's hook returned something the runtime cannot use (passed to `onInternalError`; the part is dropped). */
  | 'RUNTIME_INVALID_CONTEXT_RESULT'
  /** A callback given to the runtime did not answer in time: `onTimeout`, a context part's `afterRun` (passed to `onInternalError`). */
  | 'RUNTIME_CALLBACK_TIMEOUT';

/**
 * Thrown when an `AgentConfig`, a runtime's dependencies or a tool definition is invalid;
 * the message names every offending field. Passed to `onInternalError` (not thrown) when a
 * part given to the runtime misbehaves during a run: a context hook's result, a late callback.
 */
export class ConfigError extends HeadwayError<ConfigErrorCode> {
  override readonly name: string = 'ConfigError';
}
