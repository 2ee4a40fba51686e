import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_CHARS, cleanMessage } from './clean-message.js';

describe('cleanMessage', () => {
  it('turns control characters into one space and trims', () => {
    expect(cleanMessage('\u001b[31mred\u0007\n\n  text\u009b ')).toBe('[31mred text');
  });

  it('keeps at most MAX_MESSAGE_CHARS characters', () => {
    expect(cleanMessage('x'.repeat(10_000))).toBe('x'.repeat(MAX_MESSAGE_CHARS));
  });

  it('answers undefined for a non-string or for nothing left', () => {
    expect(cleanMessage(42)).toBeUndefined();
    expect(cleanMessage('\u0000\t\n ')).toBeUndefined();
  });
});
