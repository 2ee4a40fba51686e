// EventStream's depth check on hostile lines: brackets thousands deep, inside and outside strings,
// closed or not, behind runs of backslashes and quotes. Each line is either refused unparsed
// (nested deeper than MAX_LINE_DEPTH) or read exactly as without the check; nothing throws.
import { ManualClock, parseProgressEvent } from '@headway/protocol';
import { HOSTILE_PARSER_RUN_PARAMETERS, HOSTILE_TEST_TIMEOUT, hostileParserInput } from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventStream, MAX_LINE_DEPTH } from './event-stream.js';
import { depthOf } from './json-nesting.test-util.js';

const hostile = hostileParserInput({
  markers: ['{"type":"assistant","message":{"content":[{"type":"tool_use","input":', '"}', '\\"', '\\\\'],
  repeat: ['{"a":', '[', '"[', '\\"[', '\\\\"['],
  nesting: [
    ['{"a":', '}'],
    ['[', ']'],
    ['["', '"]'],
    ['[{"k":"\\"","v":', '}]'],
  ],
  shapes: [],
});

/** A line as an agent would write it around `text`: alone, or as the tool input of a Claude Code line. */
const line = fc.oneof(
  hostile.string,
  hostile.string.map(
    (text) =>
      `{"type":"assistant","session_id":"s","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Bash","input":${text}}]}}`,
  ),
);

describe('EventStream on hostile lines', () => {
  it(
    'refuses a line unparsed or reads it as it did without the check, never throws, and every event validates',
    { timeout: HOSTILE_TEST_TIMEOUT },
    () => {
      fc.assert(
        fc.property(line, fc.constantFrom('auto', 'claude-code'), (text, from) => {
          const warnings: string[] = [];
          const options = { from, maxLineLength: Infinity, clock: new ManualClock({ start: 1 }) };
          const events = new EventStream({ ...options, onWarning: (w) => warnings.push(w) }).push(text);
          for (const e of events) expect(parseProgressEvent(e)).toEqual(e);
          if (warnings[0]?.includes('nested deeper than') === true) {
            expect(events).toEqual([]);
            // Refused: either not JSON at all, or JSON deeper than the bound.
            let parsed: unknown;
            try {
              parsed = JSON.parse(text.trim());
            } catch {
              return;
            }
            expect(depthOf(parsed)).toBeGreaterThan(MAX_LINE_DEPTH);
            return;
          }
          // Not refused: the same events as without the check.
          expect(events).toEqual(new EventStream({ ...options, maxLineDepth: Infinity }).push(text));
        }),
        HOSTILE_PARSER_RUN_PARAMETERS,
      );
    },
  );

  it('a line of one bracket kind nested 4 MiB deep is refused at its first level past the bound', { timeout: HOSTILE_TEST_TIMEOUT }, () => {
    const warnings: string[] = [];
    const stream = new EventStream({ onWarning: (w) => warnings.push(w) });
    expect(stream.push('['.repeat(4 * 1024 * 1024 - 1))).toEqual([]);
    expect(warnings).toEqual([
      `line 1: nested deeper than ${MAX_LINE_DEPTH} levels (arrays and objects) at character ${MAX_LINE_DEPTH + 1}; skipped (later lines like it are only counted)`,
    ]);
  });
});
