import type { ProgressEvent, RedactOptions } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventArb, textArb, wildEventArb } from './arbitraries.test-util.js';
import { createLineEncoder as createLineEncoder1b3a309 } from './line-encoder-1b3a309.test-util.js';
import { createLineEncoder } from './line-encoder.js';

// The encoder was made cheaper per event (numbers and strings written without a JSON.stringify
// call each, keys read with for…in instead of Object.keys); what it writes must not change by
// a byte. Every case goes to the current encoder and to the one at 1b3a309, each built with the
// same options, and their answers (a line, no line, or a throw) are compared.

const configs: (RedactOptions | false)[] = [{}, false, { censor: '***' }, { secretKeys: false }, { paths: ['args.query'] }];

function answer(encode: () => string | undefined): { line: string | undefined } | { threw: true } {
  try {
    return { line: encode() };
  } catch {
    return { threw: true };
  }
}

function expectSame(value: unknown, redact: RedactOptions | false): void {
  const now = createLineEncoder(redact);
  const then = createLineEncoder1b3a309(redact);
  expect(answer(() => now.event(value as ProgressEvent))).toEqual(answer(() => then.event(value as ProgressEvent)));
}

/** Numbers JSON writes in every way: epoch milliseconds, fractions, -0, NaN, huge and tiny. */
const numberArb = fc.oneof(
  fc.integer({ min: 1_600_000_000_000, max: 2_000_000_000_000 }),
  fc.double(),
  fc.maxSafeInteger(),
  fc.constantFrom(0, -0, Number.NaN, Infinity, -Infinity, 2 ** 30, 2 ** 53, 1e21, 99_999_999, 1_800_000_000_000 - 1),
);

/** Events whose values are swapped for anything: text with escapes and secrets, odd numbers, nested junk. */
const hostileEventArb: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    wildEventArb,
    fc.dictionary(
      fc.constantFrom('ts', 'seq', 'percent', 'durationMs', 'etaMs', 'message', 'preview', 'toolName', 'args', 'summary', 'runId'),
      fc.oneof(textArb, numberArb, fc.jsonValue(), fc.anything(), fc.bigInt()),
    ),
  )
  .map(([event, swap]) => ({ ...event, ...swap }));

/** A run's worth of events sharing one runId and increasing ts, as a hub stamps them. */
const streamArb = fc
  .tuple(
    fc.array(fc.oneof(eventArb, wildEventArb), { minLength: 1, maxLength: 30 }),
    fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }),
  )
  .map(([events, start]) => events.map((event, i) => ({ ...event, runId: 'run-1', seq: i + 1, ts: start + Math.floor(i / 3) })));

describe('the line encoder writes what it wrote at 1b3a309', () => {
  it('for generated event streams, ordinary and with secrets, under every redaction setting', () => {
    fc.assert(
      fc.property(streamArb, fc.constantFrom(...configs), (events, redact) => {
        const now = createLineEncoder(redact);
        const then = createLineEncoder1b3a309(redact);
        expect(events.map((e) => now.event(e))).toEqual(events.map((e) => then.event(e)));
      }),
      { numRuns: 300 },
    );
  });

  it('for events with hostile field values', () => {
    fc.assert(
      fc.property(hostileEventArb, fc.constantFrom(...configs), (event, redact) => {
        expectSame(event, redact);
      }),
      { numRuns: 1000 },
    );
  });

  it('for values that are no plain events', () => {
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    const inherited: Record<string, unknown> = Object.create({ inheritedKey: 'x', type: 'progress' }) as Record<string, unknown>;
    inherited.type = 'iteration';
    inherited.index = 1;
    const values: unknown[] = [
      null,
      undefined,
      {},
      Object.create(null),
      inherited,
      Object.assign(Object.create({ percent: 5, message: 'inherited' }) as object, { type: 'progress' }),
      new Map([['type', 'progress']]),
      new Date(0),
      { type: 'progress', percent: 1n },
      { type: 'progress', unknownKey: 1 },
      { type: 'tool.executing', toolName: 't', args: { nested: { deeper: [1, 'sk-live-0123456789abcdef0123', { password: 'p' }] } } },
      { type: 'tool.executing', toolName: 't', args: Object.create({ inheritedArg: 1 }) as object },
      {
        type: 'progress',
        get percent(): number {
          throw new Error('getter');
        },
      },
      { type: 'progress', toJSON: () => 'x' },
      new Proxy({ type: 'progress', percent: 3 }, {}),
      new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error('no keys');
          },
        },
      ),
      revocable.proxy,
    ];
    for (const redact of configs) for (const value of values) expectSame(value, redact);
  });

  // The one change from 1b3a309, on purpose: its fast path wrote `{}` for a number, a boolean, a
  // bigint, a symbol and `[]` (for…in finds no keys in them), where the README says a value that
  // is not an object writes nothing. Now none of them is written, as with every redaction setting
  // the reference path (JSON.stringify) already decided for strings, functions and [1, 2].
  it('writes no line for a value that is not an object, or is an array', () => {
    const values: unknown[] = [undefined, null, 5, Number.NaN, 'text', true, 10n, Symbol('s'), () => 1, [], [1, 2], [{ type: 'progress' }]];
    for (const redact of configs)
      for (const value of values)
        expect(answer(() => createLineEncoder(redact).event(value as ProgressEvent))).toEqual({ line: undefined });
  });

  it('with an enumerable key added to Object.prototype (inherited keys are never written)', () => {
    const events: unknown[] = [
      { type: 'progress', percent: 1, runId: 'r', seq: 1, ts: 1_800_000_000_000 },
      { type: 'tool.executing', toolName: 't', toolCallId: 'c', args: { query: 'q', nested: { a: 1 } }, runId: 'r', seq: 2, ts: 1 },
    ];
    Object.defineProperty(Object.prototype, 'message', { value: 'polluted', enumerable: true, configurable: true, writable: true });
    try {
      for (const redact of configs) for (const value of events) expectSame(value, redact);
    } finally {
      delete (Object.prototype as { message?: unknown }).message;
    }
  });

  it('for the seven reporter shapes with any arguments', () => {
    const argArb = fc.oneof(textArb, numberArb, fc.anything(), fc.bigInt());
    fc.assert(
      fc.property(argArb, argArb, fc.constantFrom(...configs), (a, b, redact) => {
        const now = createLineEncoder(redact);
        const then = createLineEncoder1b3a309(redact);
        const calls = (e: typeof now): unknown[] => [
          answer(() => e.start(a as string)),
          answer(() => e.progress(a as number, b as string)),
          answer(() => e.toolStart(a as string)),
          answer(() => e.toolDone(a as string, b as string)),
          answer(() => e.iteration(a as number, b as number)),
          answer(() => e.complete(a as string)),
          answer(() => e.error(a as string)),
        ];
        expect(calls(now)).toEqual(calls(then));
      }),
      { numRuns: 1000 },
    );
  });
});
