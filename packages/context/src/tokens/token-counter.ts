import type { ChatMessage } from '@headway/runtime';
import { argsText } from '../text/words.js';

/**
 * Counts the tokens of a text. `@headway/context/tiktoken` has a real tokenizer for OpenAI
 * models; {@link estimateTokenCounter} is the documented estimate for the rest.
 */
export interface TokenCounter {
  /** Names the tokenizer (`estimate`, `o200k_base`, …). */
  readonly name: string;
  countText(text: string): number;
}

/** Tokens a chat format adds to every message (role, separators), on top of its text. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/**
 * The documented estimate: one token per 4 characters, rounded up. Why: no tokenizer is public
 * for every provider (Anthropic's is not); English prose and code average 3.5–4.5 characters a
 * token with the BPE tokenizers in use, so a window check on this estimate with a 20% margin
 * (the 80% threshold) holds in practice.
 */
export const estimateTokenCounter: TokenCounter = {
  name: 'estimate',
  countText: (text) => Math.ceil(text.length / 4),
};

/**
 * Counts a conversation's tokens, remembering each message's count (messages are not changed
 * in place by the runtime), so a check before every iteration costs only the new messages.
 */
export class MessageTokenCache {
  readonly #counter: TokenCounter;
  #cache = new WeakMap<object, number>();

  constructor(counter: TokenCounter) {
    this.#counter = counter;
  }

  /** The tokens of one message: its text, its tool calls' names and arguments, and the overhead. */
  count(message: ChatMessage): number {
    const known = this.#cache.get(message);
    if (known !== undefined) return known;
    let text = typeof message.content === 'string' ? message.content : '';
    if (message.role === 'assistant' && message.toolCalls !== undefined) {
      for (const call of message.toolCalls) text += ` ${call.name} ${argsText(call.args)}`;
    }
    const n = this.#counter.countText(text) + MESSAGE_OVERHEAD_TOKENS;
    this.#cache.set(message, n);
    return n;
  }

  /** The tokens of a whole conversation. */
  total(messages: readonly ChatMessage[]): number {
    let sum = 0;
    for (const m of messages) sum += this.count(m);
    return sum;
  }
}
