// Property: whatever a tool throws or returns and whatever a provider answers (hostile values,
// lying thenables, odd usage, duplicate ids), run() settles with exactly one terminal event.
import type { ProgressEvent } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Provider } from '../provider/provider.js';
import { defineTool } from '../tools/define-tool.js';
import { AgentRuntime } from './agent-runtime.js';

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

const throwing = (): never => {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- the hostile value is the point
  throw revoked();
};

/** Values no code should trust: each is made fresh by its thunk (proxies are revoked when made). */
const hostile: fc.Arbitrary<() => unknown> = fc.oneof(
  fc.constant(() => revoked()),
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
      ok(revoked());
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
  it('run() settles with exactly one terminal event, last', async () => {
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
      { numRuns: 150, interruptAfterTimeLimit: 20_000, timeout: 2_000, markInterruptAsFailure: false },
    );
  }, 30_000);
});
