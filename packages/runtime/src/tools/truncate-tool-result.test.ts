import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { truncateToolResult } from './truncate-tool-result.js';

describe('truncateToolResult', () => {
  it('keeps short text as it is', () => {
    expect(truncateToolResult('abc', 10)).toEqual({ text: 'abc', truncated: false, omitted: 0 });
  });

  it('never exceeds max, keeps head and tail, and says how much it left out (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 0, maxLength: 3000 }), fc.integer({ min: 300, max: 2000 }), (text, max) => {
        const r = truncateToolResult(text, max);
        if (text.length <= max) return r.text === text;
        const kept = text.length - r.omitted;
        return (
          r.text.length <= max &&
          r.truncated &&
          r.text.includes(`${r.omitted.toLocaleString('en-US')} of`) &&
          kept > 0 &&
          r.text.startsWith(text.slice(0, 10))
        );
      }),
    );
  });

  it('does not split surrogate pairs', () => {
    const r = truncateToolResult('😀'.repeat(1000), 500);
    expect(r.text.length).toBeLessThanOrEqual(500);
    expect(r.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});
