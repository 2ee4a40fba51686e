// Every receiver of untrusted data in this package, fuzzed with hostile input: it answers (a
// value or the documented typed error), never throws anything else, and never hangs. The run
// parameters fail the property when it goes over its time budget.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HeadwayError } from './headway-error.js';
import { parseProgressEvent, parseProgressEventJson } from './parse-progress-event.js';
import { createRedactor, redact, redactString } from './redact.js';
import { safeStringify } from './safe-stringify.js';
import { HOSTILE_RUN_PARAMETERS, hostileValueArb, hugeStringArb } from './testing.js';
import { toolResultPreview } from './tool-result-preview.js';

const TEST_TIMEOUT = HOSTILE_RUN_PARAMETERS.interruptAfterTimeLimit + 5000;

function typedOrNothing(fn: () => unknown, ...codes: string[]): void {
  try {
    fn();
  } catch (error) {
    expect(codes.some((code) => HeadwayError.isInstance(error, code))).toBe(true);
  }
}

describe('hostile input', () => {
  it(
    'parseProgressEvent: a ProtocolError or an event',
    () => {
      fc.assert(
        fc.property(hostileValueArb(), (value) => {
          typedOrNothing(() => parseProgressEvent(value), 'PROTOCOL_INVALID_EVENT');
        }),
        HOSTILE_RUN_PARAMETERS,
      );
    },
    TEST_TIMEOUT,
  );

  it(
    'parseProgressEventJson: a ProtocolError or an event, for any text',
    () => {
      fc.assert(
        fc.property(
          fc.oneof(
            hugeStringArb({ maxLength: 300_000 }),
            fc.string(),
            fc.jsonValue().map((v) => JSON.stringify(v)),
          ),
          (text) => {
            typedOrNothing(() => parseProgressEventJson(text), 'PROTOCOL_INVALID_EVENT', 'PROTOCOL_INPUT_TOO_LARGE');
          },
        ),
        HOSTILE_RUN_PARAMETERS,
      );
    },
    TEST_TIMEOUT,
  );

  it(
    'redactString: a string, for any text',
    () => {
      fc.assert(
        fc.property(hugeStringArb({ maxLength: 300_000 }), (text) => {
          expect(typeof redactString(text)).toBe('string');
        }),
        HOSTILE_RUN_PARAMETERS,
      );
    },
    TEST_TIMEOUT,
  );

  it(
    'redact and a compiled redactor: never throw, whatever the value',
    () => {
      const redactor = createRedactor({ paths: ['*.password', 'args.headers["x-key"]'] });
      fc.assert(
        fc.property(hostileValueArb(), (value) => {
          redact(value);
          redactor(value);
        }),
        HOSTILE_RUN_PARAMETERS,
      );
    },
    TEST_TIMEOUT,
  );

  it(
    'toolResultPreview: a string of at most maxLength characters, whatever the result',
    () => {
      fc.assert(
        fc.property(hostileValueArb(), fc.integer({ min: 0, max: 200 }), (value, max) => {
          const preview = toolResultPreview(value, max);
          expect(typeof preview).toBe('string');
          expect(preview.length).toBeLessThanOrEqual(max);
        }),
        HOSTILE_RUN_PARAMETERS,
      );
    },
    TEST_TIMEOUT,
  );

  it(
    'safeStringify: JSON text or undefined, whatever the value',
    () => {
      fc.assert(
        fc.property(hostileValueArb(), (value) => {
          const text = safeStringify(value);
          if (text !== undefined) expect(() => JSON.parse(text) as unknown).not.toThrow();
        }),
        HOSTILE_RUN_PARAMETERS,
      );
    },
    TEST_TIMEOUT,
  );
});
