// Regression tests for hostile tools and providers: thrown values and return values the loop
// cannot trust, duplicate tool-call ids, and token counts that would let a cost cap fail open.
import type { ProgressReporter, ProgressEvent } from '@headway/protocol';
import { MACHINE_LOAD_FACTOR } from '@headway/protocol/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointStore } from '../checkpoint/memory-checkpoint-store.js';
import type { CompletionResponse, Provider } from '../provider/provider.js';
import { ScriptedProvider } from '../provider/scripted-provider.js';
import { defineTool, type Tool } from '../tools/define-tool.js';
import { AgentRuntime } from './agent-runtime.js';
import { collect, ids } from './test-helpers.test-util.js';
import fc from 'fast-check';

/** A time limit of this file, stretched on a busy machine as the hostile fuzzing limits are. */
const scaled = (ms: number): number => Math.round(ms * MACHINE_LOAD_FACTOR);

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function throwingToString(): () => void {
  const fn = (): void => undefined;
  Object.defineProperty(fn, 'toString', {
    value: () => {
      throw new Error('toString exploded');
    },
  });
  Object.defineProperty(fn, 'name', {
    get: () => {
      throw new Error('name exploded');
    },
  });
  return fn;
}

function lyingJson(): object {
  return {
    toJSON: () => undefined,
    toString: () => {
      throw new Error('toString exploded');
    },
  };
}

class TrickyError extends Error {
  override get message(): string {
    throw new Error('message getter exploded');
  }
}

const HOSTILE_THROWS: [string, () => unknown][] = [
  ['a revoked Proxy', revokedProxy],
  ['a function whose toString throws', throwingToString],
  ['an object whose toJSON returns undefined and toString throws', lyingJson],
  ['an Error subclass whose message getter throws', () => new TrickyError()],
];

/** Calls `tool` once, then answers. */
function oneCall(name: string): ScriptedProvider {
  return new ScriptedProvider((conversation) =>
    conversation.some((m) => m.role === 'tool') ? { content: 'done' } : { toolCalls: [{ id: 'c1', name, args: {} }] },
  );
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
});

