// Property: whatever an MCP server answers and whatever arguments a model writes (hostile values:
// revoked proxies, throwing getters, huge and deeply nested data, control characters), the
// mapping settles quickly with a result or a typed McpError, never anything else.
import { HeadwayError } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapCallToolResult } from './map-result.js';
import { cleanMessage } from '@headway/protocol/internal';
import { SliceMapper } from './progress-slice.js';
import { argumentsSchema, compileArgumentsCheck, createSchemaValidator } from './tool-arguments.js';

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

const throwing = (): never => {
  throw new Error('getter');
};

function deep(depth: number): unknown {
  let value: unknown = { type: 'text', text: 'bottom' };
  for (let i = 0; i < depth; i++) value = { nested: value, content: [value] };
  return value;
}

/** Values no code should trust, each made fresh by its thunk. */
const hostile: fc.Arbitrary<() => unknown> = fc.oneof(
  fc.constant(() => revoked()),
  fc.constant(() => ({ content: revoked() })),
  fc.constant(() => ({ content: [revoked(), { type: 'text', text: 'ok' }] })),
  fc.constant(() => ({
    get content(): unknown {
      return throwing();
    },
  })),
  fc.constant(() => ({
    content: [
      {
        type: 'text',
        get text(): string {
          return throwing();
        },
      },
    ],
  })),
  fc.constant(() => ({ content: [], structuredContent: revoked() })),
  fc.constant(() => ({
    content: [],
    get isError(): boolean {
      return throwing();
    },
  })),
  fc.constant(() => ({ content: Array.from({ length: 200_000 }, () => ({ type: 'text', text: 'x' })) })),
  fc.constant(() => ({ content: [{ type: 'text', text: 'y'.repeat(3_000_000) }] })),
  fc.constant(() => deep(5_000)),
  fc.constant(() => ({ content: [{ type: 'image', data: 'AAAA', mimeType: '\u001b[31mred' }], isError: true })),
  fc.constant(() => 10n),
  fc.constant(() => Symbol('s')),
  fc.string({ maxLength: 50 }).map((s) => () => ({ content: [{ type: 'text', text: s }], structuredContent: { s } })),
  fc.jsonValue({ maxDepth: 4 }).map((v) => () => v),
  fc.jsonValue({ maxDepth: 3 }).map((v) => () => ({ content: [v], structuredContent: v, isError: v })),
);

const limits = { numRuns: 200, interruptAfterTimeLimit: 20_000, timeout: 2_000, markInterruptAsFailure: false };

describe('hostile MCP answers and arguments (property)', () => {
  it('mapCallToolResult returns text (with structuredContent) or throws a typed McpError', () => {
    fc.assert(
      fc.property(hostile, (make) => {
        let outcome: unknown;
        try {
          outcome = mapCallToolResult(make(), { server: 's', tool: 't' });
        } catch (error) {
          expect(HeadwayError.isInstance(error, 'MCP_INVALID_RESULT') || HeadwayError.isInstance(error, 'MCP_TOOL_ERROR')).toBe(true);
          expect((error as Error).message).toMatch(/^MCP server "s", tool "t"/u);
          return;
        }
        if (typeof outcome !== 'string') expect(Object.keys(outcome as object)).toEqual(['text', 'structuredContent']);
      }),
      limits,
    );
  });

  it('argument checks never throw: hostile arguments are invalid with a reason', () => {
    const check = compileArgumentsCheck(
      {
        type: 'object',
        properties: { path: { type: 'string' }, n: { type: 'integer', minimum: 0 } },
        required: ['path'],
      },
      createSchemaValidator(() => undefined),
    );
    const schema = argumentsSchema(check);
    fc.assert(
      fc.property(
        fc.oneof(
          hostile,
          fc.record({ path: fc.string(), n: fc.integer() }).map((v) => () => v),
        ),
        (make) => {
          const value = make();
          const issues = check(value);
          expect(Array.isArray(issues)).toBe(true);
          for (const issue of issues) expect(typeof issue).toBe('string');
          expect(schema.safeParse(value).success).toBe(issues.length === 0);
        },
      ),
      limits,
    );
  });

  it('mapped progress stays inside the slice and never goes back, whatever numbers the server sends', () => {
    const number = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -1, 0));
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.array(fc.tuple(number, fc.option(number, { nil: undefined }))),
        (a, b, notes) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const mapper = new SliceMapper({ lo, hi });
          let last = lo;
          for (const [progress, total] of notes) {
            const percent = mapper.map(progress, total);
            if (percent === undefined) continue;
            expect(percent).toBeGreaterThanOrEqual(last);
            expect(percent).toBeLessThanOrEqual(hi);
            last = percent;
          }
        },
      ),
      limits,
    );
  });

  it('server messages become one bounded line', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 2_000 }), (message) => {
        const line = cleanMessage(message);
        if (line === undefined) return;
        expect(line.length).toBeLessThanOrEqual(200);
        // eslint-disable-next-line no-control-regex -- asserting there are none
        expect(line).not.toMatch(/[\u0000-\u001F\u007F-\u009F]/u);
      }),
      limits,
    );
  });
});
