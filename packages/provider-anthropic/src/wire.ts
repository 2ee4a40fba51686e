import { z } from 'zod';

// zod schemas of the Messages API answers this package reads (API version 2026-10-21, as the
// SDK's types describe it). They are loose where the API may add fields (unknown keys are
// dropped) and strict where a wrong value would corrupt the answer (types, indexes, counts).

/** `usage` of a message (`message_start`, a whole message); the cache counts are apart from `input_tokens`. */
export interface WireUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null | undefined;
  cache_read_input_tokens?: number | null | undefined;
}

/** `usage` of `message_delta`: cumulative counts, any of which may be absent. */
export interface WireDeltaUsage {
  input_tokens?: number | null | undefined;
  output_tokens?: number | null | undefined;
  cache_creation_input_tokens?: number | null | undefined;
  cache_read_input_tokens?: number | null | undefined;
}

/** An event, a block or a delta: an object with a string `type`, checked before its own schema. */
export interface Typed {
  type: string;
  [key: string]: unknown;
}

const count = z.number().int().nonnegative();
const index = z.number().int().nonnegative().max(100_000);

const usageSchema: z.ZodType<WireUsage> = z.object({
  input_tokens: count,
  output_tokens: count,
  cache_creation_input_tokens: count.nullish(),
  cache_read_input_tokens: count.nullish(),
});

const deltaUsageSchema: z.ZodType<WireDeltaUsage> = z.object({
  input_tokens: count.nullish(),
  output_tokens: count.nullish(),
  cache_creation_input_tokens: count.nullish(),
  cache_read_input_tokens: count.nullish(),
});

/** Any event, block or delta. */
export const typedSchema: z.ZodType<Typed> = z.looseObject({ type: z.string() });

/** Fields of each content block type, after its `type` was read. */
export const textBlockSchema: z.ZodType<{ text: string }> = z.object({ text: z.string() });
export const thinkingBlockSchema: z.ZodType<{ thinking: string; signature?: string | null | undefined }> = z.object({
  thinking: z.string(),
  signature: z.string().nullish(),
});
export const redactedThinkingBlockSchema: z.ZodType<{ data: string }> = z.object({ data: z.string() });
export const toolUseBlockSchema: z.ZodType<{ id: string; name: string; input?: unknown }> = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.unknown(),
});

/** Fields of each delta type, after its `type` was read. */
export const textDeltaSchema: z.ZodType<{ text: string }> = z.object({ text: z.string() });
export const thinkingDeltaSchema: z.ZodType<{ thinking: string }> = z.object({ thinking: z.string() });
export const signatureDeltaSchema: z.ZodType<{ signature: string }> = z.object({ signature: z.string() });
export const inputJsonDeltaSchema: z.ZodType<{ partial_json: string }> = z.object({ partial_json: z.string() });

/** Fields of each event type, after its `type` was read. */
export const messageStartSchema: z.ZodType<{ message: { usage: WireUsage } }> = z.object({
  message: z.object({ content: z.array(z.unknown()).max(0, 'must be empty at message_start').nullish(), usage: usageSchema }),
});
export const blockStartSchema: z.ZodType<{ index: number; content_block: Typed }> = z.object({ index, content_block: typedSchema });
export const blockDeltaSchema: z.ZodType<{ index: number; delta: Typed }> = z.object({ index, delta: typedSchema });
export const blockStopSchema: z.ZodType<{ index: number }> = z.object({ index });
export const messageDeltaSchema: z.ZodType<{
  delta: { stop_reason?: string | null | undefined };
  usage?: WireDeltaUsage | null | undefined;
}> = z.object({
  delta: z.object({ stop_reason: z.string().nullish() }),
  usage: deltaUsageSchema.nullish(),
});
export const errorEventSchema: z.ZodType<{ error: { type?: string | null | undefined; message?: string | null | undefined } }> = z.object({
  error: z.object({ type: z.string().nullish(), message: z.string().nullish() }),
});

/** A whole (non-streamed) message. */
export const messageSchema: z.ZodType<{ content: unknown[]; stop_reason?: string | null | undefined; usage: WireUsage }> = z.object({
  content: z.array(z.unknown()).max(100_000),
  stop_reason: z.string().nullish(),
  usage: usageSchema,
});

/** The stream events this provider reads; others are skipped (the API may add event types). */
export const KNOWN_EVENTS: ReadonlySet<string> = new Set([
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
  'ping',
  'error',
]);
