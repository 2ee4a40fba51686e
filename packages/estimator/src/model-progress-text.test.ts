import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProgressTextFilter, stripModelProgress } from './model-progress-text.js';

describe('stripModelProgress', () => {
  it.each([
    ['Done.\n```json\n{"_progress": {"percent": 40}}\n```', 'Done.'],
    ['{"_progress": {"percent": 40}}', ''],
    ['{"answer": 42, "_progress": {"percent": 40}}', '{\n  "answer": 42\n}'],
    ['Working {"_progress":{"percent":10,"message":"a } b"}} on it', 'Working on it'],
    ['Keep {"a": 1} and ```json\n{"b": 2}\n```', 'Keep {"a": 1} and ```json\n{"b": 2}\n```'],
    ['no progress here', 'no progress here'],
  ])('%j → %j', (input, output) => {
    expect(stripModelProgress(input)).toBe(output);
  });

  it('the stream filter shows the same text as stripping the whole, for any split (property)', () => {
    const texts = [
      'Reading files now. {"_progress": {"percent": 30}} More text {"x": 1} end',
      'A ```json\n{"_progress": {"percent": 50, "message": "half"}}\n``` B',
      'plain text with `code` and ``` fences ``` and {braces}',
    ];
    fc.assert(
      fc.property(fc.constantFrom(...texts), fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 40 }), (text, sizes) => {
        const filter = new ProgressTextFilter();
        let out = '';
        let at = 0;
        for (let i = 0; at < text.length; i++) {
          const n = sizes[i % sizes.length] ?? 1;
          out += filter.push(text.slice(at, at + n));
          at += n;
        }
        out += filter.flush();
        return !out.includes('_progress') && out.replace(/\s+/g, ' ').trim() === stripModelProgress(text).replace(/\s+/g, ' ').trim();
      }),
    );
  });
});
