import {
  createRedactor,
  parseProgressEvent,
  progressEventJsonSchema,
  safeStringify,
  type ProgressEvent,
  type RedactOptions,
} from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventArb, textArb, wildEventArb } from './arbitraries.test-util.js';
import { FAST_EVENT_KEYS, createLineEncoder } from './line-encoder.js';

/**
 * What every line must equal: JSON.stringify of the redacted value (safeStringify where JSON
 * cannot); no line (`undefined`) when that is no JSON object.
 */
function reference(value: unknown, redact: RedactOptions | false): string | undefined {
  const redacted = redact === false ? value : createRedactor(redact)(value);
  let line: string | undefined;
  try {
    line = JSON.stringify(redacted);
  } catch {
    line = safeStringify(redacted);
  }
  return line?.startsWith('{') === true ? line : undefined;
}

const configs: (RedactOptions | false)[] = [{}, false, { censor: '***' }, { secretKeys: false }, { paths: ['args.query', 'report.task'] }];
const configArb = fc.constantFrom(...configs);

/** Anything an untyped caller might pass instead of a string or a number. */
const argArb: fc.Arbitrary<unknown> = fc.oneof(
  textArb,
  fc.double(),
  fc.integer(),
  fc.constantFrom(undefined, null, true, Number.NaN, -0, Infinity),
  fc.bigInt(),
  fc.jsonValue(),
  fc.anything(),
);

/** Every top-level key of every event type, read from the protocol's JSON Schema. */
function schemaEventKeys(): string[] {
  const keys = new Set<string>();
  const walk = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const o = node as Record<string, unknown>;
    for (const k of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(o[k])) (o[k] as unknown[]).forEach(walk);
    if (typeof o.properties === 'object' && o.properties !== null) for (const k of Object.keys(o.properties)) keys.add(k);
  };
  walk(progressEventJsonSchema());
  return [...keys].sort();
}

describe('the fast path knows every event key', () => {
  // A key the fast path does not know sends every event that carries it down the slow,
  // redact-everything path: correct, but several times the cost (progress events with an
  // ETA range, steps with a model and usage did, through the AI SDK bridge).
  it('lists every top-level key of the protocol schema', () => {
    expect(schemaEventKeys().filter((k) => !FAST_EVENT_KEYS.has(k))).toEqual([]);
  });
  it('lists no key the redactor treats as a secret name', () => {
    const redact = createRedactor({});
    const record = Object.fromEntries([...FAST_EVENT_KEYS].map((k) => [k, 'plain value']));
    expect(redact(record)).toEqual(record);
  });
});

