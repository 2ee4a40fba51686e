import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOSTILE_RUN, hostileString } from './hostile.test-util.js';
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

  it('shows the same text for any split of any hostile text, and never throws (property, time-limited)', async () => {
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
  });
});
