import fc from 'fast-check';
import pc from 'picocolors';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { columnWidth } from './column-width.js';
import { untrustedText } from './fake-terminal.test-util.js';

// By code point (Array.from), not by UTF-16 unit: split('') cut 😀 into two lone surrogate
// halves, which are not characters of the block, and broke the styled check below.
const blockChars = fc.constantFrom(...Array.from('abc XYZ 0-9 é·…ℹ█░⠋⠏✓✗✔✖⚠■字😀\u0301'));

describe('columnWidth', () => {
  it('agrees with string-width on the block’s own characters, styled or not, and on anything else', () => {
    const colors = pc.createColors(true);
    fc.assert(
      fc.property(fc.string({ unit: blockChars, maxLength: 40 }), untrustedText(20), (line, other) => {
        expect(columnWidth(line)).toBe(stringWidth(line));
        expect(columnWidth(colors.cyan(line) + colors.dim(line))).toBe(stringWidth(line) * 2);
        expect(columnWidth(other)).toBe(stringWidth(other));
      }),
    );
  });

  it('measures a styled line as string-width does, even when styling two copies joins lone surrogate halves', () => {
    // The counterexample of the property above when blockChars held surrogate halves (seed
    // -15462882, path "8:5"): "\ude00\ud83d" is 0 columns, but two styled copies are 2, because
    // once the styles are stripped the high half of the first copy and the low half of the second
    // form 😀. "Twice the width of the line" is then wrong; agreeing with string-width is right.
    const colors = pc.createColors(true);
    const line = '\ude00\ud83d';
    const styled = colors.cyan(line) + colors.dim(line);
    expect(stringWidth(line)).toBe(0);
    expect(columnWidth(styled)).toBe(stringWidth(styled));
    expect(columnWidth(styled)).toBe(2);
  });
});
