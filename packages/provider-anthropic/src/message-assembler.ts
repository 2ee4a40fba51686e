import { describeThrown } from '@headway/protocol/internal';
import { ProviderError, type StreamChunk, type ToolCall } from '@headway/runtime';
import type { z } from 'zod';
import {
  KNOWN_EVENTS,
  blockDeltaSchema,
  blockStartSchema,
  blockStopSchema,
  errorEventSchema,
  inputJsonDeltaSchema,
  messageDeltaSchema,
  messageStartSchema,
  redactedThinkingBlockSchema,
  signatureDeltaSchema,
  textBlockSchema,
  textDeltaSchema,
  thinkingBlockSchema,
  thinkingDeltaSchema,
  toolUseBlockSchema,
  typedSchema,
  type Typed,
  type WireUsage,
} from './wire.js';
import { clip, isPlainObject, isRetryableErrorType, issuesOf, mergeUsage, toFinishReason, toUsage } from './wire-mapping.js';

/** A thinking block as the API wants it back in the next request of a tool loop. */
export type ThinkingBlock = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

/** Most characters of text, thinking and tool arguments one message may carry (a bound, not a budget). */
export const MAX_MESSAGE_CHARS: number = 32 * 1024 * 1024;

type Block =
  | { kind: 'text'; open: boolean }
  | { kind: 'thinking'; open: boolean; thinking: string; signature: string }
  | { kind: 'redacted_thinking'; open: boolean; data: string }
  | { kind: 'tool_use'; open: boolean; id: string; name: string; json: string; input: unknown };

/**
 * Turns the Messages API's stream events, one at a time, into the runtime's stream chunks,
 * checking the wire format as it goes: events in a valid order, every block started before its
 * deltas and stopped before `message_stop`, deltas that fit their block, tool arguments that are
 * a JSON object, and a stream that ends with `message_stop`. Anything else is a
 * `ProviderError` (`PROVIDER_INVALID_RESPONSE`) that says what was wrong and where (the event's
 * number and type, the block's index). Text and thinking are yielded as they arrive; tool calls
 * and the finish chunk once the message is complete, so a broken answer yields no tool call.
 * A whole (non-streamed) message is read the same way, as the events that would have streamed it.
 */
export class MessageAssembler {
  readonly #provider: string;
  readonly #source: 'stream' | 'message';
  readonly #blocks = new Map<number, Block>();
  #events = 0;
  #lastType = '';
  #started = false;
  #stopped = false;
  #chars = 0;
  #stopReason: string | undefined;
  #usage: WireUsage = { input_tokens: 0, output_tokens: 0 };
  #thinking: ThinkingBlock[] = [];
  #toolCalls: ToolCall[] = [];

  /** `source` only changes how errors name the place: `event #3 content_block_delta` or `content[1]`. */
  constructor(provider: string, source: 'stream' | 'message' = 'stream') {
    this.#provider = provider;
    this.#source = source;
  }

  /** The thinking blocks of the finished message, in order (to send back with its tool calls). */
  get thinkingBlocks(): readonly ThinkingBlock[] {
    return this.#thinking;
  }

  /** The tool calls of the finished message. */
  get toolCalls(): readonly ToolCall[] {
    return this.#toolCalls;
  }

  /** How many events were read, and the type of the last one (for errors that happen between events). */
  get position(): string {
    return this.#events === 0 ? 'before the first event' : `after event #${this.#events} ${this.#lastType}`;
  }

