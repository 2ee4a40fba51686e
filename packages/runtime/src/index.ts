export { AgentRuntime } from './loop/agent-runtime.js';
export type { AgentRuntimeDeps, RunOptions } from './loop/agent-runtime.js';
export type { AgentRuntimeErrorContext, RuntimeErrorWhere } from './loop/internal-error-context.js';
export type { ContinueFrom, RunErrorInfo, RunResult } from './loop/finish-run.js';
export { checkpointRunInfo } from './checkpoint/run-state-codec.js';
export { LATEST_REPORT_FILE, readRunReport, saveRunReport } from './report/run-report-files.js';
export type { SavedRunReport, StoredRunReport } from './report/run-report-files.js';
export type { CheckpointRunInfo } from './checkpoint/run-state-codec.js';
export type {
  AgentConfig,
  AgentConfigInput,
  CapabilityMode,
  StallAction,
  StallInfo,
  StallPolicy,
  TimeoutBehavior,
} from './loop/agent-config.js';
export { ConfigError } from './loop/config-error.js';
export type { ConfigErrorCode } from './loop/config-error.js';
export type { RuntimeErrorCode } from './runtime-error-code.js';
export { ProviderError } from './provider/provider-error.js';
export type { ProviderErrorCode, ProviderErrorOptions } from './provider/provider-error.js';
export { addUsage, collectStream } from './provider/provider.js';
export type {
  ChatMessage,
  CompletionRequest,
  CompletionResponse,
  FinishReason,
  Provider,
  ProviderCallOptions,
  StreamChunk,
  ToolCall,
  ToolSpec,
  Usage,
} from './provider/provider.js';
export { ProviderRegistry } from './provider/provider-registry.js';
export type { ProviderRegistryOptions, RetryInfo } from './provider/provider-registry.js';
export { isAbortError, isRetryable } from './provider/retry-policy.js';
export type { RetryOptions, RetryPolicy } from './provider/retry-policy.js';
export type { CircuitBreakerOptions, CircuitState } from './provider/circuit-breaker.js';
export { defineTool } from './tools/define-tool.js';
export { UPDATE_PLAN_TOOL_NAME, updatePlanTool } from './tools/update-plan-tool.js';
export type { UpdatePlanArgs } from './tools/update-plan-tool.js';
export type { Tool, ToolContext, ToolDefinition } from './tools/define-tool.js';
export type { ProgressSlice, ToolProgressUpdate } from './tools/tool-progress.js';
export { ManualClock, sleep, systemClock } from './loop/clock.js';
export type { Clock, ManualClockOptions } from './loop/clock.js';
export type { TimeoutObserver, TimeoutRequest } from './loop/timeout-observer.js';
export type { RunStatus } from './loop/run-state.js';
export type {
  Checkpoint,
  CheckpointInit,
  CheckpointLease,
  CheckpointState,
  CheckpointStatus,
  CheckpointSummary,
  CheckpointToolCall,
  CheckpointUpdate,
  FinishedToolCall,
  PendingToolCall,
  StartedToolCall,
} from './checkpoint/checkpoint.js';
export { CheckpointError } from './checkpoint/checkpoint-error.js';
export type { CheckpointErrorCode } from './checkpoint/checkpoint-error.js';
export type { CheckpointListFilter, CheckpointStore } from './checkpoint/checkpoint-store.js';
export { RUN_REQUEST_ACTIONS, RUN_REQUEST_LEASE_MS } from './checkpoint/run-request-store.js';
export type {
  RunRequest,
  RunRequestAction,
  RunRequestClaimFilter,
  RunRequestClaimOptions,
  RunRequestInit,
  RunRequestOutcome,
  RunRequestStatus,
  RunRequestStore,
} from './checkpoint/run-request-store.js';
export type { MaybePromise } from './checkpoint/maybe-promise.js';
export { MemoryCheckpointStore } from './checkpoint/memory-checkpoint-store.js';
export type { MemoryCheckpointStoreOptions } from './checkpoint/memory-checkpoint-store.js';
export type { PendingRecovery, RecoveryPolicy, RecoveryStrategy } from './checkpoint/recovery.js';
export type { SessionRecord, SessionRunRecord, SessionStore, SessionSummary } from './session/session-store.js';
export { MemorySessionStore } from './session/memory-session-store.js';
export type { SessionStoreOptions } from './session/memory-session-store.js';
export { SessionError } from './session/session-error.js';
export type { SessionErrorCode } from './session/session-error.js';
export { DEFAULT_MODEL_PRICES, PriceTable } from './cost/price-table.js';
export type { ModelPrice, PriceTableOptions } from './cost/price-table.js';
export { unpricedCallsOf } from './cost/model-cost.js';
export type { ModelCost } from './cost/model-cost.js';
export { CostTracker } from './cost/cost-tracker.js';
export type { BudgetStatus, CostSummary, CostTrackerOptions, RecordedCost, SessionCost } from './cost/cost-tracker.js';
export { CostError } from './cost/cost-error.js';
export type { CostErrorCode } from './cost/cost-error.js';
export { BUILT_IN_CAPABILITY_MODES } from './context/capability-modes.js';
export type { BuiltInCapabilityMode, CapabilityModeDefinition } from './context/capability-modes.js';
export type {
  ContextAssembly,
  ContextAssemblyResult,
  ContextPart,
  ContextRunAdvice,
  ContextRunInfo,
  ContextRunOutcome,
  ContextIteration,
} from './context/context-part.js';
export { INTERRUPTED_ELSEWHERE } from './loop/lease-guard.js';
