import type { ContextAssembly, ContextPart } from '@headway/runtime';
import { z } from 'zod';
import type { ContextEvent } from '../context-event.js';
import { parseOptions } from '../parse-options.js';
import { MessageTokenCache, estimateTokenCounter, type TokenCounter } from '../tokens/token-counter.js';
import { KEEP_LAST_MESSAGES, consolidateMessages } from './consolidate.js';

/** The share of the window at which the seed consolidates. */
export const CONSOLIDATE_AT = 0.8;

/** Options of {@link createContextWindow}. */
export interface ContextWindowOptions {
  /** The model's context window in tokens. */
  maxTokens: number;
  /** Consolidate when the assembled context reaches this share of the window (default 0.8). */
  threshold?: number;
  /** Messages kept intact at the end (default 4). */
  keepLast?: number;
  /** Largest summary, as a share of the window (default 0.25). */
  summaryShare?: number;
  /** Counts tokens (default {@link estimateTokenCounter}; `createTiktokenCounter()` for OpenAI models). */
  counter?: TokenCounter;
  /** Told about each consolidation. Its errors are ignored. */
  onEvent?: (event: ContextEvent) => void;
  /** Told the key facts of each summary (the memory synthesizer's `summaries` source). Its errors are ignored. */
  onSummary?: (facts: readonly string[], sessionId: string) => void;
}

const schema = z.strictObject({
  maxTokens: z.int().min(256),
  threshold: z.number().gt(0).max(1).default(CONSOLIDATE_AT),
  keepLast: z.int().min(1).max(100).default(KEEP_LAST_MESSAGES),
  summaryShare: z.number().gt(0).lt(1).default(0.25),
  counter: z
    .custom<TokenCounter>(
      (v) => typeof v === 'object' && v !== null && typeof (v as TokenCounter).countText === 'function',
      'expected { countText(text) }',
    )
    .default(estimateTokenCounter),
  onEvent: z.custom<(event: ContextEvent) => void>((v) => typeof v === 'function', 'expected a function').optional(),
  onSummary: z
    .custom<(facts: readonly string[], sessionId: string) => void>((v) => typeof v === 'function', 'expected a function')
    .optional(),
});

/**
 * The context window as a context part: before each model call it counts the assembled
 * context's tokens; at 80% of the window it keeps the last 4 messages, extracts the key facts of
 * the older ones into one summary message and reports a `context.consolidated` event with the
 * token counts before and after. The run's tool-call log (and so its progress report) is not
 * touched: only the conversation the model sees shrinks.
 *
 * @throws {ContextError} `CONTEXT_INVALID_CONFIG` naming the bad field.
 * @example
 * ```ts
 * const window = createContextWindow({ maxTokens: 128_000, onEvent: (e) => console.log(e) });
 * new AgentRuntime({ provider: 'openai' }, { provider, context: [window] });
 * ```
 */
export function createContextWindow(
  options: ContextWindowOptions,
): ContextPart & { readonly tokens: (assembly: Pick<ContextAssembly, 'conversation' | 'system'>) => number } {
  const o = parseOptions('createContextWindow', schema, options);
  const cache = new MessageTokenCache(o.counter);
  const tokens = (a: Pick<ContextAssembly, 'conversation' | 'system'>): number => {
    let n = cache.total(a.conversation);
    for (const s of a.system) n += o.counter.countText(s);
    return n;
  };
  // At or above the threshold, never below it: 0.8 × 501 = 400.8, so 400 tokens (79.8%) is left
  // alone and 401 consolidates. The epsilon keeps a product like 0.7 × 1000 = 700.0000000000001 at 700.
  const limit = Math.ceil(o.threshold * o.maxTokens - 1e-9);
  const summaryBudget = Math.floor(o.summaryShare * o.maxTokens);
  return {
    name: 'context-window',
    tokens,
    assembleContext(a) {
      const before = tokens(a);
      if (before < limit) return undefined;
      const done = consolidateMessages(a.conversation, {
        keepLast: o.keepLast,
        fits: (summary) => o.counter.countText(summary) <= summaryBudget,
      });
      if (done === undefined) return undefined;
      const after = tokens({ conversation: done.conversation, system: a.system });
      try {
        o.onEvent?.({
          type: 'context.consolidated',
          runId: a.runId,
          iteration: a.iteration,
          beforeTokens: before,
          afterTokens: after,
          maxTokens: o.maxTokens,
          threshold: o.threshold,
          replacedMessages: done.replaced,
          facts: done.facts.length,
        });
        o.onSummary?.(done.facts, a.sessionId);
      } catch {
        // A listener's failure is not the window's.
      }
      return { conversation: done.conversation };
    },
  };
}