describe('createLineEncoder', () => {
  it('writes the seven reporter shapes exactly, values unchanged', () => {
    const e = createLineEncoder({});
    expect([
      e.start('Summarize the README file'),
      e.progress(45, 'Analyzing input'),
      e.toolStart('file_read'),
      e.toolDone('file_read', 'ok'),
      e.iteration(0, 10),
      e.progress(12.5, ''),
      e.complete('finished after 2 iteration(s)'),
      e.error('Provider timeout'),
    ]).toMatchInlineSnapshot(`
      [
        "{"event":"start","task":"Summarize the README file"}",
        "{"event":"progress","pct":45,"label":"Analyzing input"}",
        "{"event":"tool_start","tool":"file_read"}",
        "{"event":"tool_done","tool":"file_read","summary":"ok"}",
        "{"event":"iteration","current":0,"max":10}",
        "{"event":"progress","pct":12.5,"label":""}",
        "{"event":"complete","summary":"finished after 2 iteration(s)"}",
        "{"event":"error","error":"Provider timeout"}",
      ]
    `);
  });

  it('escapes text so a line never breaks, and redacts secrets in it', () => {
    const e = createLineEncoder({});
    expect(e.error('line one\nline two "quoted" \u2028')).toBe('{"event":"error","error":"line one\\nline two \\"quoted\\" \u2028"}');
    expect(e.toolDone('http', 'GET https://x with Bearer abcdefghijklmnop1234')).toBe(
      '{"event":"tool_done","tool":"http","summary":"GET https://x with Bearer [REDACTED]"}',
    );
    expect(createLineEncoder(false).toolStart('sk-abcdefghijklmnopqrstuvwx')).toBe(
      '{"event":"tool_start","tool":"sk-abcdefghijklmnopqrstuvwx"}',
    );
  });

  it('applies configured key paths, also to the reporter shapes', () => {
    const e = createLineEncoder({ paths: ['task', 'args.query'] });
    expect(e.start('private task')).toBe('{"event":"start","task":"[REDACTED]"}');
    const event: ProgressEvent = { type: 'tool.executing', toolName: 'search', args: { query: 'q', n: 1 }, runId: 'r', seq: 1, ts: 2 };
    expect(e.event(event)).toBe(
      '{"type":"tool.executing","toolName":"search","args":{"query":"[REDACTED]","n":1},"runId":"r","seq":1,"ts":2}',
    );
  });

  it('writes every reporter call exactly as JSON.stringify of the redacted object would', () => {
    fc.assert(
      fc.property(configArb, argArb, argArb, (config, a, b) => {
        const e = createLineEncoder(config);
        // Untyped callers can pass anything; the casts say so.
        const s = a as string;
        const n = a as number;
        expect(e.start(s)).toBe(reference({ event: 'start', task: a }, config));
        expect(e.progress(n, b as string)).toBe(reference({ event: 'progress', pct: a, label: b }, config));
        expect(e.toolStart(s)).toBe(reference({ event: 'tool_start', tool: a }, config));
        expect(e.toolDone(s, b as string)).toBe(reference({ event: 'tool_done', tool: a, summary: b }, config));
        expect(e.iteration(n, b as number)).toBe(reference({ event: 'iteration', current: a, max: b }, config));
        expect(e.complete(s)).toBe(reference({ event: 'complete', summary: a }, config));
        expect(e.error(s)).toBe(reference({ event: 'error', error: a }, config));
      }),
      { numRuns: 800 },
    );
  });

  it('writes every event exactly as JSON.stringify of the redacted event would', () => {
    fc.assert(
      fc.property(configArb, fc.oneof(eventArb, wildEventArb), (config, event) => {
        expect(createLineEncoder(config).event(event)).toBe(reference(event, config));
      }),
      { numRuns: 1000 },
    );
  });

  it('matches the reference for events with unexpected keys and values too', () => {
    const base = { type: 'thinking', content: 'hm', runId: 'r', seq: 1, ts: 0 };
    const sparse: unknown[] = [1];
    sparse[2] = undefined;
    sparse[3] = () => 2;
    const odd: unknown[] = [
      { ...base, extra: { password: 'hunter2' } },
      { ...base, token: 'abc' },
      { ...base, content: 10n },
      { ...base, content: undefined, args: () => 1, ok: Symbol('x') },
      { ...base, args: { nested: 5n, when: new Date(0), err: new Error('sk-abcdefghijklmnopqrstuvwxyz') } },
      { ...base, ts: Number.NaN, seq: Infinity },
      Object.assign(Object.create({ inherited: 'yes' }) as object, base),
      { ...base, args: { toJSON: () => 'custom', apiKey: null, token: undefined, password: () => 1 } },
      { ...base, args: JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as unknown },
      { ...base, args: { when: new Date(0), map: new Map([['apiKey', 'x']]), list: sparse } },
      {
        ...base,
        args: (() => {
          const a: Record<string, unknown> = { name: 'loop' };
          a.self = { a };
          return a;
        })(),
      },
      {
        ...base,
        args: new (class Point {
          x = 1;
          y = 2;
        })(),
      },
      {
        ...base,
        args: Object.defineProperty({}, 'boom', {
          enumerable: true,
          get: () => {
            throw new Error('getter');
          },
        }),
      },
      { ...base, args: Array.from({ length: 100 }).reduce<unknown>((inner) => ({ inner }), 'deep') },
    ];
    for (const config of configs) {
      for (const event of odd) expect(createLineEncoder(config).event(event as ProgressEvent)).toBe(reference(event, config));
    }
  });

  it('writes any nested args exactly as JSON.stringify of the redacted args would', () => {
    const anything = fc.anything({
      key: fc.oneof(fc.string(), fc.constantFrom('apiKey', 'password', 'Authorization', 'token', 'toJSON', '__proto__', 'query')),
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
      stringUnit: 'binary',
    });
    fc.assert(
      fc.property(configArb, anything, (config, args) => {
        const event = { type: 'tool.executing', toolName: 't', args, runId: 'r', seq: 1, ts: 0 } as ProgressEvent;
        expect(createLineEncoder(config).event(event)).toBe(reference(event, config));
      }),
      { numRuns: 1000 },
    );
  });

  it('writes events that parseProgressEvent reads back unchanged', () => {
    fc.assert(
      fc.property(eventArb, (event) => {
        const line = createLineEncoder(false).event(event) ?? '';
        expect(parseProgressEvent(JSON.parse(line))).toEqual(JSON.parse(JSON.stringify(event)));
      }),
      { numRuns: 1000 },
    );
  });

  it('writes redacted events that still parse, with their envelope intact', () => {
    fc.assert(
      fc.property(wildEventArb, (event) => {
        const parsed = parseProgressEvent(JSON.parse(createLineEncoder({}).event(event) ?? ''));
        expect([parsed.type, parsed.seq, parsed.ts]).toEqual([event.type, event.seq, event.ts]);
      }),
      { numRuns: 1000 },
    );
  });
});
