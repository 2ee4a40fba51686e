import { HeadwayError, type ProgressEvent } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointStore } from '../checkpoint/memory-checkpoint-store.js';
import { runStateFromCheckpoint } from '../checkpoint/run-state-codec.js';
import { checkpointStateSchema } from '../checkpoint/checkpoint.js';
import { AgentRuntime } from '../loop/agent-runtime.js';
import { ManualClock } from '../loop/clock.js';
import { collect, ids } from '../loop/test-helpers.test-util.js';
import { ProviderRegistry } from '../provider/provider-registry.js';
import { ScriptedProvider, type ScriptedStep } from '../provider/scripted-provider.js';
import { defineTool } from '../tools/define-tool.js';
import { recordModelCost, unpricedCallsOf, type ModelCost } from './model-cost.js';

// $1 per 1,000 input tokens, $0 output: each priced call below costs exactly $1.
const prices = { 'test-model': { inputPerMillion: 1_000, outputPerMillion: 0 } };
const round = (n: number): ScriptedStep => ({
  toolCalls: [{ name: 'switch', args: { to: 'mystery', n } }],
  usage: { inputTokens: 1_000, outputTokens: 50 },
});

/**
 * A run on two providers: `test-model` (priced) answers the first iteration, a tool switches the
 * runtime to `mystery` (no price), which answers the rest.
 */
function twoModelRuntime(options: { maxSpendUsd?: number; errors?: unknown[]; events?: ProgressEvent[]; store?: MemoryCheckpointStore }) {
  const script = (): ScriptedStep => round(1);
  const registry = new ProviderRegistry([
    new ScriptedProvider(() => round(0), { name: 'test-model' }),
    new ScriptedProvider((_, __, call) => (call < 2 ? script() : { content: 'done', usage: { inputTokens: 10, outputTokens: 5 } }), {
      name: 'mystery',
    }),
  ]);
  const runtime: AgentRuntime = new AgentRuntime(
    { provider: 'test-model', maxIterations: 10, ...(options.maxSpendUsd === undefined ? {} : { maxSpendUsd: options.maxSpendUsd }) },
    {
      providers: registry,
      prices,
      tools: [
        defineTool({
          name: 'switch',
          description: 'switches the model',
          parameters: z.object({ to: z.string(), n: z.number() }),
          execute: ({ to }) => {
            runtime.switchProvider(to);
            return `now on ${to}`;
          },
        }),
      ],
      generateId: ids(),
      clock: new ManualClock(),
      sinks: [(event: ProgressEvent) => void options.events?.push(event)],
      ...(options.store === undefined ? {} : { checkpointStore: options.store }),
      onInternalError: (error) => void options.errors?.push(error),
    },
  );
  return runtime;
}

