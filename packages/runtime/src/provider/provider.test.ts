import { describe, expect, it } from 'vitest';
import { addUsage } from './provider.js';

describe('addUsage', () => {
  it('adds prompt-cache counts when either side has them, and leaves them out otherwise', () => {
    expect(addUsage({ inputTokens: 1, outputTokens: 2 }, { inputTokens: 3, outputTokens: 4 })).toEqual({ inputTokens: 4, outputTokens: 6 });
    expect(
      addUsage({ inputTokens: 10, outputTokens: 1, cacheReadTokens: 5 }, { inputTokens: 20, outputTokens: 2, cacheWriteTokens: 7 }),
    ).toEqual({
      inputTokens: 30,
      outputTokens: 3,
      cacheReadTokens: 5,
      cacheWriteTokens: 7,
    });
  });
});
