export { AgentRuntime } from './agent-runtime.js';
export type { AgentRuntimeDeps, RunOptions } from './agent-runtime.js';
export type { RunResult } from './run-loop.js';
export { DEFAULT_SYSTEM_PROMPT, agentConfigSchema, parseAgentConfig } from './agent-config.js';
export type { AgentConfig, AgentConfigInput, CapabilityMode, TimeoutBehavior } from './agent-config.js';
export { ConfigError } from './config-error.js';
export type { ConfigErrorCode } from './config-error.js';
export { ProviderError } from './provider-error.js';
export type { ProviderErrorCode, ProviderErrorOptions } from './provider-error.js';
export { addUsage, collectStream } from './provider.js';
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
} from './provider.js';
export { ProviderRegistry } from './provider-registry.js';
export type { ProviderRegistryOptions, RetryInfo } from './provider-registry.js';
export { backoffDelay, isRetryable, retryPolicy } from './retry-policy.js';
export type { RetryOptions, RetryPolicy } from './retry-policy.js';
export { CircuitBreaker } from './circuit-breaker.js';
export type { CircuitBreakerOptions, CircuitState } from './circuit-breaker.js';
export { ScriptedProvider } from './scripted-provider.js';
export type { Script, ScriptedProviderOptions, ScriptedStep } from './scripted-provider.js';
export { OpenAIProvider } from './openai-provider.js';
export type { OpenAIProviderOptions } from './openai-provider.js';
export { defineTool, toolSpec } from './define-tool.js';
export type { Tool, ToolContext, ToolDefinition } from './define-tool.js';
export { scanForInjection, wrapUntrusted } from './injection-scan.js';
export type { InjectionFinding, InjectionKind, InjectionScan } from './injection-scan.js';
export { MAX_TOOL_RESULT_CHARS, truncateToolResult } from './truncate-tool-result.js';
export type { TruncatedText } from './truncate-tool-result.js';
// Re-exported: where `_progress` sits in model text is the estimator's knowledge.
export { ProgressTextFilter, stripModelProgress } from '@headway/estimator';
export { VERIFICATION_PROMPT, strategyRotationPrompt } from './loop-prompts.js';
export { ManualClock, sleep, systemClock } from './clock.js';
export type { Clock, ManualClockOptions } from './clock.js';
export { modelTimeoutObserver } from './timeout-observer.js';
export type { TimeoutObserver, TimeoutRequest } from './timeout-observer.js';
export type { LoopCheckpointer, RunState, RunStatus, ToolCallStatus } from './run-state.js';
export { CHECKPOINT_STATUSES, checkpointStateSchema, checkpointToolCallSchema } from './checkpoint/checkpoint.js';
export type {
  Checkpoint,
  CheckpointInit,
  CheckpointState,
  CheckpointStatus,
  CheckpointSummary,
  CheckpointToolCall,
  CheckpointUpdate,
  CheckpointUsage,
  FinishedToolCall,
  PendingToolCall,
  StartedToolCall,
} from './checkpoint/checkpoint.js';
export { CheckpointError } from './checkpoint/checkpoint-error.js';
export type { CheckpointErrorCode } from './checkpoint/checkpoint-error.js';
export type { CheckpointListFilter, CheckpointStore, MaybePromise } from './checkpoint/checkpoint-store.js';
export { MemoryCheckpointStore } from './checkpoint/memory-checkpoint-store.js';
export type { MemoryCheckpointStoreOptions } from './checkpoint/memory-checkpoint-store.js';
export { SqliteCheckpointStore } from './checkpoint/sqlite-checkpoint-store.js';
export type { SqliteCheckpointStoreOptions } from './checkpoint/sqlite-checkpoint-store.js';
export type { SqliteDatabase } from './checkpoint/sqlite-database.js';
export { DEFAULT_RECOVERY_POLICY, recoveryPolicySchema, recoveryStrategy, resolveRecoveryPolicy, scanForRecovery } from './checkpoint/recovery.js';
export type { PendingRecovery, RecoveryPolicy, RecoveryScanOptions, RecoveryStrategy } from './checkpoint/recovery.js';
export { LARGE_RESULT_THRESHOLD, externalizeLargeResult } from './checkpoint/large-result.js';
export type { ExternalizeOptions, ExternalizedResult } from './checkpoint/large-result.js';
export { chatMessageSchema } from './checkpoint/run-state-codec.js';
export type { SessionRecord, SessionRunRecord, SessionStore, SessionSummary } from './session/session-store.js';
export { MemorySessionStore } from './session/memory-session-store.js';
export type { SessionStoreOptions } from './session/memory-session-store.js';
export { SqliteSessionStore } from './session/sqlite-session-store.js';
export { SessionError } from './session/session-error.js';
export type { SessionErrorCode } from './session/session-error.js';
export { DEFAULT_MODEL_PRICES, PriceTable, modelPriceSchema } from './cost/price-table.js';
export type { ModelPrice, PriceTableOptions, TokenUsage } from './cost/price-table.js';
export { CostTracker } from './cost/cost-tracker.js';
export type { BudgetStatus, CostSummary, CostTrackerOptions, RecordedCost, SessionCost } from './cost/cost-tracker.js';
export { CostError } from './cost/cost-error.js';
export type { CostErrorCode } from './cost/cost-error.js';
