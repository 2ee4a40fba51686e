import fc from 'fast-check';
import pc from 'picocolors';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { columnWidth } from './column-width.js';
import { untrustedText } from './fake-terminal.test-util.js';

const blockChars = fc.constantFrom(...'abc XYZ 0-9 é·…ℹ█░⠋⠏✓✗✔✖⚠■字😀\u0301'.split(''));

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
});