  /** Whether `message_stop` arrived. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /**
   * Reads one event (untrusted: any value).
   *
   * @throws {ProviderError} `PROVIDER_INVALID_RESPONSE` when it breaks the wire format.
   */
  push(event: unknown): StreamChunk[] {
    this.#events += 1;
    this.#lastType = '';
    const type = this.#parse(typedSchema, event, undefined, 'the event is not an object with a string "type"').type;
    this.#lastType = clip(type, 60);
    if (type === 'ping') return [];
    if (!KNOWN_EVENTS.has(type)) return []; // The API may add event types; skipping them is what its versioning policy asks.
    if (this.#stopped) throw this.#invalid('an event after message_stop');
    switch (type) {
      case 'message_start': {
        const parsed = this.#parse(messageStartSchema, event);
        if (this.#started) throw this.#invalid('a second message_start');
        this.#started = true;
        this.#usage = parsed.message.usage;
        return [];
      }
      case 'error': {
        const parsed = this.#parse(errorEventSchema, event);
        const errorType = clip(parsed.error.type ?? 'error', 60);
        throw new ProviderError(
          'PROVIDER_REQUEST_FAILED',
          `Provider "${this.#provider}" sent an error event (event #${this.#events}): ${errorType}: ${clip(parsed.error.message ?? '')}`,
          {
            provider: this.#provider,
            retryable: isRetryableErrorType(errorType),
          },
        );
      }
      default:
        break;
    }
    if (!this.#started) throw this.#invalid(`${this.#lastType} before message_start`);
    switch (type) {
      case 'content_block_start':
        return this.#start(this.#parse(blockStartSchema, event));
      case 'content_block_delta':
        return this.#delta(this.#parse(blockDeltaSchema, event));
      case 'content_block_stop': {
        const parsed = this.#parse(blockStopSchema, event);
        this.#open(parsed.index).open = false;
        return [];
      }
      case 'message_delta': {
        const parsed = this.#parse(messageDeltaSchema, event);
        if (parsed.delta.stop_reason !== undefined && parsed.delta.stop_reason !== null)
          this.#stopReason = clip(parsed.delta.stop_reason, 60);
        if (parsed.usage !== undefined && parsed.usage !== null) this.#usage = mergeUsage(this.#usage, parsed.usage);
        return [];
      }
      default:
        return this.#stop();
    }
  }

  /**
   * Checks that the stream ended where a message ends.
   *
   * @throws {ProviderError} `PROVIDER_INVALID_RESPONSE` (retryable) for a stream cut short.
   */
  end(): void {
    if (this.#stopped) return;
    const open = [...this.#blocks].filter(([, b]) => b.open).map(([i, b]) => `content[${i}] ${b.kind}`);
    const what = this.#events === 0 ? 'the stream ended without any event' : `the stream ended ${this.position} without message_stop`;
    throw new ProviderError(
      'PROVIDER_INVALID_RESPONSE',
      `Provider "${this.#provider}" answered with a broken stream: ${what}${open.length > 0 ? ` (open: ${open.join(', ')})` : ''}`,
      {
        provider: this.#provider,
        retryable: true,
      },
    );
  }

  #start(event: { index: number; content_block: Typed }): StreamChunk[] {
    const { index } = event;
    if (this.#blocks.has(index)) throw this.#invalid('a second content_block_start for the same block', index);
    const blockType = event.content_block.type;
    switch (blockType) {
      case 'text': {
        const block = this.#parse(textBlockSchema, event.content_block, index);
        this.#blocks.set(index, { kind: 'text', open: true });
        return this.#grow(block.text, index) === '' ? [] : [{ type: 'text-delta', text: block.text }];
      }
      case 'thinking': {
        const block = this.#parse(thinkingBlockSchema, event.content_block, index);
        this.#blocks.set(index, {
          kind: 'thinking',
          open: true,
          thinking: this.#grow(block.thinking, index),
          signature: block.signature ?? '',
        });
        return block.thinking === '' ? [] : [{ type: 'reasoning-delta', text: block.thinking }];
      }
      case 'redacted_thinking': {
        const block = this.#parse(redactedThinkingBlockSchema, event.content_block, index);
        this.#blocks.set(index, { kind: 'redacted_thinking', open: true, data: this.#grow(block.data, index) });
        return [];
      }
      case 'tool_use': {
        const block = this.#parse(toolUseBlockSchema, event.content_block, index);
        this.#blocks.set(index, {
          kind: 'tool_use',
          open: true,
          id: clip(block.id, 200),
          name: clip(block.name, 200),
          json: '',
          input: block.input,
        });
        return [];
      }
      default:
        throw this.#invalid(`unknown content block type "${clip(blockType, 60)}"`, index);
    }
  }

  #delta(event: { index: number; delta: Typed }): StreamChunk[] {
    const block = this.#open(event.index);
    const deltaType = event.delta.type;
    const misfit = (): ProviderError => this.#invalid(`a ${clip(deltaType, 60)} for a ${block.kind} block`, event.index);
    switch (deltaType) {
      case 'text_delta': {
        if (block.kind !== 'text') throw misfit();
        const delta = this.#parse(textDeltaSchema, event.delta, event.index);
        return this.#grow(delta.text, event.index) === '' ? [] : [{ type: 'text-delta', text: delta.text }];
      }
      case 'thinking_delta': {
        if (block.kind !== 'thinking') throw misfit();
        const delta = this.#parse(thinkingDeltaSchema, event.delta, event.index);
        block.thinking += this.#grow(delta.thinking, event.index);
        return delta.thinking === '' ? [] : [{ type: 'reasoning-delta', text: delta.thinking }];
      }
      case 'signature_delta': {
        if (block.kind !== 'thinking') throw misfit();
        block.signature = this.#grow(this.#parse(signatureDeltaSchema, event.delta, event.index).signature, event.index);
        return [];
      }
      case 'input_json_delta': {
        if (block.kind !== 'tool_use') throw misfit();
        block.json += this.#grow(this.#parse(inputJsonDeltaSchema, event.delta, event.index).partial_json, event.index);
        return [];
      }
      case 'citations_delta': {
        // Only sent for documents with citations on, which this provider never sends: nothing to keep.
        if (block.kind !== 'text') throw misfit();
        return [];
      }
      default:
        throw this.#invalid(`unknown delta type "${clip(deltaType, 60)}"`, event.index);
    }
  }

