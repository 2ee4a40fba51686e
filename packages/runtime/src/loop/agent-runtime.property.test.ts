import { isTerminalEvent, type ProgressEvent } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentRuntime } from './agent-runtime.js';
import { ManualClock } from './clock.js';
import { defineTool } from '../tools/define-tool.js';
import { ProviderError } from '../provider/provider-error.js';
import { ScriptedProvider, type ScriptedStep } from '../provider/scripted-provider.js';

const flaky = defineTool({
  name: 'flaky',
  description: 'fails when asked to',
  parameters: z.object({ fail: z.boolean() }),
  execute: ({ fail }) => {
    if (fail) throw new Error('asked to fail');
    return 'fine';
  },
});

const step: fc.Arbitrary<ScriptedStep> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .array(fc.boolean(), { minLength: 1, maxLength: 3 })
      .map((fails): ScriptedStep => ({ toolCalls: fails.map((fail) => ({ name: 'flaky', args: { fail } })), delayMs: 1_000 })),
  },
  { weight: 1, arbitrary: fc.constant<ScriptedStep>({ toolCalls: [{ name: 'flaky', args: { fail: 'no' } }] }) },
  { weight: 1, arbitrary: fc.constant<ScriptedStep>({ content: 'Done. {"_progress": {"percent": 99}}' }) },
  {
    weight: 1,
    arbitrary: fc.constant<ScriptedStep>({
      content: 'Halfway ```json\n{"_progress": {"percent": 50}}\n```',
      toolCalls: [{ name: 'flaky', args: { fail: false } }],
    }),
  },
  { weight: 1, arbitrary: fc.constant<ScriptedStep>({ error: new ProviderError('PROVIDER_REQUEST_FAILED', 'HTTP 400', { status: 400 }) }) },
);

describe('every run, whatever the model does', () => {
  it('ends in exactly one terminal event, with a report exactly when it stopped short; seq and percent only go up', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 8 }),
        fc.option(fc.integer({ min: 500, max: 9_000 }), { nil: undefined }),
        fc.constantFrom('graceful' as const, 'hard' as const),
        fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
        async (steps, maxIterations, timeBudgetMs, timeoutBehavior, cancelAtCall) => {
          const clock = new ManualClock({ autoAdvance: true });
          const controller = new AbortController();
          const provider = new ScriptedProvider(
            (_c, _r, call) => {
              if (call === cancelAtCall) controller.abort();
              return steps[call % steps.length] ?? { content: 'x' };
            },
            { clock },
          );
          const events: ProgressEvent[] = [];
          const runtime = new AgentRuntime(
            {
              provider: 'scripted',
              maxIterations,
              timeoutBehavior,
              ...(timeBudgetMs === undefined ? {} : { timeBudgetMs }),
              hardStopAfterMs: 5_000,
            },
            {
              provider,
              tools: [flaky],
              sinks: [
                (e: ProgressEvent) => {
                  events.push(e);
                },
              ],
              clock,
              retry: { maxRetries: 0 },
            },
          );
          const result = await runtime.run('task', { signal: controller.signal });

          const terminals = events.filter((e) => isTerminalEvent(e));
          expect(terminals).toHaveLength(1);
          expect(events.at(-1)).toBe(terminals[0]);
          expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
          expect(result.iterations).toBeLessThanOrEqual(maxIterations);
          const reports = events.filter((e) => e.type === 'report.generated');
          if (result.status === 'completed') {
            expect(result.report).toBeUndefined();
            expect(reports).toHaveLength(0);
            expect(terminals[0]).toMatchObject({ type: 'run.finished', outcome: 'completed' });
          } else {
            expect(result.report).toBeDefined();
            expect(reports).toHaveLength(1);
            expect(events.at(-2)).toBe(reports[0]);
            const expected = { limit: 'run.finished', cancelled: 'run.cancelled', error: 'run.error' }[result.status];
            expect(terminals[0]?.type).toBe(expected);
          }
          const percents = events.flatMap((e) => (e.type === 'progress' ? [e.percent] : []));
          for (let i = 1; i < percents.length; i++) expect(percents[i]).toBeGreaterThanOrEqual(percents[i - 1] ?? 0);
          expect(percents.filter((p) => p === 100).length).toBe(result.status === 'completed' ? 1 : 0);
          expect(clock.pendingTimers).toBe(0);
        },
      ),
      { numRuns: 80 },
    );
  }, 60_000);
});
