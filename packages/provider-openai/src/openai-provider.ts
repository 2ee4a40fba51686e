import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { describeIssues, systemClock, type Clock } from '@headway/protocol';
import { describeThrown, validateUntrusted } from '@headway/protocol/internal';
import type { z } from 'zod';
import {
  ProviderError,
  isAbortError,
  type ChatMessage,
  type CompletionRequest,
  type CompletionResponse,
  type FinishReason,
  type Provider,
  type ProviderCallOptions,
  type StreamChunk,
  type ToolCall,
  type Usage,
} from '@headway/runtime';
import {
  VendorClient,
  createCallDeadline,
  isRetryableStatus,
  retryAfterMs,
  sdkBackstopTimeout,
  type CallDeadline,
} from '@headway/runtime/provider-kit';
import { MAX_ANSWER_BYTES, clip, readCappedText, readEventData } from './read-answer.js';
import { chunkSchema, completionSchema, streamErrorSchema, type WireCompletion } from './wire-schema.js';

/** Options of {@link OpenAIProvider}. */
export interface OpenAIProviderOptions {
  /** Registry name (default `openai`). */
  name?: string;
  /** API key (default `OPENAI_API_KEY`). Without one the provider reports itself unavailable. */
  apiKey?: string;
  /** Base URL of any OpenAI-compatible server (default `OPENAI_BASE_URL`, else OpenAI's). */
  baseURL?: string;
  /** Model used when a request names none (default `gpt-4o-mini`). */
  model?: string;
  /** Longest a call may take, response headers and body (or the whole stream) together, in ms (default 10 min). */
  timeoutMs?: number;
  /** Set false to disable the provider without removing it. */
  enabled?: boolean;
  /** Custom fetch (proxies, tests). */
  fetch?: typeof fetch;
  /** Environment to read defaults from (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** Clock of the call's time limit, and what an HTTP-date `retry-after` is measured against (default protocol's `systemClock`). */
  clock?: Clock;
}

function toOpenAIMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        tool_calls: calls.map((c) => ({
          id: c.id,
          type: 'function' as const,
          function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args ?? {}) },
        })),
      };
    }
  }
}

/** Parses tool arguments; text that is not JSON is passed on as it is (the tool's validation reports it). */
function parseArgs(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function toFinishReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  switch (reason) {
    case 'stop':
    case 'length':
    case 'content_filter':
    case 'tool_calls':
      return reason;
    case 'function_call':
      return 'tool_calls';
    default:
      return hasToolCalls ? 'tool_calls' : reason === null || reason === undefined ? 'stop' : 'other';
  }
}

function toUsage(
  usage: { prompt_tokens?: number | null | undefined; completion_tokens?: number | null | undefined } | null | undefined,
): Usage {
  return { inputTokens: usage?.prompt_tokens ?? 0, outputTokens: usage?.completion_tokens ?? 0 };
}

/** Reasoning text from servers that return it (`reasoning_content` or `reasoning`). */
function reasoningOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof record.reasoning_content === 'string' && record.reasoning_content !== '') return record.reasoning_content;
  if (typeof record.reasoning === 'string' && record.reasoning !== '') return record.reasoning;
  return undefined;
}

/**
 * A provider for OpenAI and any OpenAI-compatible server (vLLM, Ollama, LM Studio,
 * llama.cpp, gateways), through the official `openai` package: chat completions with
 * tools, usage and streaming. The SDK's own retries are off — the registry retries, with
 * backoff, jitter and a circuit breaker — and failures become {@link ProviderError}s that
 * carry the HTTP status and `retry-after`.
 *
 * @example
 * ```ts
 * const provider = new OpenAIProvider({ baseURL: 'http://127.0.0.1:11434/v1', apiKey: 'ollama', model: 'llama3.1' });
 * ```
 */
export class OpenAIProvider implements Provider {
  readonly name: string;
  readonly model: string;
  readonly #client: VendorClient<OpenAI>;
  readonly #clock: Clock;
  readonly #timeoutMs: number;

