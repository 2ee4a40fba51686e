export { createContextPipeline } from './context-pipeline.js';
export type { ContextPipelineOptions } from './context-pipeline.js';
export { ContextError } from './context-error.js';
export type { ContextErrorCode } from './context-error.js';
export type { ContextConsolidatedEvent, ContextEvent, RateLimitWaitedEvent } from './context-event.js';
export { MESSAGE_OVERHEAD_TOKENS, MessageTokenCache, estimateTokenCounter } from './tokens/token-counter.js';
export type { TokenCounter } from './tokens/token-counter.js';
export { CONSOLIDATE_AT, createContextWindow } from './window/context-window.js';
export type { ContextWindowOptions } from './window/context-window.js';
export { KEEP_LAST_MESSAGES, SUMMARY_HEADER, consolidateMessages, keyFacts } from './window/consolidate.js';
export type { ConsolidateOptions, Consolidation } from './window/consolidate.js';
export { RateLimiter, createRateLimiterPart } from './rate-limit/rate-limiter.js';
export type { ProviderRateLimit, RateLimiterOptions, RateLimiterPartOptions, RateLimitWait } from './rate-limit/rate-limiter.js';
export { analyseAttention } from './attention/attention.js';
export type { AttentionResult, AttentionTool, Urgency } from './attention/attention.js';
export { PROMOTE_AFTER_SUCCESSES, Playbook } from './playbook/playbook.js';
export type { PlaybookOptions, PlaybookRun, TaskTypeStats } from './playbook/playbook.js';
export { classifyTask } from './playbook/classify-task.js';
export { Learnings } from './memory/learnings.js';
export type { LearningsOptions } from './memory/learnings.js';
export type { ContextErrorContext } from './internal-error-context.js';
export { DEFAULT_MEMORY_WEIGHTS, MEMORY_BUDGET_TOKENS, MemorySynthesizer, NEAR_DUPLICATE_SIMILARITY } from './memory/memory-synthesizer.js';
export type {
  MemoryFragment,
  MemorySource,
  MemorySynthesizerOptions,
  RankedFragment,
  SynthesizedMemory,
} from './memory/memory-synthesizer.js';
export { MemoryContextStore } from './storage/context-store.js';
export type { LearningsStore, PlaybookStore } from './storage/context-store.js';
export { SqliteContextStore } from './storage/sqlite-context-store.js';
export type { SqliteContextStoreOptions } from './storage/sqlite-context-store.js';
export { learningSchema, parseStoredRecord, playbookPatternSchema } from './storage/records.js';
export type { Learning, PatternRun, PlaybookPattern } from './storage/records.js';
