import { HeadwayError } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRunAgentInput, reattachOf } from './run-input.js';

const REVOKED = Symbol('revoked proxy');

function materialize(value: unknown): unknown {
  if (value !== REVOKED) return value;
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function hostile(): fc.Arbitrary<unknown> {
  const throwing = fc.constant(null).map(() =>
    Object.defineProperty({}, 'threadId', {
      enumerable: true,
      get() {
        throw new Error('getter says no');
      },
    }),
  );
  // fast-check itself cannot hold a revoked proxy: it is built inside the property.
  const revoked = fc.constant(REVOKED);
  const deep = fc.integer({ min: 1, max: 5000 }).map((depth) => {
    let value: unknown = 'x';
    for (let i = 0; i < depth; i++) value = { messages: [value] };
    return value;
  });
  const controlText = fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), maxLength: 200 });
  const almost = fc.record({
    threadId: fc.oneof(fc.string(), controlText, fc.integer()),
    runId: fc.oneof(fc.string(), fc.constant(undefined)),
    messages: fc.oneof(fc.constant([]), fc.array(fc.anything(), { maxLength: 3 })),
    forwardedProps: fc.oneof(
      fc.anything(),
      fc.constant({ headway: { reattach: { lastSeq: -1 } } }),
      throwing.map((t) => ({ headway: t })),
    ),
  });
  const deepState = fc.integer({ min: 1, max: 100_000 }).map((depth) => {
    let value: unknown = 'x';
    for (let i = 0; i < depth; i++) value = { a: value };
    return { threadId: 't', runId: 'r', messages: [], state: value };
  });
  return fc.oneof(fc.anything(), throwing, revoked, deep, deepState, almost, fc.string({ maxLength: 100_000 }));
}

describe('parseRunAgentInput', () => {
  it('accepts what HttpAgent sends and fills the defaults', () => {
    const input = parseRunAgentInput({ threadId: 't', runId: 'r', messages: [{ id: 'u', role: 'user', content: 'hi' }] });
    expect(input).toMatchObject({ threadId: 't', runId: 'r', tools: [], context: [] });
    expect(reattachOf(input)).toBeUndefined();
  });

  it('reads a reattach request from forwardedProps.headway.reattach', () => {
    const input = parseRunAgentInput({
      threadId: 't',
      runId: 'r',
      messages: [],
      forwardedProps: { headway: { reattach: { lastSeq: 4 } } },
    });
    expect(reattachOf(input)).toEqual({ runId: 'r', lastSeq: 4 });
  });

  it('refuses a body nested deeper than 100 levels, naming where; what it accepts can be written back as JSON', () => {
    const nested = (depth: number): unknown => {
      let value: unknown = 1;
      for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { k: value } : [value];
      return value;
    };
    // The body itself is level 1, the value of `state` level 2: 99 levels fit there.
    const fits = parseRunAgentInput({ threadId: 't', runId: 'r', messages: [], state: nested(99) });
    expect(JSON.parse(JSON.stringify(fits))).toEqual(fits);
    for (const depth of [100, 5_000, 100_000]) {
      let thrown: unknown;
      try {
        parseRunAgentInput({ threadId: 't', runId: 'r', messages: [], state: nested(depth) });
      } catch (error) {
        thrown = error;
      }
      expect(HeadwayError.isInstance(thrown, 'AG_UI_INVALID_INPUT')).toBe(true);
      expect((thrown as HeadwayError).issues).toEqual([{ path: 'state[0].k[0].k[0].k[0]', message: 'nested deeper than 100 levels' }]);
    }
  });

  it('fuzz: hostile input returns an input or throws AG_UI_INVALID_INPUT naming where, never anything else', () => {
    fc.assert(
      fc.property(hostile(), (value) => {
        try {
          const input = parseRunAgentInput(materialize(value));
          reattachOf(input);
          // Whatever is accepted is echoed in RUN_STARTED: it must be writable.
          JSON.stringify(input);
        } catch (error) {
          expect(HeadwayError.isInstance(error, 'AG_UI_INVALID_INPUT')).toBe(true);
          expect((error as HeadwayError).issues.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 400, interruptAfterTimeLimit: 20_000, timeout: 1000 },
    );
  });
});
