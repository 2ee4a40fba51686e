import { isTerminalEvent, parseProgressEvent, type ProgressEvent } from '@headway/protocol';
import { progressEventArbitraries } from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitEventJson } from './fit-event.js';

const { event: eventArb } = progressEventArbitraries();

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
  it('answers within the limit, in linear time: what it writes fits and validates; a terminal event is never dropped', () => {
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
  }, 300_000);
});