/** Lets pending rejections surface before asserting there were none. */
async function settleMicrotasks(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

describe('a tool that throws a hostile value', () => {
  it.each(HOSTILE_THROWS)('throws %s: the model gets a tool error, the run completes, nothing leaks', async (_label, make) => {
    const tool = defineTool({
      name: 'boom',
      description: 'throws',
      parameters: z.object({}),
      execute: () => {
        throw make();
      },
    });
    const provider = oneCall('boom');
    const events = collect();
    const result = await new AgentRuntime(
      { provider: 'scripted' },
      { provider, tools: [tool], sinks: [events.sink], generateId: ids() },
    ).run('go');
    await settleMicrotasks();
    expect(result.status).toBe('completed');
    const toolMessage = provider.requests[1]?.messages.find((m) => m.role === 'tool');
    expect(toolMessage?.content).toMatch(/^Error: boom failed: /);
    expect(events.events.flatMap((e) => (e.type === 'tool.completed' ? [e.ok] : []))).toEqual([false]);
    expect(events.types().at(-1)).toBe('run.finished');
    expect(unhandled).toEqual([]);
  });

  it.each(HOSTILE_THROWS)('rejects with %s from an async tool: same', async (_label, make) => {
    const tool = defineTool({
      name: 'boom',
      description: 'rejects',
      parameters: z.object({}),
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      execute: () => Promise.reject(make()),
    });
    const result = await new AgentRuntime({ provider: 'scripted' }, { provider: oneCall('boom'), tools: [tool] }).run('go');
    await settleMicrotasks();
    expect(result.status).toBe('completed');
    expect(unhandled).toEqual([]);
  });
});

describe('a tool that returns a hostile value', () => {
  const returns: [string, () => unknown][] = [
    ['a revoked Proxy', revokedProxy],
    ['an object whose toJSON returns undefined and toString throws', lyingJson],
    [
      'an object whose getter throws',
      () => ({
        get x() {
          throw new Error('getter exploded');
        },
      }),
    ],
    [
      'a thenable whose then throws',
      () => ({
        then: () => {
          // eslint-disable-next-line @typescript-eslint/only-throw-error -- the hostile value is the point
          throw revokedProxy();
        },
      }),
    ],
    [
      'a thenable that calls back twice',
      () => ({
        then: (ok: (v: unknown) => void) => {
          ok('first');
          ok('second');
        },
      }),
    ],
  ];
  it.each(returns)('returns %s: the run goes on and completes', async (_label, make) => {
    const tool: Tool = defineTool({
      name: 'odd',
      description: 'returns oddities',
      parameters: z.object({}),
      execute: () => make() as string,
    });
    const events = collect();
    const result = await new AgentRuntime({ provider: 'scripted' }, { provider: oneCall('odd'), tools: [tool], sinks: [events.sink] }).run(
      'go',
    );
    await settleMicrotasks();
    expect(result.status).toBe('completed');
    expect(events.types().filter((t) => t.startsWith('run.'))).toEqual(['run.started', 'run.finished']);
    expect(unhandled).toEqual([]);
  });
});

describe('duplicate tool-call ids', () => {
  it('gives each call of a turn its own id and idempotency key; checkpoints stay valid', async () => {
    const provider = new ScriptedProvider((conversation) =>
      conversation.some((m) => m.role === 'tool')
        ? { content: 'paid twice, as asked' }
        : {
            toolCalls: [
              { id: 'dup', name: 'pay', args: { amount: 5 } },
              { id: 'dup', name: 'pay', args: { amount: 7 } },
            ],
          },
    );
    const seen = new Set<string>();
    const paid: number[] = [];
    const pay = defineTool({
      name: 'pay',
      description: 'Pays, once per idempotency key',
      parameters: z.object({ amount: z.number() }),
      execute: ({ amount }, ctx) => {
        if (seen.has(ctx.idempotencyKey)) return 'already paid';
        seen.add(ctx.idempotencyKey);
        paid.push(amount);
        return `paid ${amount}`;
      },
    });
    const internal: string[] = [];
    const store = new MemoryCheckpointStore();
    const events = collect();
    const result = await new AgentRuntime(
      { provider: 'scripted' },
      {
        provider,
        tools: [pay],
        checkpointStore: store,
        sinks: [events.sink],
        generateId: ids('run'),
        onInternalError: (error, { where }) => internal.push(`${where}: ${String(error)}`),
      },
    ).run('pay 5 and 7');
    expect(result.status).toBe('completed');
    expect(internal).toEqual([]);
    expect(paid).toEqual([5, 7]);
    const callIds = events.events.flatMap((e) => (e.type === 'tool.executing' ? [e.toolCallId] : []));
    expect(callIds).toEqual(['dup', 'dup-1.2']);
    const cp = store.load(store.list()[0]!.id)!;
    expect(cp.status).toBe('completed');
    expect((cp.messages as { role: string; toolCallId?: string }[]).flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : []))).toEqual([
      'dup',
      'dup-1.2',
    ]);
  });

  it('makes an id reused from an earlier round unique too, and fills in an empty one', async () => {
    let round = 0;
    const provider = new ScriptedProvider(() => {
      round += 1;
      return round <= 2
        ? {
            toolCalls: [
              { id: round === 1 ? 'call_0' : 'call_0', name: 'echo', args: {} },
              { id: '', name: 'echo', args: {} },
            ],
          }
        : { content: 'ok' };
    });
    const keys: string[] = [];
    const echo = defineTool({
      name: 'echo',
      description: 'echo',
      parameters: z.object({}),
      execute: (_a, ctx) => {
        keys.push(ctx.idempotencyKey);
        return 'ok';
      },
    });
    const result = await new AgentRuntime({ provider: 'scripted' }, { provider, tools: [echo], generateId: ids('run') }).run('go');
    expect(result.status).toBe('completed');
    expect(keys).toEqual(['run-1:call_0', 'run-1:call-1.2', 'run-1:call_0-2.1', 'run-1:call-2.2']);
  });
});

