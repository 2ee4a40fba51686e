/**
 * A real tokenizer for OpenAI models (`js-tiktoken`, pure JavaScript, no WASM), as a separate
 * entry so that `@headway/context` itself does not load its multi-megabyte rank tables.
 *
 * @example
 * ```ts
 * import { createTiktokenCounter } from '@headway/context/tiktoken';
 * const counter = createTiktokenCounter(); // o200k_base: gpt-4o, gpt-4.1, o-series
 * counter.countText('Hello, world!'); // 4
 * ```
 *
 * @packageDocumentation
 */
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';
import type { TokenCounter } from './tokens/token-counter.js';

/** The encodings this entry ships. */
export type TiktokenEncoding = 'o200k_base' | 'cl100k_base';

const encoders = new Map<TiktokenEncoding, Tiktoken>();

/**
 * A {@link TokenCounter} with OpenAI's BPE tokenizer: `o200k_base` (default: gpt-4o, gpt-4.1,
 * o-series) or `cl100k_base` (gpt-4, gpt-3.5). Building an encoder takes a second or two, once
 * per process; counts are exact for the text (chat formatting adds a few tokens a message).
 */
export function createTiktokenCounter(encoding: TiktokenEncoding = 'o200k_base'): TokenCounter {
  let encoder = encoders.get(encoding);
  if (encoder === undefined) {
    encoder = new Tiktoken(encoding === 'o200k_base' ? o200k : cl100k);
    encoders.set(encoding, encoder);
  }
  const enc = encoder;
  // Special-token text in a conversation is counted as plain text, never refused.
  return { name: encoding, countText: (text) => enc.encode(text, [], []).length };
}

export type { TokenCounter } from './tokens/token-counter.js';
