import { describeIssues, toValidationIssues } from '@headway/protocol';
import { ProviderError, type FinishReason, type Usage } from '@headway/runtime';
import type { z } from 'zod';
import { messageSchema, type WireDeltaUsage, type WireUsage } from './wire.js';

// How the Messages API's values map onto the runtime's, and small helpers for untrusted text.

/** `text` cut to `max` characters, so no message quotes an unbounded value. */
export function clip(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** What is wrong with a value a schema rejected, bounded. */
export function issuesOf(error: z.ZodError): string {
  return clip(describeIssues(toValidationIssues(error)), 500);
}

/** Error types of the API's error bodies and `error` events that a later attempt may get past. */
export function isRetryableErrorType(type: string): boolean {
  return type === 'rate_limit_error' || type === 'overloaded_error' || type === 'api_error' || type === 'timeout_error';
}

/** A JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The runtime's finish reason for a `stop_reason`. */
export function toFinishReason(stopReason: string | undefined, hasToolCalls: boolean): FinishReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content_filter';
    case undefined:
      return hasToolCalls ? 'tool_calls' : 'stop';
    default:
      // `pause_turn` (server tools) and stop reasons added later.
      return 'other';
  }
}

/**
 * The runtime's usage for the API's: the API counts uncached input apart from cache reads and
 * writes, the runtime's `inputTokens` counts all input.
 */
export function toUsage(wire: WireUsage): Usage {
  const read = wire.cache_read_input_tokens;
  const write = wire.cache_creation_input_tokens;
  const usage: Usage = { inputTokens: wire.input_tokens + (read ?? 0) + (write ?? 0), outputTokens: wire.output_tokens };
  if (read !== undefined && read !== null) usage.cacheReadTokens = read;
  if (write !== undefined && write !== null) usage.cacheWriteTokens = write;
  return usage;
}

/** `message_delta` counts are cumulative: a present count replaces the one from `message_start`. */
export function mergeUsage(usage: WireUsage, delta: WireDeltaUsage): WireUsage {
  const next = { ...usage };
  if (delta.input_tokens !== undefined && delta.input_tokens !== null) next.input_tokens = delta.input_tokens;
  if (delta.output_tokens !== undefined && delta.output_tokens !== null) next.output_tokens = delta.output_tokens;
  if (delta.cache_read_input_tokens !== undefined && delta.cache_read_input_tokens !== null)
    next.cache_read_input_tokens = delta.cache_read_input_tokens;
  if (delta.cache_creation_input_tokens !== undefined && delta.cache_creation_input_tokens !== null)
    next.cache_creation_input_tokens = delta.cache_creation_input_tokens;
  return next;
}

/**
 * The events that would have streamed a whole message, so {@link MessageAssembler} reads both
 * alike.
 *
 * @throws {ProviderError} `PROVIDER_INVALID_RESPONSE` when the message does not match the wire format.
 */
export function messageEvents(provider: string, message: unknown): unknown[] {
  const parsed = messageSchema.safeParse(message);
  if (!parsed.success) {
    throw new ProviderError(
      'PROVIDER_INVALID_RESPONSE',
      `Provider "${provider}" answered with an invalid message: ${issuesOf(parsed.error)}`,
      { provider },
    );
  }
  const { content, stop_reason: stopReason, usage } = parsed.data;
  return [
    { type: 'message_start', message: { usage } },
    ...content.flatMap((block, index) => [
      { type: 'content_block_start', index, content_block: block },
      { type: 'content_block_stop', index },
    ]),
    { type: 'message_delta', delta: { stop_reason: stopReason ?? null }, usage: null },
    { type: 'message_stop' },
  ];
}
