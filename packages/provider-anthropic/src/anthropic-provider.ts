import Anthropic, { type OpenTelemetryOptions } from '@anthropic-ai/sdk';
import type { ThinkingConfigParam } from '@anthropic-ai/sdk/resources/messages';
import { systemClock, type Clock } from '@headway/protocol';
import {
  collectStream,
  type CompletionRequest,
  type CompletionResponse,
  type Provider,
  type ProviderCallOptions,
  type StreamChunk,
} from '@headway/runtime';
import { VendorClient, createCallDeadline, sdkBackstopTimeout } from '@headway/runtime/provider-kit';
import { MessageAssembler } from './message-assembler.js';
import { toProviderError } from './provider-failure.js';
import { toMessagesRequest } from './request.js';
import { ThinkingMemory } from './thinking-memory.js';
import { messageEvents } from './wire-mapping.js';

/** Options of {@link AnthropicProvider}. */
export interface AnthropicProviderOptions {
  /** Registry name (default `anthropic`). */
  name?: string;
  /** API key (default `ANTHROPIC_API_KEY`). Without one the provider reports itself unavailable. */
  apiKey?: string;
  /** Base URL of the API or a compatible gateway (default `ANTHROPIC_BASE_URL`, else Anthropic's). */
  baseURL?: string;
  /** Model used when a request names none (default `claude-sonnet-4-6`). */
  model?: string;
  /** `max_tokens` of each request: the most output tokens, thinking included (default 8192). */
  maxTokens?: number;
  /**
   * Extended thinking, as the API takes it (`{ type: 'adaptive' }`, or
   * `{ type: 'enabled', budget_tokens: 4096 }` below `maxTokens`); its text arrives as `thinking`
   * events. Off by default.
   */
  thinking?: ThinkingConfigParam;
  /** Mark the conversation for the prompt cache (5 minutes) on every request (default true). */
  promptCaching?: boolean;
  /** Longest a call may take, response headers and body (or the whole stream) together, in ms (default 10 min). */
  timeoutMs?: number;
  /** Set false to disable the provider without removing it. */
  enabled?: boolean;
  /** Custom fetch (proxies, tests). */
  fetch?: typeof fetch;
  /** Environment to read defaults from (default `process.env`). */
  env?: Record<string, string | undefined>;
  /**
   * The SDK's OpenTelemetry spans and trace headers, off unless given (the SDK's own default
   * is on whenever the application registered a tracer provider).
   */
  openTelemetry?: OpenTelemetryOptions;
  /** The SDK's own log lines (default `off`: failures reach you as {@link @headway/runtime!ProviderError}s). */
  logLevel?: 'off' | 'error' | 'warn' | 'info' | 'debug';
  /** How many tool calls' thinking blocks to keep for the next request (default 1000). */
  thinkingMemory?: number;
  /** Clock an HTTP-date `retry-after` is measured against (default protocol's `systemClock`). */
  clock?: Clock;
}

/** The model used when neither the request nor the options name one. */
const DEFAULT_MODEL = 'claude-sonnet-4-6';

/**
 * A provider for Anthropic's Messages API (Claude), through the official `@anthropic-ai/sdk`:
 * tools as `tool_use` / `tool_result` blocks, streaming (text, tool arguments assembled from
 * `input_json_delta`), extended thinking passed through as `thinking` events, usage with
 * prompt-cache reads and writes, and `max_tokens` surfaced as finish reason `length`. The
 * SDK's own retries are off — the registry retries, with backoff, jitter and a circuit breaker
 * — and its telemetry is off unless asked for. Failures are {@link @headway/runtime!ProviderError}s: 429, 529
 * and 5xx retryable with `retry-after`, other 4xx not, both with the API's error type and
 * message; an answer that breaks the wire format says what broke and where.
 *
 * @example
 * ```ts
 * const provider = new AnthropicProvider({ model: 'claude-sonnet-4-6' }); // reads ANTHROPIC_API_KEY
 * const runtime = new AgentRuntime({ provider: 'anthropic', model: 'claude-sonnet-4-6' }, { provider, tools: [fileRead] });
 * ```
 */
export class AnthropicProvider implements Provider {
  /** Registry name. */
  readonly name: string;
  /** Model used when a request names none. */
  readonly model: string;
  /** `max_tokens` of each request. */
  readonly maxTokens: number;
  readonly #client: VendorClient<Anthropic>;
  readonly #thinking: ThinkingConfigParam | undefined;
  readonly #promptCaching: boolean;
  readonly #memory: ThinkingMemory;
  readonly #clock: Clock;
  readonly #timeoutMs: number;