describe('usage that is not a non-negative integer', () => {
  const bad: [string, Partial<CompletionResponse['usage']>][] = [
    ['NaN', { inputTokens: Number.NaN, outputTokens: 10 }],
    ['negative', { inputTokens: -2_000_000, outputTokens: 10 }],
    ['fractional', { inputTokens: 2_000_000.5, outputTokens: 10 }],
    ['infinite', { inputTokens: 10, outputTokens: Number.POSITIVE_INFINITY }],
  ];
  it.each(bad)('%s token counts end the run as a provider error, never priced at zero', async (_label, usage) => {
    let calls = 0;
    const provider: Provider = {
      name: 'liar',
      complete: () => {
        calls += 1;
        return Promise.resolve({
          content: '',
          toolCalls: [{ id: `c${calls}`, name: 'noop', args: {} }],
          usage: usage as CompletionResponse['usage'],
          finishReason: 'tool_calls',
        });
      },
    };
    const noop = defineTool({ name: 'noop', description: 'noop', parameters: z.object({}), execute: () => 'ok' });
    const events = collect();
    const runtime = new AgentRuntime(
      { provider: 'liar', model: 'gpt-4o', maxIterations: 20, maxSpendUsd: 1 },
      { provider, tools: [noop], sinks: [events.sink] },
    );
    const result = await runtime.run('spend');
    expect(result.status).toBe('error');
    expect(calls).toBe(1);
    const error = events.events.find((e) => e.type === 'run.error');
    expect(error).toMatchObject({ type: 'run.error' });
    expect(error?.type === 'run.error' ? error.error : '').toMatch(/Provider "liar" answered with an invalid completion: usage\./);
  });

  it('honest counts are priced: twenty calls of 2M tokens stop at a $1 cap', async () => {
    const provider: Provider = {
      name: 'big',
      complete: () =>
        Promise.resolve({
          content: '',
          toolCalls: [{ id: 'c', name: 'noop', args: {} }],
          usage: { inputTokens: 2_000_000, outputTokens: 0 },
          finishReason: 'tool_calls',
        }),
    };
    const noop = defineTool({ name: 'noop', description: 'noop', parameters: z.object({}), execute: () => 'ok' });
    const runtime = new AgentRuntime({ provider: 'big', model: 'gpt-4o', maxIterations: 20, maxSpendUsd: 1 }, { provider, tools: [noop] });
    const result = await runtime.run('spend');
    expect(result.status).toBe('limit');
    expect(result.iterations).toBe(1);
    expect(runtime.cost().spentUsd).toBe(5);
  });
});

describe('a reporter that returns hostile values', () => {
  it('returns revoked proxies and throwing thenables from every method: the run completes, nothing leaks', async () => {
    const hostile = (): unknown => revokedProxy();
    const thenThrows = (): unknown => ({
      then: () => {
        throw new Error('then exploded');
      },
    });
    const reporter = {
      onStart: hostile,
      onProgress: thenThrows,
      onToolStart: hostile,
      onToolDone: thenThrows,
      onIteration: hostile,
      onComplete: thenThrows,
      onError: hostile,
    } as unknown as ProgressReporter;
    const internal: string[] = [];
    const tool = defineTool({ name: 'ok', description: 'ok', parameters: z.object({}), execute: () => 'fine' });
    const result = await new AgentRuntime(
      { provider: 'scripted' },
      { provider: oneCall('ok'), tools: [tool], progressReporter: reporter, onInternalError: (_e, { where }) => internal.push(where) },
    ).run('go');
    await settleMicrotasks();
    expect(result.status).toBe('completed');
    expect(unhandled).toEqual([]);
    expect(internal.length).toBeGreaterThan(0);
  });
});

