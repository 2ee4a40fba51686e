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
export { ProgressTextFilter, stripModelProgress } from './model-progress-text.js';
export { VERIFICATION_PROMPT, strategyRotationPrompt } from './loop-prompts.js';
export { ManualClock, sleep, systemClock } from './clock.js';
export type { Clock, ManualClockOptions } from './clock.js';
export { modelTimeoutObserver } from './timeout-observer.js';
export type { TimeoutObserver, TimeoutRequest } from './timeout-observer.js';
export type { LoopCheckpointer, RunState, RunStatus, ToolCallStatus } from './run-state.js';
