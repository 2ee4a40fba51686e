import { describeIssues, toValidationIssues } from '@headway/protocol';
import { describeThrown, tokenCountSchema } from '@headway/protocol/internal';
import { z } from 'zod';
import type { ChatMessage, CompletionResponse, FinishReason, ToolCall } from './provider.js';
import { ProviderError } from './provider-error.js';

const tokenCount = tokenCountSchema;

/**
 * Token counts must be non-negative integers: NaN, negative or fractional counts would price a
 * call at $0 (or less) and let a cost cap fail open. Any further `…Tokens` field a provider
 * reports (cache reads and writes) is held to the same rule.
 */
const usageSchema = z.looseObject({ inputTokens: tokenCount, outputTokens: tokenCount }).superRefine((usage, ctx) => {
  for (const [key, value] of Object.entries(usage)) {
    if (!key.endsWith('Tokens') || key === 'inputTokens' || key === 'outputTokens' || value === undefined) continue;
    if (!tokenCount.safeParse(value).success)
      ctx.addIssue({ code: 'custom', path: [key], message: 'expected a non-negative integer token count' });
  }
});

const FINISH_REASONS = new Set<FinishReason>(['stop', 'tool_calls', 'length', 'content_filter', 'other']);

const responseSchema = z.object({
  content: z.string(),
  toolCalls: z.array(z.object({ id: z.string(), name: z.string().min(1), args: z.unknown() })),
  usage: usageSchema,
  finishReason: z.string().optional(),
  reasoning: z.string().optional(),
});

/** Where a provider's answer sits in the run: its name, the conversation so far, the round. */
export interface CheckResponseContext {
  provider: string | undefined;
  /** The conversation before this answer: tool-call ids already used in the run. */
  messages: readonly ChatMessage[];
  /** The round (0-based) the answer belongs to. */
  iteration: number;
}

function invalid(ctx: CheckResponseContext, what: string, cause?: unknown): ProviderError {
  const name = ctx.provider ?? 'provider';
  return new ProviderError('PROVIDER_INVALID_RESPONSE', `Provider "${name}" answered with an invalid completion: ${what}`, {
    provider: name,
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Arguments as plain JSON data (what a checkpoint can store and a tool's schema can read safely). */
function plainArgs(args: unknown, ctx: CheckResponseContext, index: number): unknown {
  if (args === undefined) return undefined;
  // JSON.stringify gives undefined (not a string) for a function or a symbol.
  let text: unknown;
  try {
    text = JSON.stringify(args);
  } catch (error) {
    throw invalid(ctx, `toolCalls[${index}].args: not JSON data (${describeThrown(error)})`);
  }
  if (typeof text !== 'string') throw invalid(ctx, `toolCalls[${index}].args: not JSON data`);
  return JSON.parse(text) as unknown;
}

/**
 * Tool-call ids unique in the whole run: an id the provider left empty, repeated in one answer
 * or reused from an earlier round gets a suffix (`call_1` → `call_1-3.2` for round 3, call 2).
 * The ids are stored with the conversation, so a resumed run keeps them.
 */
function uniqueIds(calls: readonly ToolCall[], ctx: CheckResponseContext): ToolCall[] {
  const used = new Set<string>();
  for (const m of ctx.messages) {
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) used.add(c.id);
  }
  return calls.map((call, i) => {
    let id = call.id;
    if (id === '' || used.has(id)) {
      const base = `${id === '' ? 'call' : id}-${ctx.iteration + 1}.${i + 1}`;
      id = base;
      for (let n = 2; used.has(id); n += 1) id = `${base}.${n}`;
    }
    used.add(id);
    return id === call.id ? call : { ...call, id };
  });
}

/**
 * Checks a provider's answer before the loop uses it, and makes its tool-call ids unique in the
 * run. A provider is foreign code: an answer that is not a completion (missing fields, token
 * counts that are not non-negative integers, arguments that are not JSON, a hostile object whose
 * getters throw) is a `ProviderError` (`PROVIDER_INVALID_RESPONSE`) that says what and where.
 */
export function checkResponse(answer: unknown, ctx: CheckResponseContext): CompletionResponse {
  let parsed: ReturnType<typeof responseSchema.safeParse>;
  try {
    parsed = responseSchema.safeParse(answer);
  } catch (error) {
    throw invalid(ctx, `unreadable (${describeThrown(error)})`);
  }
  if (!parsed.success) throw invalid(ctx, describeIssues(toValidationIssues(parsed.error)));
  const data = parsed.data;
  const calls = data.toolCalls.map((c, i): ToolCall => ({ id: c.id, name: c.name, args: plainArgs(c.args, ctx, i) }));
  const finishReason = FINISH_REASONS.has(data.finishReason as FinishReason)
    ? (data.finishReason as FinishReason)
    : calls.length > 0
      ? 'tool_calls'
      : 'other';
  const response: CompletionResponse = {
    content: data.content,
    toolCalls: uniqueIds(calls, ctx),
    usage: data.usage,
    finishReason,
  };
  if (data.reasoning !== undefined) response.reasoning = data.reasoning;
  return response;
}
