/** The conversation was consolidated: older messages became one summary message. */
export interface ContextConsolidatedEvent {
  type: 'context.consolidated';
  runId: string;
  /** Zero-based iteration whose model call triggered it. */
  iteration: number;
  /** Tokens of the assembled context before and after. */
  beforeTokens: number;
  afterTokens: number;
  /** The window and the share of it that triggered consolidation. */
  maxTokens: number;
  threshold: number;
  /** Messages replaced by the summary, and the key facts it keeps. */
  replacedMessages: number;
  facts: number;
}

/** A model call waited for a provider's rate limit. */
export interface RateLimitWaitedEvent {
  type: 'rate-limit.waited';
  runId: string;
  iteration: number;
  provider: string;
  /** Which limit made it wait. */
  limit: 'requests' | 'tokens';
  waitedMs: number;
}

/** What `@headway/context` tells `onEvent` about (besides the run's own progress events). */
export type ContextEvent = ContextConsolidatedEvent | RateLimitWaitedEvent;
