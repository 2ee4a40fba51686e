import { HOSTILE_RUN_PARAMETERS, HOSTILE_TEST_TIMEOUT, deepValueArb, hostileValueArb, hugeStringArb } from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStallDetector } from './stall-detector.js';

const value = fc.oneof(hostileValueArb(), deepValueArb(), hugeStringArb({ maxLength: 2_000_000 }));

describe('stall detector input that fights back', () => {
  it(
    'takes any arguments, results, names and text without throwing, and every change it returns is a valid event body (property, time-limited)',
    () => {
      fc.assert(
        fc.property(fc.array(fc.tuple(value, value, fc.oneof(fc.string(), value), fc.boolean()), { maxLength: 8 }), (calls) => {
          const detector = createStallDetector({ repeatedCall: 2, pingPongCycles: 2, noProgressIterations: 2, repeatedText: 2 });
          calls.forEach(([args, result, name, ok], i) => {
            for (const change of [
              detector.toolCall({ iteration: i, id: `c${i}`, name: name as string, args, result, ok }),
              detector.toolCall({ iteration: i, id: `d${i}`, name: name as string, args, result, ok }),
              detector.text(i, name as string),
              detector.iterationFinished(i),
            ]) {
              if (change === undefined) continue;
              expect(['stall.detected', 'stall.cleared']).toContain(change.type);
              if (change.type === 'stall.detected') expect(change.evidence.subject.length).toBeLessThanOrEqual(80);
            }
          });
        }),
        HOSTILE_RUN_PARAMETERS,
      );
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it(
    'handles 500 calls of a 1 MB result (each read up to its cap), reporting the one loop once',
    () => {
      const detector = createStallDetector();
      const big = 'y'.repeat(1_000_000);
      const changes = [];
      for (let i = 0; i < 500; i++) {
        const change = detector.toolCall({ iteration: i, id: `c${i}`, name: 'read', args: { path: 'f' }, result: big, ok: true });
        if (change !== undefined) changes.push(change);
      }
      expect(changes.map((c) => [c.type, c.type === 'stall.detected' ? c.since : -1])).toEqual([['stall.detected', 0]]);
    },
    HOSTILE_TEST_TIMEOUT,
  );
});
