import { describe, expect, it } from 'vitest';
import { createTiktokenCounter } from './tiktoken.js';

describe('createTiktokenCounter', () => {
  it("counts with OpenAI's tokenizer: exact counts, special-token text as plain text", () => {
    const o200k = createTiktokenCounter();
    expect(o200k.name).toBe('o200k_base');
    expect(o200k.countText('Hello, world!')).toBe(4);
    expect(o200k.countText('')).toBe(0);
    expect(o200k.countText('<|endoftext|>')).toBeGreaterThan(1);
    expect(createTiktokenCounter('cl100k_base').countText('Hello, world!')).toBe(4);
    // Loading the two encodings took 1.8 s alone and 17-20 s while the whole suite ran: a hang guard.
  }, 120_000);
});
