import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOSTILE_RUN, HOSTILE_TEST_TIMEOUT, hostileString } from './hostile.test-util.js';
import { MAX_PROGRESS_CANDIDATE } from './json-braces.js';
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

/** Streams `text` in `size`-character deltas; returns what each push released and the most ever held back. */
function stream(text: string, size: number): { pieces: string[]; out: string; maxHeld: number } {
  const filter = new ProgressTextFilter();
  const pieces: string[] = [];
  let released = 0;
  let maxHeld = 0;
  for (let at = 0; at < text.length; at += size) {
    const piece = filter.push(text.slice(at, at + size));
    pieces.push(piece);
    released += piece.length;
    maxHeld = Math.max(maxHeld, Math.min(text.length, at + size) - released);
  }
  const rest = filter.flush();
  pieces.push(rest);
  return { pieces, out: pieces.join(''), maxHeld };
}

describe('ProgressTextFilter on hostile streams', () => {
  const prose = 'lorem ipsum dolor sit amet '.repeat(4_000); // 108 KB

  it('keeps streaming after an unclosed { in prose: the text goes out as it comes', () => {
    const { pieces, out, maxHeld } = stream(`Start { unclosed ${prose}`, 20);
    expect(out).toBe(`Start { unclosed ${prose}`);
    expect(pieces.filter((p) => p !== '').length).toBeGreaterThan(5_000);
    expect(maxHeld).toBeLessThanOrEqual(40);
  });

  it('releases an unclosed { that may still be JSON once it is longer than MAX_PROGRESS_CANDIDATE, in bounded chunks', () => {
    const numbers = `{"values": [${Array.from({ length: 20_000 }, (_, i) => i).join(', ')}`;
    const { pieces, out, maxHeld } = stream(`Data: ${numbers} ${prose}`, 20);
    expect(out).toBe(`Data: ${numbers} ${prose}`);
    expect(maxHeld).toBeLessThanOrEqual(MAX_PROGRESS_CANDIDATE + 20);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(MAX_PROGRESS_CANDIDATE + 20);
    expect(pieces.filter((p) => p !== '').length).toBeGreaterThan(5_000);
  });

  it('still hides a _progress object that comes after a stray brace or a cut-off object', () => {
    const text = 'Use { to open. {"_progress": {"percent": 10} then {"_progress": {"percent": 20, "message": "m"}} and on';
    const { out } = stream(text, 3);
    expect(out).toBe('Use { to open. {"_progress": {"percent": 10} then and on');
    expect(stripModelProgress(text)).toBe(out);
  });

  // Counterexamples of the split properties, kept as fixed cases. The first is what `hostileString`
  // generated for fast-check seed 46749998 (path 1144:2:1:1:1:1:1:1:2:1:2:1:4:1:1:1:10), split in
  // 1-character deltas: 188 nested `{"_progress":` around a `{`, one `}` short of closing the
  // outermost. Each closed object is a candidate, and their total length is quadratic, so the
  // parse budget (linear in the text) runs out: the 77 innermost ones are removed as one, the 110
  // around them are left as written. The budget used to grow per delta, so with the whole text in
  // one push more of them were parsed than with small deltas; it now grows per character read.
  // The second was found by the mixed-fragment property below: a space, then two objects removed
  // back to back. The space-dropping read the character before the second object from the text
  // released by an earlier push, so whether the space after them was dropped depended on the split.
  const NESTED = `${'{"_progress":'.repeat(188)}{${'}'.repeat(188)}`;
  it.each([
    { name: 'nested _progress objects past the parse budget', text: NESTED, shown: `${'{"_progress":'.repeat(111)}${'}'.repeat(110)}` },
    { name: 'two objects removed back to back after a space', text: ' {"_progress":1}{"_progress":1} ', shown: ' ' },
    { name: 'a removed object between spaces', text: 'a {"_progress":1} b', shown: 'a b' },
    { name: 'two removed objects between spaces', text: 'a {"_progress":1} {"_progress":2} b', shown: 'a b' },
  ])('shows the same text for every split: $name', ({ text, shown }) => {
    for (const size of [...Array.from({ length: 64 }, (_, i) => i + 1), text.length]) expect(stream(text, size).out).toBe(shown);
  });

  it('shows the same text for any split of text full of _progress objects, spaces and fences (property)', () => {
    const parts = [
      '{"_progress":1}',
      '{"_progress":{"percent":5}}',
      '{"a":1,"_progress":2}',
      '{"_progress":',
      '"_progress"',
      ' ',
      '  ',
      'x',
      '\n',
      '```json\n',
      '```',
      '```\n',
      '`',
      '{',
      '}',
      '"',
      ':',
      ',',
      '1',
      '\\',
    ];
    const text = fc.array(fc.constantFrom(...parts), { maxLength: 30 }).map((a) => a.join(''));
    const sizes = fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(text, sizes, (t, split) => {
        const whole = new ProgressTextFilter();
        const once = whole.push(t) + whole.flush();
        const filter = new ProgressTextFilter();
        let out = '';
        for (let at = 0, i = 0; at < t.length; i++) {
          const n = split[i % split.length] ?? 1;
          out += filter.push(t.slice(at, at + n));
          at += n;
        }
        expect(out + filter.flush()).toBe(once);
      }),
      { numRuns: 2_000 },
    );
  });

  it(
    'shows the same text for any split of any hostile text, and never throws (property, time-limited)',
    async () => {
      await fc.assert(
        fc.asyncProperty(hostileString, fc.integer({ min: 1, max: 64 }), async (text, size) => {
          const whole = new ProgressTextFilter();
          const once = whole.push(text) + whole.flush();
          const { out, maxHeld } = stream(text, size);
          expect(out).toBe(once);
          expect(maxHeld).toBeLessThanOrEqual(MAX_PROGRESS_CANDIDATE + size);
          expect(typeof stripModelProgress(text)).toBe('string');
          await Promise.resolve();
        }),
        HOSTILE_RUN,
      );
    },
    HOSTILE_TEST_TIMEOUT,
  );
});
