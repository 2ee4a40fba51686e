/** A tool call the model asked for. `args` is what the model sent (parsed JSON when it was JSON). */
export interface ToolCall {
  id: string;
  name: string;
  args: unknown;
}

/** One message of a conversation, in a provider-neutral shape. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

/** A tool as the model sees it: name, description and a JSON Schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * Token counts of one or more provider calls: what a provider reports, what a checkpoint keeps
 * and what the price table prices (the one usage type of the runtime). Counts are non-negative
 * integers; the loop rejects anything else from a provider (`PROVIDER_INVALID_RESPONSE`).
 * `inputTokens` counts every input token, cached or not; `cacheReadTokens` / `cacheWriteTokens`
 * say how many of them were read from or written to the provider's prompt cache (priced apart).
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

/** Why the model stopped producing output. */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

/** What the runtime asks a provider for. */
export interface CompletionRequest {
  messages: ChatMessage[];
  /** Tools the model may call; empty means none. */
  tools: ToolSpec[];
  model?: string;
  temperature?: number;
}

/** A provider's answer. */
export interface CompletionResponse {
  content: string;
  toolCalls: ToolCall[];
  usage: Usage;
  finishReason: FinishReason;
  /** Reasoning text, when the provider returns it (emitted as `thinking`). */
  reasoning?: string;
}

/** Per-call options: the signal aborts the request. */
export interface ProviderCallOptions {
  signal?: AbortSignal;
}

/** A piece of a streamed completion. */
export type StreamChunk =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call'; toolCall: ToolCall }
  | { type: 'finish'; finishReason: FinishReason; usage: Usage };

/**
 * A model backend. `complete` is required; `stream` is used when present and the caller
 * streams (`runStream`). `isAvailable` lets a registry skip a provider that is disabled or
 * has no API key.
 */
export interface Provider {
  readonly name: string;
  isAvailable?(): boolean;
  /**
   * Why the provider is not available, in words a user can act on (e.g. "no API key: set
   * OPENAI_API_KEY or pass apiKey"); the registry puts it in its `PROVIDER_UNAVAILABLE` message.
   */
  unavailableReason?(): string | undefined;
  complete(request: CompletionRequest, options?: ProviderCallOptions): Promise<CompletionResponse>;
  stream?(request: CompletionRequest, options?: ProviderCallOptions): AsyncIterable<StreamChunk>;
}

/** Adds two usages. */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
  if (a.cacheReadTokens !== undefined || b.cacheReadTokens !== undefined)
    sum.cacheReadTokens = (a.cacheReadTokens ?? 0) + (b.cacheReadTokens ?? 0);
  if (a.cacheWriteTokens !== undefined || b.cacheWriteTokens !== undefined)
    sum.cacheWriteTokens = (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0);
  return sum;
}

/**
 * Reads a whole stream into a {@link CompletionResponse}, calling `onChunk` for each piece
 * (the runtime emits `text.delta` and `thinking` from it).
 */
export async function collectStream(
  stream: AsyncIterable<StreamChunk>,
  onChunk?: (chunk: StreamChunk) => void,
): Promise<CompletionResponse> {
  let content = '';
  let reasoning = '';
  const toolCalls: ToolCall[] = [];
  let usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let finishReason: FinishReason | undefined;
  for await (const chunk of stream) {
    onChunk?.(chunk);
    switch (chunk.type) {
      case 'text-delta':
        content += chunk.text;
        break;
      case 'reasoning-delta':
        reasoning += chunk.text;
        break;
      case 'tool-call':
        toolCalls.push(chunk.toolCall);
        break;
      case 'finish':
        finishReason = chunk.finishReason;
        usage = chunk.usage;
        break;
    }
  }
  const response: CompletionResponse = {
    content,
    toolCalls,
    usage,
    finishReason: finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
  };
  if (reasoning !== '') response.reasoning = reasoning;
  return response;
}
