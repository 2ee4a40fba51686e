import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tooDeepAt } from './json-nesting.js';
import { depthOf } from './json-nesting.test-util.js';

/** Pieces that open, close or hide brackets: a bracket inside a string, escaped quotes, runs of backslashes. */
const piece = fc.constantFrom('{', '}', '[', ']', '"', '\\', '\\"', '\\\\', '"]"', '"{"', ':', ',', '1', 'a', ' ', '\n', '😀', '\ud800');
const pieces = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''));

/** JSON values whose strings (keys too) are full of brackets, quotes and backslashes. */
const { value: jsonWithBrackets } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    pieces,
    fc.integer(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(pieces, tie('value'), { maxKeys: 4 }),
  ),
}));

describe('tooDeepAt', () => {
  it.each<[string, number, number | undefined]>([
    ['1', 0, undefined],
    ['{}', 0, 0],
    ['{}', 1, undefined],
    ['[[1],[[2]]]', 2, 6],
    ['[[1],[[2]]]', 3, undefined],
    ['{"a":"[[[[["}', 1, undefined],
    ['{"a\\"[[":"\\\\"}', 1, undefined],
    ['{"a":"\\\\\\"[["}', 1, undefined],
    ['{"a":"\\\\"[[', 1, 9],
    ['"unclosed [[[[', 0, undefined],
    // Closing first: JSON.parse refuses it at its first character, before any depth.
    [']]]]][[[', 2, undefined],
  ])('%s, at most %d deep: %s', (text, max, expected) => {
    expect(tooDeepAt(text, max)).toBe(expected);
  });

  it('finds the depth JSON.parse finds, however the JSON is spaced and whatever its strings hold', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({ maxDepth: 12 }), jsonWithBrackets), fc.constantFrom(undefined, 0, 1, '\t'), (value, space) => {
        const text = JSON.stringify(value, null, space);
        const depth = depthOf(JSON.parse(text));
        expect(tooDeepAt(text, depth)).toBeUndefined();
        if (depth > 0) expect(text.charAt(tooDeepAt(text, depth - 1) ?? -1)).toMatch(/[[{]/);
      }),
      { numRuns: 500 },
    );
  });

  it('passes no text that JSON.parse reads as deeper than the bound', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.integer({ min: 0, max: 6 }), (pieces, max) => {
        const text = pieces.join('');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return;
        }
        expect(tooDeepAt(text, max) === undefined).toBe(depthOf(parsed) <= max);
      }),
      { numRuns: 3000 },
    );
  });
});
