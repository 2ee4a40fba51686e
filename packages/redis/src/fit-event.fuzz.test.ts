import { isTerminalEvent, parseProgressEvent, type ProgressEvent } from '@headway/protocol';
import {
  HOSTILE_PARSER_RUN_PARAMETERS,
  HOSTILE_TEST_TIMEOUT,
  hostileParserInput,
  progressEventArbitraries,
} from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitEventJson, fitEventJsonAtSeq } from './fit-event.js';

const { event: eventArb } = progressEventArbitraries();
/** Text shaped like the event JSON the sink writes, broken in every way a parser meets. */
const hostile = hostileParserInput({
  markers: ['"type":', '"seq":', '"runId":', '"__proto__":'],
  repeat: ['{"a":', '['],
  nesting: [
    ['{', '}'],
    ['[', ']'],
  ],
  shapes: [],
});

// Generous: a hang or super-linear case blows far past it; a busy machine does not.
const CASE_LIMIT_MS = 10_000;

/** Long or escape-heavy text, put in every string field an event has. */
const bulk = fc.oneof(
  fc.integer({ min: 1, max: 200_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1, max: 50_000 }).map((n) => '\u0000\u001b"\\\u2028\ud83d\ude00'.repeat(n)),
  fc.string({ unit: 'binary', maxLength: 2000 }),
);

/** The free-text fields of events (enums, ids and the envelope are left alone: the event stays valid). */
const TEXT_FIELDS = new Set(['summary', 'error', 'reason', 'message', 'text', 'content', 'preview', 'agentName', 'toolName', 'task']);

function inflate(event: ProgressEvent, text: string): ProgressEvent {
  const out: Record<string, unknown> = { ...event };
  for (const [key, value] of Object.entries(out)) if (typeof value === 'string' && TEXT_FIELDS.has(key)) out[key] = `${value}${text}`;
  return out as unknown as ProgressEvent;
}

describe('fitEventJson under generated and hostile events', () => {
  it(
    'answers within the limit, in linear time: what it writes fits and validates; a terminal event is never dropped',
    () => {
      fc.assert(
        fc.property(eventArb, bulk, fc.integer({ min: 300, max: 100_000 }), (generated, text, max) => {
          const event = inflate(generated, text);
          const json = JSON.stringify(event);
          const start = performance.now();
          const fitted = fitEventJson(event, json, max);
          expect(performance.now() - start).toBeLessThan(CASE_LIMIT_MS);
          if (fitted.kind === 'oversized') {
            expect(isTerminalEvent(event)).toBe(false);
            return;
          }
          expect(fitted.json.length).toBeLessThanOrEqual(Math.max(max, json.length <= max ? json.length : 0));
          const back = parseProgressEvent(JSON.parse(fitted.json));
          expect(back.seq).toBe(event.seq);
          if (isTerminalEvent(event)) expect(isTerminalEvent(back)).toBe(true);
        }),
        { numRuns: 300 },
      );
    },
    Math.max(300_000, HOSTILE_TEST_TIMEOUT),
  );

  it(
    'moved to a later seq (a resumed run written past its abandoned marker): still fits, validates and keeps what it said, in linear time',
    () => {
      fc.assert(
        fc.property(
          eventArb,
          bulk,
          fc.integer({ min: 300, max: 100_000 }),
          fc.integer({ min: 1, max: 2 ** 40 }),
          (generated, text, max, shift) => {
            const event = inflate(generated, text);
            const first = fitEventJson(event, JSON.stringify(event), max);
            if (first.kind === 'oversized') return;
            const start = performance.now();
            const moved = fitEventJsonAtSeq(event, first.json, event.seq + shift, max);
            expect(performance.now() - start).toBeLessThan(CASE_LIMIT_MS);
            if (moved.kind === 'oversized') {
              // Only a non-terminal event can be left out, and only when the longer seq pushed it over.
              expect(isTerminalEvent(event)).toBe(false);
              return;
            }
            expect(moved.json.length).toBeLessThanOrEqual(max);
            const back = parseProgressEvent(JSON.parse(moved.json));
            const before = parseProgressEvent(JSON.parse(first.json));
            expect(back.seq).toBe(event.seq + shift);
            expect(back.type).toBe(before.type);
            if (moved.kind === 'whole') expect({ ...back, seq: before.seq }).toEqual(before);
          },
        ),
        { numRuns: 200 },
      );
    },
    Math.max(300_000, HOSTILE_TEST_TIMEOUT),
  );

  it(
    'moved to a later seq, JSON that is not what the sink wrote (hostile text) falls back to the event itself',
    () => {
      fc.assert(
        fc.property(
          eventArb,
          fc.oneof(
            hostile.string,
            fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
            fc.constantFrom(
              '{}',
              '{"__proto__":{"polluted":1},"type":"run.error"}',
              '{"type":"progress","runId":"r","seq":1}',
              '['.repeat(5000),
            ),
          ),
          (event, junk) => {
            const start = performance.now();
            const moved = fitEventJsonAtSeq(event, junk, event.seq + 1, 1024 * 1024);
            expect(performance.now() - start).toBeLessThan(CASE_LIMIT_MS);
            expect(moved.kind).not.toBe('oversized');
            if (moved.kind === 'oversized') return;
            const back = parseProgressEvent(JSON.parse(moved.json));
            expect([back.type, back.runId, back.seq]).toEqual([event.type, event.runId, event.seq + 1]);
            expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          },
        ),
        HOSTILE_PARSER_RUN_PARAMETERS,
      );
    },
    Math.max(300_000, HOSTILE_TEST_TIMEOUT),
  );
});
