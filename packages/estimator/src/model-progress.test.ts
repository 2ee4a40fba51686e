import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOSTILE_RUN, HOSTILE_TEST_TIMEOUT, hostileValue, runIsolated, srcUrl } from './hostile.test-util.js';
import { MAX_PROGRESS_CANDIDATE } from './json-braces.js';
import { PROGRESS_PROMPT_INSTRUCTIONS, extractModelProgress, mayBeProgressObject } from './model-progress.js';

function rejected(output: unknown): string[] {
  const reasons: string[] = [];
  expect(extractModelProgress(output, { onReject: (r) => reasons.push(r) })).toBeUndefined();
  return reasons;
}

describe('extractModelProgress', () => {
  it('reads _progress from a structured reply', () => {
    expect(extractModelProgress({ _progress: { percent: 45, message: 'Analyzing user preferences...' }, analysis: {} })).toEqual({
      percent: 45,
      message: 'Analyzing user preferences...',
    });
    expect(extractModelProgress({ _progress: { percent: 0 } })).toEqual({ percent: 0 });
  });

  it('reads it from JSON text, a fenced block in prose, or an object inside prose', () => {
    expect(extractModelProgress('{"_progress":{"percent":50,"message":"Halfway"}}')).toEqual({ percent: 50, message: 'Halfway' });
    expect(
      extractModelProgress('Done with step one.\n\n```json\n{ "_progress": { "percent": 25 }, "notes": "x" }\n```\nNext I will…'),
    ).toEqual({
      percent: 25,
    });
    expect(
      extractModelProgress('Status: {"summary": "a } brace in a string", "_progress": {"percent": 75, "message": "Refining"}} — more soon'),
    ).toEqual({
      percent: 75,
      message: 'Refining',
    });
  });

  it('clamps a percent outside 0–100', () => {
    expect(extractModelProgress({ _progress: { percent: 140 } })).toEqual({ percent: 100 });
    expect(extractModelProgress('{"_progress":{"percent":-5}}')).toEqual({ percent: 0 });
  });

  it('rejects garbage with a reason, without throwing', () => {
    expect(rejected({ _progress: { percent: '50' } })).toEqual(['_progress.percent: expected a number, got string']);
    expect(rejected({ _progress: { percent: Number.NaN } })).toEqual(['_progress.percent: expected a finite number, got NaN']);
    expect(rejected({ _progress: { percent: Number.POSITIVE_INFINITY } })).toEqual([
      '_progress.percent: expected a finite number, got Infinity',
    ]);
    expect(rejected({ _progress: [50] })).toEqual(['_progress: expected an object, got an array']);
    expect(rejected({ _progress: { percent: { value: 50 } } })).toEqual(['_progress.percent: expected a number, got object']);
    expect(rejected({ _progress: { percent: 50, message: ['a'] } })).toEqual(['_progress.message: expected a string, got an array']);
    expect(rejected('```json\n{"_progress": "50"}\n```')).toEqual(['_progress: expected an object, got string']);
  });

  it('returns undefined quietly when there is no _progress at all', () => {
    expect(rejected('Just prose, no JSON.')).toEqual([]);
    expect(rejected({ answer: 42 })).toEqual([]);
    expect(rejected(null)).toEqual([]);
    expect(rejected([{ _progress: { percent: 5 } }])).toEqual([]);
  });

  it('survives hostile objects and a throwing onReject', () => {
    const hostile = {
      get _progress(): unknown {
        throw new Error('boom');
      },
    };
    expect(rejected(hostile)[0]).toMatch(/could not be read: boom/);
    expect(
      extractModelProgress(
        { _progress: { percent: 'x' } },
        {
          onReject: () => {
            throw new Error('logger down');
          },
        },
      ),
    ).toBeUndefined();
  });

  it('never throws and only ever returns a finite percent in 0–100', () => {
    const progressish = fc.record({
      _progress: fc.oneof(fc.anything(), fc.record({ percent: fc.oneof(fc.double(), fc.anything()), message: fc.anything() })),
    });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          progressish,
          progressish.map((v) => `prose ${JSON.stringify(v)} more`),
          fc.string(),
        ),
        (input) => {
          const out = extractModelProgress(input, { onReject: () => undefined });
          if (out !== undefined) {
            expect(Number.isFinite(out.percent) && out.percent >= 0 && out.percent <= 100).toBe(true);
            expect(out.message === undefined || typeof out.message === 'string').toBe(true);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('mayBeProgressObject', () => {
  /** What parsing the whole text finds: an object with its own `_progress` key, or nothing. */
  const parsedHasProgress = (text: string): boolean => {
    try {
      const value: unknown = JSON.parse(text);
      return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, '_progress');
    } catch {
      return false;
    }
  };
  /** `_progress` with some of its characters written as `\uXXXX` escapes. */
  const escapedKey = fc
    .array(fc.boolean(), { minLength: 9, maxLength: 9 })
    .map((escape) =>
      Array.from('_progress', (c, i) => (escape[i] === true ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join(''),
    );
  const texts = fc.oneof(
    fc.string(),
    fc.json(),
    fc
      .tuple(escapedKey, fc.json(), fc.constantFrom('', ' ', '\n', '\u00a0', '\ufeff'), fc.constantFrom('{', '[{', ' {', '"{'))
      .map(([key, rest, ws, open]) => `${ws}${open}"${key}":{"percent":5},"x":${rest}}${open.includes('[') ? ']' : ''}${ws}`),
  );

  it('is never false for a text whose whole parses to an object with a _progress key (property)', () => {
    let found = 0;
    fc.assert(
      fc.property(texts, (text) => {
        const trimmed = text.trim();
        if (!parsedHasProgress(trimmed)) return;
        found += 1;
        expect(mayBeProgressObject(trimmed)).toBe(true);
      }),
      { numRuns: 2000 },
    );
    // The generator does make such texts, so the property is really checked.
    expect(found).toBeGreaterThan(100);
  });

  it('lets prose through without a parse, and still finds a key spelled with escapes', () => {
    expect(mayBeProgressObject('done')).toBe(false);
    expect(mayBeProgressObject('{"a":1}')).toBe(false);
    expect(mayBeProgressObject('[{"_progress":{"percent":5}}]')).toBe(false);
    expect(extractModelProgress('  {"\\u005fprogress":{"percent":5}}\n')).toEqual({ percent: 5 });
    expect(extractModelProgress('{"_pro\\u0067ress":{"percent":7,"message":"m"}}')).toEqual({ percent: 7, message: 'm' });
  });
});

describe('PROGRESS_PROMPT_INSTRUCTIONS', () => {
  it('asks for _progress at milestones, not every reply', () => {
    expect(PROGRESS_PROMPT_INSTRUCTIONS).toContain('"_progress"');
    expect(PROGRESS_PROMPT_INSTRUCTIONS).toContain('milestone');
    expect(PROGRESS_PROMPT_INSTRUCTIONS).toContain('not in every reply');
  });
});

describe('extractModelProgress on hostile text', () => {
  it(
    'returns for a reply cut off by max_tokens, and for unclosed braces anywhere (in a child process, so a hang fails)',
    () => {
      const run = runIsolated(`
      import { extractModelProgress } from '${srcUrl('model-progress.ts')}';
      const inputs = [
        '{"_progress": {"percent": 50}',
        '{"_progress": {"percent": 50}'.repeat(40_000),
        '{'.repeat(1_000_000) + '"_progress"',
        'text {"_progress": {"percent": 50, "message": "' + 'x'.repeat(1_000_000),
      ];
      console.log(JSON.stringify(inputs.map((input) => extractModelProgress(input) ?? null)));
    `);
      expect(run.signal).toBeNull();
      expect(run.stdout.trim()).toBe('[null,null,null,null]');
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it('still reads a _progress object that follows an unclosed brace or a cut-off one', () => {
    expect(extractModelProgress('Use { to open. {"_progress": {"percent": 30}}')).toEqual({ percent: 30 });
    expect(extractModelProgress('{"_progress": {"percent": 10} and then {"_progress": {"percent": 20}}')).toEqual({ percent: 20 });
    expect(extractModelProgress(`${'{'.repeat(40_000)} {"_progress": {"percent": 40}}`)).toEqual({ percent: 40 });
  });

  it('does not read an object in prose longer than MAX_PROGRESS_CANDIDATE, but does read a whole JSON reply of any size', () => {
    const padding = 'x'.repeat(MAX_PROGRESS_CANDIDATE);
    expect(extractModelProgress(`Note: {"notes": "${padding}", "_progress": {"percent": 60}}`)).toBeUndefined();
    expect(extractModelProgress(`{"notes": "${padding}", "_progress": {"percent": 60}}`)).toEqual({ percent: 60 });
  });

  it(
    'never throws, whatever the input (property, hostile generators, time-limited)',
    async () => {
      await fc.assert(
        fc.asyncProperty(hostileValue, async (input) => {
          const out = extractModelProgress(input(), { onReject: () => undefined });
          await Promise.resolve();
          if (out !== undefined) expect(Number.isFinite(out.percent) && out.percent >= 0 && out.percent <= 100).toBe(true);
        }),
        HOSTILE_RUN,
      );
    },
    HOSTILE_TEST_TIMEOUT,
  );
});
