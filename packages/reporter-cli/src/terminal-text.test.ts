import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { untrustedText } from './fake-terminal.test-util.js';
import { fitLine } from './fit-line.js';
import { oneLine, safeLines } from './terminal-text.js';

// eslint-disable-next-line no-control-regex -- what must never reach the terminal from run data
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

describe('oneLine and safeLines', () => {
  it('leave printable text exactly as it is', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }).filter((s) => !CONTROL.test(s) && !/[\u2028\u2029]/.test(s)),
        (s) => {
          expect(oneLine(s)).toBe(s);
          expect(safeLines(s)).toBe(s);
        },
      ),
    );
  });

  it('let no control character through; safeLines keeps only line feeds', () => {
    fc.assert(
      fc.property(untrustedText(40), (s) => {
        expect(oneLine(s)).not.toMatch(CONTROL);
        expect(safeLines(s).replace(/\n/g, '')).not.toMatch(CONTROL);
      }),
    );
    expect(oneLine('a\r\nb\tc\u001b[31m')).toBe('a b c\uFFFD[31m');
    expect(safeLines('a\r\nb\rc\u2028d')).toBe('a\nb\nc\nd');
  });
});

describe('fitLine', () => {
  it('never exceeds the width, keeps lines that fit, and marks a cut with …', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.integer({ min: 0, max: 120 }), (s, width) => {
        const line = oneLine(s);
        const fitted = fitLine(line, width);
        expect(stringWidth(fitted)).toBeLessThanOrEqual(width);
        if (stringWidth(line) <= width) expect(fitted).toBe(line);
        else if (width > 0) expect(fitted.endsWith('…')).toBe(true);
      }),
    );
  });

  it('cuts inside colours without leaving them open', () => {
    const red = '\u001b[31mhello world\u001b[39m';
    const fitted = fitLine(red, 6);
    expect(fitted).toBe('\u001b[31mhello\u001b[39m…');
  });
});
