import { HeadwayError } from '@headway/protocol';
import { progressEventArbitraries } from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeStreamEntry, encodeEvent } from './stream-entry.js';

const { event: eventArb } = progressEventArbitraries();

/** Fails a case that takes longer than this: a guard against super-linear decoding, generous for a busy machine. */
// Generous: a hang or super-linear case blows far past it; a busy machine (load 40 on two cores) does not.
const CASE_LIMIT_MS = 10_000;

function timed<T>(run: () => T): T {
  const start = performance.now();
  const result = run();
  const took = performance.now() - start;
  if (took > CASE_LIMIT_MS) throw new Error(`one case took ${took.toFixed(0)} ms (limit ${CASE_LIMIT_MS} ms)`);
  return result;
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

const throwingGetter = Object.defineProperty(['', ''], 0, {
  get() {
    throw new Error('getter');
  },
});

const deep = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

// Values fast-check itself cannot inspect are made inside the property, from a wrapper.
interface Made {
  make: () => unknown;
}
const unreadable = fc.constantFrom<Made>(
  { make: revokedProxy },
  { make: () => throwingGetter },
  { make: () => [throwingGetter, []] },
  { make: () => ['1-0', throwingGetter] },
  { make: () => ['1-0', revokedProxy()] },
  { make: () => ['1-0', ['e', revokedProxy()]] },
);

const hostile = fc.oneof(
  fc.anything(),
  unreadable,
  fc.tuple(fc.string(), fc.array(fc.string(), { maxLength: 6 })),
  fc.tuple(
    fc.constantFrom('1-0', '7-0', '0-1', '99999999999999999999-0', '1-1'),
    fc.tuple(fc.constant('e'), fc.oneof(fc.string(), fc.json())),
  ),
  fc.tuple(
    fc.constant('1-0'),
    fc.tuple(
      fc.constant('e'),
      fc.constantFrom(
        deep(100_000),
        '"'.repeat(200_000),
        `{"type":"progress","percent":1,"runId":"r","seq":1,"ts":1,"message":"${'\u0000\u001b\u2028'.repeat(10_000)}"}`,
      ),
    ),
  ),
  eventArb.map((e) => ['1-0', ['e', JSON.stringify({ ...e, seq: 1, runId: 'someone-else' })]]),
  eventArb.map((e) => ['1-0', ['e', encodeEvent({ ...e, runId: 'r', seq: 1 }).slice(0, -3)]]),
);

describe('decodeStreamEntry', () => {
  it('gives back every event a sink writes, unchanged', () => {
    fc.assert(
      fc.property(eventArb, (generated) => {
        const event = { ...generated, runId: 'r', seq: generated.seq };
        const decoded = timed(() => decodeStreamEntry('r', [`${event.seq}-0`, ['e', encodeEvent(event)]]));
        expect(decoded).toEqual({ ok: true, id: `${event.seq}-0`, event: JSON.parse(encodeEvent(event)) as unknown });
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on hostile entries: each is refused with REDIS_INVALID_ENTRY naming the run', () => {
    fc.assert(
      fc.property(hostile, (generated) => {
        const entry = typeof generated === 'object' && generated !== null && 'make' in generated ? (generated as Made).make() : generated;
        const decoded = timed(() => decodeStreamEntry('r', entry));
        if (!decoded.ok) {
          expect(HeadwayError.isInstance(decoded.error, 'REDIS_INVALID_ENTRY')).toBe(true);
          expect(decoded.error.message).toContain('run "r"');
        } else {
          // Only a well-formed entry of run "r" whose seq matches its id passes.
          expect(decoded.event.runId).toBe('r');
          expect(`${decoded.event.seq}-0`).toBe(decoded.id);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('says why an entry is refused', () => {
    const reason = (entry: unknown): string => {
      const decoded = decodeStreamEntry('r', entry, 100);
      return decoded.ok ? 'ok' : decoded.error.message;
    };
    expect(reason('x')).toBe('Skipped an entry of run "r": not an [id, fields] pair');
    expect(reason(['1700000000000-3', ['e', '{}']])).toContain('is not "<seq>-0"');
    expect(reason(['1-0', ['data', '{}']])).toContain('does not have exactly one field "e"');
    expect(reason(['1-0', ['e', '{"type":']])).toContain('not JSON (a partial write?)');
    expect(reason(['1-0', ['e', 'x'.repeat(101)]])).toContain('longer than 100 characters');
    expect(reason(['1-0', ['e', '{"type":"progress","percent":"x","runId":"r","seq":1,"ts":1}']])).toContain('percent');
    expect(reason(['2-0', ['e', '{"type":"progress","percent":1,"runId":"r","seq":1,"ts":1}']])).toContain('seq 1 does not match its id');
    expect(reason(['1-0', ['e', revokedProxy()]])).toContain('could not be read');
    expect(reason(['1-0', ['e', 42]])).toContain('its value is not text');
    expect(reason(['1-0', throwingGetter])).toContain('could not be read');
  });
});
