import { abortError, sleep, systemClock, type Clock } from '../loop/clock.js';
import type {
  ChatMessage,
  CompletionRequest,
  CompletionResponse,
  Provider,
  ProviderCallOptions,
  StreamChunk,
  ToolCall,
  Usage,
} from './provider.js';
import { ProviderError } from './provider-error.js';

/** One scripted model reply. */
export interface ScriptedStep {
  /** Text of the reply. */
  content?: string;
  /** Tools the "model" calls; ids are generated when absent. */
  toolCalls?: { name: string; args: unknown; id?: string }[];
  /** Token counts to report (default: about one token per four characters). */
  usage?: Partial<Usage>;
  /** Simulated latency, on the provider's clock (so a fake clock makes it instant). */
  delayMs?: number;
  /** Reasoning text to return alongside. */
  reasoning?: string;
  /** Throw this instead of replying (to script failures). */
  error?: Error;
}

/** A script: fixed steps in order, or a function of the conversation so far. */
export type Script =
  readonly ScriptedStep[] | ((conversation: readonly ChatMessage[], request: CompletionRequest, call: number) => ScriptedStep);

/** Options of {@link ScriptedProvider}. */
export interface ScriptedProviderOptions {
  /** Registry name (default `scripted`). */
  name?: string;
  /** Clock for `delayMs` (default the system clock). */
  clock?: Clock;
  /** What `isAvailable()` answers (default true). */
  available?: boolean;
  /** Keep every request in `requests` (default true). */
  record?: boolean;
}

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * A deterministic provider that replies from a script: for tests, examples and demos.
 *
 * @example
 * ```ts
 * const provider = new ScriptedProvider([
 *   { toolCalls: [{ name: 'file_read', args: { path: 'README.md' } }] },
 *   { content: 'The README describes headway.' },
 * ]);
 * ```
 */
export class ScriptedProvider implements Provider {
  readonly name: string;
  /** Every request received, in order (when `record` is on). */
  readonly requests: CompletionRequest[] = [];
  readonly #script: Script;
  readonly #clock: Clock;
  readonly #record: boolean;
  #available: boolean;
  #calls = 0;

  constructor(script: Script, options: ScriptedProviderOptions = {}) {
    this.#script = script;
    this.name = options.name ?? 'scripted';
    this.#clock = options.clock ?? systemClock;
    this.#available = options.available ?? true;
    this.#record = options.record ?? true;
  }

  /** Calls answered so far. */
  get calls(): number {
    return this.#calls;
  }

  /** What the constructor's `available` (or `setAvailable`) said. */
  isAvailable(): boolean {
    return this.#available;
  }

  /** Enables or disables the provider (a disabled one is skipped by a registry). */
  setAvailable(available: boolean): void {
    this.#available = available;
  }

  /** Replies with the next scripted step (after its `delayMs`, on the provider's clock). */
  async complete(request: CompletionRequest, options: ProviderCallOptions = {}): Promise<CompletionResponse> {
    const step = this.#next(request);
    if (step.delayMs !== undefined && step.delayMs > 0) await sleep(this.#clock, step.delayMs, options.signal);
    else if (options.signal?.aborted === true) throw abortError(options.signal);
    if (step.error !== undefined) throw step.error;
    return this.#response(step, request);
  }

  /** The next scripted step as a stream: reasoning, word-sized text deltas, tool calls, finish. */
  async *stream(request: CompletionRequest, options: ProviderCallOptions = {}): AsyncGenerator<StreamChunk> {
    const step = this.#next(request);
    if (step.delayMs !== undefined && step.delayMs > 0) await sleep(this.#clock, step.delayMs, options.signal);
    if (step.error !== undefined) throw step.error;
    const response = this.#response(step, request);
    if (response.reasoning !== undefined) yield { type: 'reasoning-delta', text: response.reasoning };
    // Word-sized deltas, like a real stream.
    for (const piece of response.content.match(/\S+\s*|\s+/g) ?? []) {
      if (options.signal?.aborted === true) throw abortError(options.signal);
      yield { type: 'text-delta', text: piece };
    }
    for (const toolCall of response.toolCalls) yield { type: 'tool-call', toolCall };
    yield { type: 'finish', finishReason: response.finishReason, usage: response.usage };
  }

  #next(request: CompletionRequest): ScriptedStep {
    const call = this.#calls;
    this.#calls += 1;
    if (this.#record) this.requests.push(request);
    if (typeof this.#script === 'function') return this.#script(request.messages, request, call);
    const step = this.#script[call];
    if (step === undefined) {
      throw new ProviderError(
        'PROVIDER_INVALID_RESPONSE',
        `Scripted provider "${this.name}" has no step ${call + 1} (the script has ${this.#script.length})`,
        {
          provider: this.name,
        },
      );
    }
    return step;
  }

  #response(step: ScriptedStep, request: CompletionRequest): CompletionResponse {
    const call = this.#calls;
    const content = step.content ?? '';
    const toolCalls: ToolCall[] = (step.toolCalls ?? []).map((c, i) => ({
      id: c.id ?? `call_${call}_${i + 1}`,
      name: c.name,
      args: c.args,
    }));
    let inputTokens = step.usage?.inputTokens;
    if (inputTokens === undefined) {
      inputTokens = 0;
      for (const m of request.messages) inputTokens += estimateTokens(m.content);
    }
    const response: CompletionResponse = {
      content,
      toolCalls,
      usage: { inputTokens, outputTokens: step.usage?.outputTokens ?? estimateTokens(content) + toolCalls.length * 8 },
      finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
    };
    if (step.reasoning !== undefined) response.reasoning = step.reasoning;
    return response;
  }
}
