import type { ProgressEvent } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { AgentRuntime } from '../loop/agent-runtime.js';
import { ManualClock } from '../loop/clock.js';
import { ScriptedProvider, type ScriptedStep } from '../provider/scripted-provider.js';
import { collect, fileRead, ids } from '../loop/test-helpers.test-util.js';

// $1 per 1,000 input tokens, $0 output: each call below costs exactly $1.
const prices = { 'test-model': { inputPerMillion: 1_000, outputPerMillion: 0 } };
const toolRound: ScriptedStep = {
  toolCalls: [{ name: 'file_read', args: { path: 'a.txt' } }],
  usage: { inputTokens: 1_000, outputTokens: 50 },
};

function limitEvents(events: ProgressEvent[]): unknown[] {
  return events.flatMap((e) =>
    e.type === 'limit.approaching' || e.type === 'limit.reached' ? [{ type: e.type, limit: e.limit, used: e.used, max: e.max }] : [],
  );
}

describe('maxSpendUsd', () => {
  it('stops before the call that would start over budget, with limit.reached, the fallback report and status limit', async () => {
    const events = collect();
    const provider = new ScriptedProvider(() => toolRound);
    const runtime = new AgentRuntime(
      { provider: 'scripted', model: 'test-model', maxIterations: 20, maxSpendUsd: 5 },
      { provider, tools: [fileRead], prices, sinks: [events.sink], generateId: ids(), clock: new ManualClock() },
    );
    const result = await runtime.run('Read everything', { sessionId: 's1' });
    expect(provider.calls).toBe(5);
    expect(result.status).toBe('limit');
    expect(result.report).toMatchObject({ reason: 'cost-budget', generatedBy: 'fallback' });
    expect(limitEvents(events.events)).toEqual([
      { type: 'limit.approaching', limit: 'cost', used: 4, max: 5 },
      { type: 'limit.reached', limit: 'cost', used: 5, max: 5 },
    ]);
    const last = events.events.at(-1)!;
    expect(last).toMatchObject({ type: 'run.finished', outcome: 'limit', summary: expect.stringContaining('the cost budget') as unknown });
    expect(runtime.cost('s1')).toEqual({
      budgetUsd: 5,
      spentUsd: 5,
      calls: 5,
      unpricedCalls: 0,
      bySession: { s1: { spentUsd: 5, calls: 5 } },
    });
  });

  it('is per session: an exhausted session stops at once, another one runs', async () => {
    const runtime = new AgentRuntime(
      { provider: 'scripted', model: 'test-model', maxIterations: 20, maxSpendUsd: 2 },
      { provider: new ScriptedProvider(() => toolRound), tools: [fileRead], prices, generateId: ids(), clock: new ManualClock() },
    );
    expect((await runtime.run('a', { sessionId: 's1' })).status).toBe('limit');
    const again = await runtime.run('b', { sessionId: 's1' });
    expect(again).toMatchObject({ status: 'limit', iterations: 0, report: { reason: 'cost-budget' } });
    const other = new AgentRuntime(
      { provider: 'scripted', model: 'test-model', maxSpendUsd: 2 },
      {
        provider: new ScriptedProvider([{ content: 'hi', usage: { inputTokens: 100, outputTokens: 1 } }]),
        prices,
        generateId: ids('x'),
        clock: new ManualClock(),
      },
    );
    expect((await other.run('c', { sessionId: 's2' })).status).toBe('completed');
    expect(runtime.cost()).toMatchObject({ budgetUsd: 2, spentUsd: 2, calls: 2 });
  });

  it('prices calls with the default table and never stops an unlimited run', async () => {
    const runtime = new AgentRuntime(
      { provider: 'scripted', model: 'gpt-4o-2024-08-06' },
      {
        provider: new ScriptedProvider([{ content: 'done', usage: { inputTokens: 1_000_000, outputTokens: 100_000 } }]),
        generateId: ids(),
        clock: new ManualClock(),
      },
    );
    const result = await runtime.run('t');
    expect(result.status).toBe('completed');
    expect(runtime.cost(result.sessionId)).toMatchObject({ budgetUsd: 0, spentUsd: 3.5, calls: 1 });
  });
});