  constructor(options: OpenAIProviderOptions = {}) {
    this.name = options.name ?? 'openai';
    this.model = options.model ?? 'gpt-4o-mini';
    this.#clock = options.clock ?? systemClock;
    this.#timeoutMs = options.timeoutMs ?? 600_000;
    this.#client = new VendorClient(
      this.name,
      'OPENAI',
      options,
      (apiKey, baseURL) =>
        new OpenAI({
          apiKey,
          maxRetries: 0,
          ...(baseURL === undefined ? {} : { baseURL }),
          // The call's deadline is the limit; the SDK's real-time timer only a backstop.
          timeout: sdkBackstopTimeout(options.timeoutMs),
          ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        }),
    );
  }

  /** True when enabled and an API key is known. */
  isAvailable(): boolean {
    return this.#client.isAvailable();
  }

  /** Why {@link isAvailable} is false (names `OPENAI_API_KEY`), or `undefined` when it is true. */
  unavailableReason(): string | undefined {
    return this.#client.unavailableReason();
  }

  /** One chat completion (`POST /chat/completions`), read and validated within `timeoutMs`. */
  async complete(request: CompletionRequest, options: ProviderCallOptions = {}): Promise<CompletionResponse> {
    const client = this.#client.get();
    const deadline = createCallDeadline(this.name, this.#timeoutMs, this.#clock, options.signal);
    let completion: WireCompletion;
    try {
      const response = await client.chat.completions.create(this.#params(request), { signal: deadline.signal }).asResponse();
      const text = await readCappedText(response, this.name);
      completion = this.#validate(completionSchema, this.#json(text, response, 'its answer'), 'its answer');
    } catch (error) {
      throw this.#toError(error, deadline);
    } finally {
      deadline.clear();
    }
    const choice = completion.choices[0];
    if (choice === undefined) {
      throw new ProviderError('PROVIDER_INVALID_RESPONSE', `Provider "${this.name}" returned no choices`, {
        provider: this.name,
        retryable: true,
      });
    }
    const toolCalls: ToolCall[] = [];
    for (const call of choice.message.tool_calls ?? []) {
      if (call.type === undefined || call.type === 'function')
        toolCalls.push({ id: call.id, name: call.function.name, args: parseArgs(call.function.arguments ?? '') });
    }
    const response: CompletionResponse = {
      content: choice.message.content ?? '',
      toolCalls,
      usage: toUsage(completion.usage),
      finishReason: toFinishReason(choice.finish_reason, toolCalls.length > 0),
    };
    const reasoning = reasoningOf(choice.message);
    if (reasoning !== undefined) response.reasoning = reasoning;
    return response;
  }

  /**
   * A streamed chat completion; tool calls are yielded once their argument deltas are complete.
   * The whole stream runs within `timeoutMs`; an answer that is not an event stream, or an event
   * that is not a valid chunk, is a `PROVIDER_INVALID_RESPONSE`.
   */
  async *stream(request: CompletionRequest, options: ProviderCallOptions = {}): AsyncGenerator<StreamChunk> {
    const client = this.#client.get();
    const deadline = createCallDeadline(this.name, this.#timeoutMs, this.#clock, options.signal);
    // Tool calls arrive as deltas keyed by index: the id and name first, the arguments in pieces.
    const pending = new Map<number, { id: string; name: string; args: string }>();
    let finish: string | null | undefined;
    let usage: Usage = { inputTokens: 0, outputTokens: 0 };
    let ended = false;
    try {
      const response = await client.chat.completions
        .create({ ...this.#params(request), stream: true, stream_options: { include_usage: true } }, { signal: deadline.signal })
        .asResponse();
      const type = response.headers.get('content-type') ?? '';
      if (!type.toLowerCase().includes('text/event-stream')) {
        const text = await readCappedText(response, this.name);
        throw new ProviderError(
          'PROVIDER_INVALID_RESPONSE',
          `Provider "${this.name}" answered a streaming call with ${type === '' ? 'no content type' : clip(type, 100)}, not an event stream: ${clip(text, 200)}`,
          { provider: this.name, status: response.status, retryable: false },
        );
      }
      for await (const data of readEventData(response, this.name)) {
        if (data === '[DONE]') {
          ended = true;
          break;
        }
        const value = this.#json(data, response, 'a stream event');
        const streamed = streamErrorSchema.safeParse(value);
        if (streamed.success) throw this.#streamError(streamed.data.error);
        const chunk = this.#validate(chunkSchema, value, 'a stream event');
        if (chunk.usage !== undefined && chunk.usage !== null) usage = toUsage(chunk.usage);
        const choice = chunk.choices?.[0];
        if (choice === undefined) continue;
        const delta = choice.delta ?? {};
        const reasoning = reasoningOf(delta);
        if (reasoning !== undefined) yield { type: 'reasoning-delta', text: reasoning };
        if (typeof delta.content === 'string' && delta.content !== '') yield { type: 'text-delta', text: delta.content };
        for (const call of delta.tool_calls ?? []) {
          const entry = pending.get(call.index) ?? { id: '', name: '', args: '' };
          if (typeof call.id === 'string') entry.id = call.id;
          if (typeof call.function?.name === 'string') entry.name += call.function.name;
          if (typeof call.function?.arguments === 'string') entry.args += call.function.arguments;
          if (entry.args.length + entry.name.length > MAX_ANSWER_BYTES) {
            throw new ProviderError(
              'PROVIDER_INVALID_RESPONSE',
              `Provider "${this.name}" streamed a tool call larger than ${MAX_ANSWER_BYTES} bytes`,
              {
                provider: this.name,
              },
            );
          }
          pending.set(call.index, entry);
        }
        if (typeof choice.finish_reason === 'string') finish = choice.finish_reason;
      }
    } catch (error) {
      throw this.#toError(error, deadline);
    } finally {
      deadline.clear();
    }
    if (!ended && finish === undefined) {
      throw new ProviderError(
        'PROVIDER_INVALID_RESPONSE',
        `Provider "${this.name}" ended the stream before it finished (no finish reason, no [DONE])`,
        {
          provider: this.name,
          retryable: true,
        },
      );
    }
    const indices = [...pending.keys()].sort((a, b) => a - b);
    for (const index of indices) {
      const entry = pending.get(index);
      if (entry === undefined) continue;
      if (entry.name === '') {
        throw new ProviderError(
          'PROVIDER_INVALID_RESPONSE',
          `Provider "${this.name}" streamed a tool call without a name (index ${index})`,
          { provider: this.name },
        );
      }
      yield {
        type: 'tool-call',
        toolCall: { id: entry.id === '' ? `call_${index}` : entry.id, name: entry.name, args: parseArgs(entry.args) },
      };
    }
    yield { type: 'finish', finishReason: toFinishReason(finish, pending.size > 0), usage };
  }

  /** `text` parsed as JSON, or `PROVIDER_INVALID_RESPONSE` quoting its start (an HTML page, a cut-off body). */
  #json(text: string, response: Response, what: string): unknown {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // The SyntaxError says no more than this does.
      const type = response.headers.get('content-type');
      throw new ProviderError(
        'PROVIDER_INVALID_RESPONSE',
        `Provider "${this.name}" sent ${what} that is not JSON${type === null ? '' : ` (${clip(type, 100)})`}: ${clip(text, 200)}`,
        { provider: this.name, status: response.status, retryable: true },
      );
    }
  }

  #validate<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
    const result = validateUntrusted(schema, value);
    if (result.success) return result.data;
    throw new ProviderError(
      'PROVIDER_INVALID_RESPONSE',
      `Provider "${this.name}" sent ${what} of the wrong shape: ${clip(describeIssues(result.issues))}`,
      {
        provider: this.name,
        issues: result.issues,
        retryable: true,
      },
    );
  }

  #streamError(error: string | { message?: unknown; type?: unknown }): ProviderError {
    const text =
      typeof error === 'string'
        ? error
        : `${typeof error.type === 'string' ? `${error.type}: ` : ''}${typeof error.message === 'string' ? error.message : describeThrown(error.message)}`;
    return new ProviderError('PROVIDER_REQUEST_FAILED', `Provider "${this.name}" sent an error in its stream: ${clip(text)}`, {
      provider: this.name,
      retryable: false,
    });
  }

  #params(request: CompletionRequest): ChatCompletionCreateParamsNonStreaming {
    const params: ChatCompletionCreateParamsNonStreaming = {
      model: request.model ?? this.model,
      messages: request.messages.map(toOpenAIMessage),
    };
    if (request.temperature !== undefined) params.temperature = request.temperature;
    if (request.tools.length > 0) {
      params.tools = request.tools.map((t): ChatCompletionTool => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
    }
    return params;
  }

  #toError(error: unknown, deadline: CallDeadline): unknown {
    if (deadline.timedOut()) return deadline.error();
    if (ProviderError.isInstance(error)) return error;
    if (isAbortError(error)) return error;
    if (error instanceof APIError) {
      // instanceof leaves the class's generics as any: read the fields as what they are.
      const status: unknown = error.status;
      const headers: unknown = error.headers;
      if (typeof status === 'number') {
        const retryable = isRetryableStatus(status);
        const after = retryAfterMs(headers instanceof Headers ? headers : undefined, this.#clock.now());
        // The message holds the server's error body: a 100 KB page becomes 500 characters.
        return new ProviderError('PROVIDER_REQUEST_FAILED', `Provider "${this.name}" answered HTTP ${status}: ${clip(error.message)}`, {
          provider: this.name,
          status,
          retryable,
          cause: error,
          ...(after === undefined ? {} : { retryAfterMs: after }),
        });
      }
    }
    if (error instanceof APIConnectionTimeoutError) return deadline.error();
    if (error instanceof APIConnectionError) {
      return new ProviderError('PROVIDER_REQUEST_FAILED', `Provider "${this.name}" could not be reached: ${clip(error.message)}`, {
        provider: this.name,
        retryable: true,
        cause: error,
      });
    }
    // The connection dropped mid-body (undici's "terminated") or something else the SDK let through: wrapped, typed.
    return new ProviderError('PROVIDER_REQUEST_FAILED', `Provider "${this.name}" failed: ${clip(describeThrown(error))}`, {
      provider: this.name,
      retryable: error instanceof TypeError && /terminated|socket|other side closed/i.test(error.message),
      cause: error,
    });
  }
}