// Property: whatever a tool throws or returns and whatever a provider answers (hostile values,
// lying thenables, odd usage, duplicate ids), run() settles with exactly one terminal event.
const throwing = (): never => {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- the hostile value is the point
  throw revokedProxy();
};

/** Values no code should trust: each is made fresh by its thunk (proxies are revoked when made). */
const hostile: fc.Arbitrary<() => unknown> = fc.oneof(
  fc.constant(() => revokedProxy()),
  fc.constant(() => ({ toJSON: () => undefined, toString: throwing })),
  fc.constant(() => ({
    get message(): string {
      return throwing();
    },
  })),
  fc.constant(() =>
    Object.assign(new Error('x'), {
      get name(): string {
        return throwing();
      },
    }),
  ),
  fc.constant(() => ({ then: throwing })),
  fc.constant(() => ({
    then: (ok: (v: unknown) => void) => {
      ok(revokedProxy());
      ok('again');
    },
  })),
  fc.constant(() => ({
    get then(): unknown {
      return throwing();
    },
  })),
  fc.constant(() => Symbol('s')),
  fc.constant(() => 10n),
  fc.string({ maxLength: 50 }).map((s) => () => s),
  fc.jsonValue({ maxDepth: 3 }).map((v) => () => v),
);

const tokens = fc.oneof(
  fc.nat({ max: 10_000 }),
  fc.constantFrom(Number.NaN, -1, 0.5, Number.POSITIVE_INFINITY, 2 ** 60),
  fc.constant(undefined),
);

const turn = fc.record({
  ids: fc.array(fc.constantFrom('a', 'a', 'b', ''), { minLength: 0, maxLength: 3 }),
  usage: fc.record({ inputTokens: tokens, outputTokens: tokens }),
  throwInstead: fc.boolean(),
  thrown: hostile,
});

const TERMINAL = new Set(['run.finished', 'run.error', 'run.cancelled']);

describe('hostile tools and providers (property)', () => {
  it(
    'run() settles with exactly one terminal event, last',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(turn, { minLength: 1, maxLength: 4 }),
          fc.array(fc.tuple(fc.boolean(), hostile), { minLength: 1, maxLength: 6 }),
          async (turns, outcomes) => {
            let call = 0;
            const provider: Provider = {
              name: 'hostile',
              complete: () => {
                const t = turns[call % turns.length]!;
                call += 1;
                if (t.throwInstead)
                  // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the hostile value is the point
                  return Promise.reject(t.thrown());
                return Promise.resolve({
                  content: 'x',
                  toolCalls: t.ids.map((id) => ({ id, name: 'tool', args: {} })),
                  usage: t.usage as { inputTokens: number; outputTokens: number },
                  finishReason: 'tool_calls' as const,
                });
              },
            };
            let n = 0;
            const tool = defineTool({
              name: 'tool',
              description: 'hostile',
              parameters: z.object({}),
              execute: () => {
                const [throws, value] = outcomes[n % outcomes.length]!;
                n += 1;
                if (throws) throw value();
                return value() as string;
              },
            });
            const events: ProgressEvent[] = [];
            const result = await new AgentRuntime(
              { provider: 'hostile', model: 'gpt-4o', maxIterations: 5, maxSpendUsd: 1 },
              {
                provider,
                tools: [tool],
                sinks: [
                  (e) => {
                    events.push(e);
                  },
                ],
                retry: { maxRetries: 0 },
              },
            ).run('go');
            const terminal = events.filter((e) => TERMINAL.has(e.type));
            expect(terminal).toHaveLength(1);
            expect(events.at(-1)).toBe(terminal[0]);
            expect(['completed', 'limit', 'error']).toContain(result.status);
          },
        ),
        { numRuns: 150, interruptAfterTimeLimit: scaled(20_000), timeout: scaled(2_000), markInterruptAsFailure: false },
      );
    },
    scaled(30_000),
  );
});