  #stop(): StreamChunk[] {
    const indices = [...this.#blocks.keys()].sort((a, b) => a - b);
    for (const index of indices) {
      const block = this.#blocks.get(index);
      if (block?.open === true) throw this.#invalid(`message_stop while content[${index}] (${block.kind}) is still open`);
    }
    const chunks: StreamChunk[] = [];
    for (const index of indices) {
      const block = this.#blocks.get(index);
      if (block === undefined) continue;
      if (block.kind === 'thinking') this.#thinking.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
      else if (block.kind === 'redacted_thinking') this.#thinking.push({ type: 'redacted_thinking', data: block.data });
      else if (block.kind === 'tool_use') {
        const toolCall: ToolCall = { id: block.id, name: block.name, args: this.#toolInput(block, index) };
        this.#toolCalls.push(toolCall);
        chunks.push({ type: 'tool-call', toolCall });
      }
    }
    this.#stopped = true;
    chunks.push({
      type: 'finish',
      finishReason: toFinishReason(this.#stopReason, this.#toolCalls.length > 0),
      usage: toUsage(this.#usage),
    });
    return chunks;
  }

  #toolInput(block: Extract<Block, { kind: 'tool_use' }>, index: number): Record<string, unknown> {
    const name = `tool call "${block.name}" (${block.id})`;
    const cutOff =
      this.#stopReason === 'max_tokens'
        ? ` — the answer was cut off at max_tokens (${this.#usage.output_tokens} output tokens); raise maxTokens`
        : '';
    let input: unknown = block.input ?? {};
    if (block.json.trim() !== '') {
      try {
        input = JSON.parse(block.json) as unknown;
      } catch (error) {
        throw this.#invalid(
          `${name} arguments are not valid JSON (${clip(error instanceof Error ? error.message : 'unparsable', 120)}): ${JSON.stringify(clip(block.json, 120))}${cutOff}`,
          index,
          cutOff === '',
        );
      }
    }
    if (!isPlainObject(input)) throw this.#invalid(`${name} arguments are not a JSON object${cutOff}`, index, cutOff === '');
    return input;
  }

  #open(index: number): Block {
    const block = this.#blocks.get(index);
    if (block === undefined) throw this.#invalid(`${this.#lastType} for a block that never started`, index);
    if (!block.open) throw this.#invalid(`${this.#lastType} for a block that already stopped`, index);
    return block;
  }

  /** Counts `text` against the message bound and returns it. */
  #grow(text: string, index: number): string {
    this.#chars += text.length;
    if (this.#chars > MAX_MESSAGE_CHARS) throw this.#invalid(`the message is larger than ${MAX_MESSAGE_CHARS} characters`, index);
    return text;
  }

  #parse<T>(schema: z.ZodType<T>, value: unknown, index?: number, what?: string): T {
    const problem = what ?? `${this.#source === 'stream' ? this.#lastType : 'the block'} does not match the wire format`;
    let parsed: z.ZodSafeParseResult<T>;
    try {
      parsed = schema.safeParse(value);
    } catch (error) {
      // A value that is not plain data (a throwing getter, a revoked proxy) cannot come from JSON.
      throw this.#invalid(`${problem} (unreadable: ${describeThrown(error, 120)})`, index);
    }
    if (!parsed.success) throw this.#invalid(`${problem} (${issuesOf(parsed.error)})`, index);
    return parsed.data;
  }

  #invalid(what: string, index?: number, retryable = false): ProviderError {
    const where =
      this.#source === 'stream'
        ? `event #${this.#events} ${this.#lastType === '' ? '' : this.#lastType}${index === undefined ? '' : `, content[${index}]`}`.trim()
        : index === undefined
          ? 'the message'
          : `content[${index}]`;
    const kind = this.#source === 'stream' ? 'a broken stream' : 'an invalid message';
    return new ProviderError('PROVIDER_INVALID_RESPONSE', `Provider "${this.#provider}" answered with ${kind}: ${what} (at ${where})`, {
      provider: this.#provider,
      retryable,
    });
  }
}