describe('cost by model', () => {
  it('keeps calls, tokens and money per model in the checkpoint; an unpriced model is unknown, never $0', async () => {
    const store = new MemoryCheckpointStore();
    const events: ProgressEvent[] = [];
    const result = await twoModelRuntime({ store, events }).run('two models');
    expect([result.status, result.iterations]).toEqual(['completed', 4]);
    const cp = store.load(store.list()[0]!.id)!;
    expect(cp.state.costByModel).toEqual([
      { model: 'test-model', calls: 1, inputTokens: 1_000, outputTokens: 50, spentUsd: 1, unpricedCalls: 0 },
      { model: 'mystery', calls: 3, inputTokens: 2_010, outputTokens: 105, spentUsd: 0, unpricedCalls: 3 },
    ]);
    // The run's total is its priced calls; the unpriced ones carry no cost on their step.
    expect(cp.state.spentUsd).toBe(1);
    const costs = events.flatMap((e) => (e.type === 'step.finished' ? [e.costUsd] : []));
    expect(costs).toEqual([1, undefined, undefined, undefined]);
  });

  it('a cost limit still stops on priced spend, and says once that the unpriced model is not counted', async () => {
    const errors: unknown[] = [];
    const events = collect();
    const runtime = twoModelRuntime({ maxSpendUsd: 5, errors, events: events.events });
    const result = await runtime.run('two models');
    expect(result.status).toBe('completed');
    const told = errors.filter((e) => HeadwayError.isInstance(e, 'COST_UNPRICED_MODEL'));
    expect(told.map((e) => (e as Error).message)).toEqual([
      "mystery has no price: its calls are not counted against the cost limit of $5 (what they cost is unknown); give it a price in the runtime's prices",
    ]);
    expect(runtime.cost(result.sessionId)).toMatchObject({ spentUsd: 1, calls: 4, unpricedCalls: 3 });
    // No budget: nothing to say.
    const quiet: unknown[] = [];
    await twoModelRuntime({ errors: quiet }).run('two models');
    expect(quiet).toEqual([]);
  });

  it('is carried through a resume, and an old checkpoint without it still loads', async () => {
    const store = new MemoryCheckpointStore();
    await twoModelRuntime({ store }).run('two models');
    const cp = store.load(store.list()[0]!.id)!;
    const state = runStateFromCheckpoint({ ...cp, toolCalls: [] });
    expect(state.costByModel).toEqual(cp.state.costByModel);
    expect(state.costByModel).not.toBe(cp.state.costByModel);
    const { costByModel: _dropped, ...old } = cp.state;
    expect(checkpointStateSchema.safeParse(old).success).toBe(true);
    expect(runStateFromCheckpoint({ ...cp, state: old, toolCalls: [] }).costByModel).toBeUndefined();
    const bad = checkpointStateSchema.safeParse({ ...cp.state, costByModel: [{ model: 'x', calls: -1 }] });
    expect(bad.success).toBe(false);
  });

  it('goes on adding up after a crash and a resume, from the checkpoint', async () => {
    const store = new MemoryCheckpointStore();
    const script = (conversation: readonly { role: string }[]): ScriptedStep => {
      const rounds = conversation.filter((m) => m.role === 'assistant').length;
      return rounds < 2
        ? { toolCalls: [{ name: 'work', args: { n: rounds + 1 } }], usage: { inputTokens: 1_000, outputTokens: 10 } }
        : { content: 'done', usage: { inputTokens: 2_000, outputTokens: 20 } };
    };
    const worker = (hangOn: number | undefined, prefix: string): AgentRuntime =>
      new AgentRuntime(
        { provider: 'scripted', model: 'test-model', maxIterations: 10 },
        {
          provider: new ScriptedProvider(script),
          prices,
          checkpointStore: store,
          generateId: ids(prefix),
          clock: new ManualClock(),
          tools: [
            defineTool({
              name: 'work',
              description: 'one part of the work',
              parameters: z.object({ n: z.number() }),
              execute: ({ n }) => (n === hangOn ? new Promise<string>(() => undefined) : `part ${String(n)} done`),
            }),
          ],
        },
      );
    // The second iteration's tool never returns: as far as the store knows, the process died in it.
    void worker(2, 'first').run('two parts');
    // Waits on the store, not on time: until the second iteration's tool call is recorded as started.
    while (!store.list().some((c) => c.iteration >= 2 && store.load(c.id)?.toolCalls.some((t) => t.status === 'started')))
      await new Promise((resolve) => setImmediate(resolve));
    const id = store.list()[0]!.id;
    expect(store.load(id)!.state.costByModel).toEqual([
      { model: 'scripted/test-model', calls: 2, inputTokens: 2_000, outputTokens: 20, spentUsd: 2, unpricedCalls: 0 },
    ]);
    const result = await worker(undefined, 'second').resume(id);
    expect(result.status).toBe('completed');
    const cp = store.load(id)!;
    expect([cp.state.costByModel, cp.state.spentUsd]).toEqual([
      [{ model: 'scripted/test-model', calls: 3, inputTokens: 4_000, outputTokens: 40, spentUsd: 4, unpricedCalls: 0 }],
      4,
    ]);
  });

  it('recordModelCost adds up per model, in order of first use', () => {
    const costs: ModelCost[] = [];
    recordModelCost(costs, 'a', { inputTokens: 1, outputTokens: 2 }, 0.5);
    recordModelCost(costs, 'b', { inputTokens: 3, outputTokens: 4, cacheWriteTokens: 1 }, undefined);
    recordModelCost(costs, 'a', { inputTokens: 1, outputTokens: 0 }, 0.25);
    expect(costs).toEqual([
      { model: 'a', calls: 2, inputTokens: 2, outputTokens: 2, spentUsd: 0.75, unpricedCalls: 0 },
      { model: 'b', calls: 1, inputTokens: 3, outputTokens: 4, cacheWriteTokens: 1, spentUsd: 0, unpricedCalls: 1 },
    ]);
  });
});

describe('unpricedCallsOf', () => {
  it('adds up the unpriced calls of every model; none without a cost by model', () => {
    const row = { calls: 3, inputTokens: 1, outputTokens: 1, spentUsd: 0.5 };
    expect(
      unpricedCallsOf([
        { model: 'a', ...row, unpricedCalls: 0 },
        { model: 'b', ...row, unpricedCalls: 2 },
        { model: 'c', ...row, unpricedCalls: 1 },
      ]),
    ).toBe(3);
    expect(unpricedCallsOf([])).toBe(0);
    expect(unpricedCallsOf(undefined)).toBe(0);
  });
});