  constructor(options: AnthropicProviderOptions = {}) {
    this.name = options.name ?? 'anthropic';
    this.model = options.model ?? DEFAULT_MODEL;
    this.maxTokens = options.maxTokens ?? 8192;
    this.#thinking = options.thinking;
    this.#promptCaching = options.promptCaching ?? true;
    this.#memory = new ThinkingMemory(options.thinkingMemory ?? 1000);
    this.#clock = options.clock ?? systemClock;
    this.#timeoutMs = options.timeoutMs ?? 600_000;
    this.#client = new VendorClient(
      this.name,
      'ANTHROPIC',
      options,
      (apiKey, baseURL) =>
        new Anthropic({
          apiKey,
          // null: the SDK reads no environment variable of its own for it.
          baseURL: baseURL ?? null,
          maxRetries: 0,
          // The call's deadline is the limit; the SDK's real-time timer only a backstop.
          timeout: sdkBackstopTimeout(options.timeoutMs),
          openTelemetry: options.openTelemetry ?? false,
          logLevel: options.logLevel ?? 'off',
          ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        }),
    );
  }

  /** True when enabled and an API key is known. */
  isAvailable(): boolean {
    return this.#client.isAvailable();
  }

  /** Why {@link isAvailable} is false (names `ANTHROPIC_API_KEY`), or `undefined` when it is true. */
  unavailableReason(): string | undefined {
    return this.#client.unavailableReason();
  }

  /** One message (`POST /v1/messages`), headers and body within `timeoutMs` (`PROVIDER_TIMEOUT` past it). */
  async complete(request: CompletionRequest, options: ProviderCallOptions = {}): Promise<CompletionResponse> {
    const client = this.#client.get();
    const deadline = createCallDeadline(this.name, this.#timeoutMs, this.#clock, options.signal);
    try {
      return await collectStream(this.#messageChunks(client, request, deadline.signal));
    } finally {
      deadline.clear();
    }
  }

  /**
   * A streamed message: text and thinking as they arrive, tool calls and usage once the message is
   * complete. The whole stream runs within `timeoutMs` (`PROVIDER_TIMEOUT` past it).
   */
  async *stream(request: CompletionRequest, options: ProviderCallOptions = {}): AsyncGenerator<StreamChunk> {
    const client = this.#client.get();
    // The SDK's timeout stops at the headers: this one runs until the stream ends. Its abort reason is the typed timeout.
    const deadline = createCallDeadline(this.name, this.#timeoutMs, this.#clock, options.signal);
    try {
      yield* this.#streamChunks(client, request, deadline.signal);
    } finally {
      deadline.clear();
    }
  }

  async *#streamChunks(client: Anthropic, request: CompletionRequest, signal: AbortSignal): AsyncGenerator<StreamChunk> {
    let events: AsyncIterable<unknown>;
    try {
      events = await client.messages.create({ ...this.#params(request), stream: true }, { signal });
    } catch (error) {
      throw toProviderError(error, this.name, signal, undefined, this.#clock.now());
    }
    const assembler = new MessageAssembler(this.name);
    const iterator = events[Symbol.asyncIterator]();
    try {
      for (;;) {
        let next: IteratorResult<unknown>;
        try {
          next = await iterator.next();
        } catch (error) {
          throw toProviderError(error, this.name, signal, assembler.position, this.#clock.now());
        }
        if (next.done === true) break;
        const chunks = assembler.push(next.value);
        if (assembler.stopped)
          this.#memory.remember(
            assembler.toolCalls.map((c) => c.id),
            assembler.thinkingBlocks,
          );
        yield* chunks;
      }
    } finally {
      // Closes the connection when the caller stops reading early.
      await iterator.return?.();
    }
    // The SDK ends a stream quietly when the request is aborted.
    if (signal.aborted) throw signal.reason;
    assembler.end();
  }

  /** A whole message read as the chunks that would have streamed it, so both paths check the same things. */
  async *#messageChunks(client: Anthropic, request: CompletionRequest, signal: AbortSignal): AsyncGenerator<StreamChunk> {
    let message: unknown;
    try {
      message = await client.messages.create(this.#params(request), { signal });
    } catch (error) {
      throw toProviderError(error, this.name, signal, undefined, this.#clock.now());
    }
    const assembler = new MessageAssembler(this.name, 'message');
    for (const event of messageEvents(this.name, message)) yield* assembler.push(event);
    this.#memory.remember(
      assembler.toolCalls.map((c) => c.id),
      assembler.thinkingBlocks,
    );
  }

  #params(request: CompletionRequest): ReturnType<typeof toMessagesRequest> {
    return toMessagesRequest(request, {
      model: this.model,
      maxTokens: this.maxTokens,
      thinking: this.#thinking,
      promptCaching: this.#promptCaching,
      thinkingFor: (id) => this.#memory.recall(id),
    });
  }
}
