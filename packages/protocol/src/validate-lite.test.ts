import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { progressEventSchema } from './events.js';
import { progressEventArbitraries } from './testing.js';
import { checkProgressEventLite, parseProgressEventJsonLite } from './validate-lite.js';

const { event } = progressEventArbitraries();

/** Values a field may be replaced with: wrong kinds, edge numbers, empty strings, undefined. */
const odd = fc.constantFrom<unknown>(
  undefined,
  null,
  '',
  'x',
  -1,
  0,
  0.5,
  1,
  100,
  101,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  [],
  ['a', 1],
  {},
  { nested: 1 },
);

/** An event with one field (at any depth) replaced, removed or added. */
const mutated = fc.tuple(event, fc.nat(), odd, fc.constantFrom('replace', 'delete', 'add')).map(([e, pick, value, how]) => {
  const copy = structuredClone(e) as unknown as Record<string, unknown>;
  const targets: [Record<string, unknown>, string][] = [];
  const walk = (o: Record<string, unknown>): void => {
    for (const k of Object.keys(o)) {
      targets.push([o, k]);
      const v = o[k];
      if (typeof v === 'object' && v !== null && !Array.isArray(v) && k !== 'args') walk(v as Record<string, unknown>);
    }
  };
  walk(copy);
  const [obj, key] = targets[pick % targets.length] ?? [copy, 'type'];
  if (how === 'delete') Reflect.deleteProperty(obj, key);
  else if (how === 'add') obj[`extra${pick % 3}`] = value;
  else obj[key] = value;
  return copy;
});

/** The lite check and the full zod schema give the same verdict and the same value. */
function agree(input: unknown): void {
  const full = progressEventSchema.safeParse(input);
  const lite = checkProgressEventLite(input);
  expect(lite.success).toBe(full.success);
  if (full.success && lite.success) expect(lite.data).toEqual(full.data);
}

describe('checkProgressEventLite agrees with progressEventSchema', () => {
  it('accepts every generated event with the same value', () => {
    fc.assert(
      fc.property(event, (e) => {
        agree(e);
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same verdict on events with one field replaced, removed or added', () => {
    fc.assert(
      fc.property(mutated, (e) => {
        agree(e);
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the same verdict on arbitrary JSON and on unknown types', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        agree(v);
      }),
      { numRuns: 300 },
    );
    agree({ type: 'run.paused', runId: 'r', seq: 1, ts: 0 });
    agree({ type: 'toString', runId: 'r', seq: 1, ts: 0 });
  });

  it('fails, never throws, on a revoked proxy or a throwing getter', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(checkProgressEventLite(proxy)).toEqual({ success: false, issues: [{ path: '', message: 'input could not be read' }] });
    const getter = Object.defineProperty({ type: 'thinking', runId: 'r', seq: 1, ts: 0 }, 'content', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(checkProgressEventLite(getter).success).toBe(false);
  });
});

describe('parseProgressEventJsonLite', () => {
  it('parses an event and names the path of a bad field', () => {
    expect(parseProgressEventJsonLite('{"type":"progress","runId":"r","seq":1,"ts":0,"percent":50,"x":1}')).toEqual({
      type: 'progress',
      runId: 'r',
      seq: 1,
      ts: 0,
      percent: 50,
    });
    expect(() => parseProgressEventJsonLite('{"type":"progress","runId":"r","seq":1,"ts":0,"percent":150}')).toThrow(
      'Invalid progress event (type "progress"): percent: expected a number <= 100',
    );
    expect(() => parseProgressEventJsonLite('{')).toThrow(expect.objectContaining({ code: 'PROTOCOL_INVALID_EVENT' }) as Error);
    expect(() => parseProgressEventJsonLite('"x"'.padEnd(20), { maxLength: 10 })).toThrow(
      expect.objectContaining({ code: 'PROTOCOL_INPUT_TOO_LARGE' }) as Error,
    );
  });
});
