import type { ProgressEvent } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { AgentRuntime } from '../loop/agent-runtime.js';
import { ManualClock } from '../loop/clock.js';
import { collect, fileRead, ids } from '../loop/test-helpers.test-util.js';
import { ScriptedProvider, type ScriptedStep } from '../provider/scripted-provider.js';
import { UPDATE_PLAN_TOOL_NAME } from './update-plan-tool.js';

const plan = (...statuses: ('pending' | 'in_progress' | 'completed')[]): { items: { id: string; text: string; status: string }[] } => ({
  items: statuses.map((status, i) => ({ id: `s${i + 1}`, text: `Step ${i + 1}`, status })),
});

async function run(
  steps: ScriptedStep[],
  options: { planTool?: boolean; maxIterations?: number } = {},
): Promise<{ events: ProgressEvent[]; toolMessages: string[] }> {
  const { sink, events } = collect();
  const runtime = new AgentRuntime(
    { provider: 'scripted', planTool: options.planTool ?? true, maxIterations: options.maxIterations ?? 10 },
    { provider: new ScriptedProvider(steps), tools: [fileRead], sinks: [sink], generateId: ids(), clock: new ManualClock() },
  );
  await runtime.run('Fix the bug');
  const toolMessages = events
    .filter((e) => e.type === 'tool.completed' && e.toolName === UPDATE_PLAN_TOOL_NAME)
    .map((e) => (e.type === 'tool.completed' ? (e.preview ?? '') : ''));
  return { events, toolMessages };
}

const percents = (events: ProgressEvent[]): number[] => events.flatMap((e) => (e.type === 'progress' ? [e.percent] : []));

describe('the built-in update_plan tool', () => {
  it('is offered only when planTool is true', () => {
    const provider = new ScriptedProvider([{ content: 'done' }]);
    expect(new AgentRuntime({ provider: 'scripted' }, { provider, tools: [fileRead] }).tools.map((t) => t.name)).toEqual(['file_read']);
    expect(new AgentRuntime({ provider: 'scripted', planTool: true }, { provider, tools: [fileRead] }).tools.map((t) => t.name)).toEqual([
      'file_read',
      'update_plan',
    ]);
  });

  it('emits plan.updated (the whole list) right before the call completes, and the bar follows the plan', async () => {
    const { events, toolMessages } = await run([
      { toolCalls: [{ name: 'update_plan', args: plan('in_progress', 'pending', 'pending', 'pending') }] },
      { toolCalls: [{ name: 'update_plan', args: plan('completed', 'completed', 'completed', 'in_progress') }] },
      { content: 'Fixed.' },
    ]);
    const plans = events.filter((e) => e.type === 'plan.updated');
    expect(plans.map((e) => ('items' in e ? e.items.map((i) => i.status) : []))).toEqual([
      ['in_progress', 'pending', 'pending', 'pending'],
      ['completed', 'completed', 'completed', 'in_progress'],
    ]);
    const types = events.map((e) => e.type);
    const at = types.indexOf('plan.updated');
    expect(types.slice(at - 1, at + 2)).toEqual(['tool.executing', 'plan.updated', 'tool.completed']);
    expect(toolMessages[1]).toBe('Plan updated: 3/4 done, now: Step 4.');
    // 3.5 of 4 items over the 92% the plan spans.
    expect(percents(events)).toContain(Math.round(92 * (3.5 / 4)));
  });

  it.each([
    ['no items', { items: [] }, 'items: too small'],
    [
      'duplicate ids',
      {
        items: [
          { id: 'a', text: 'x', status: 'pending' },
          { id: 'a', text: 'y', status: 'pending' },
        ],
      },
      'duplicate',
    ],
    ['an unknown status', { items: [{ text: 'x', status: 'done' }] }, 'items[0].status'],
    ['10,000 items', { items: Array.from({ length: 10_000 }, (_, i) => ({ text: `t${i}`, status: 'pending' })) }, 'items: too big'],
    ['arguments that are not a plan', 'finish the task', 'expected object'],
  ])('answers %s with a tool error and moves nothing', async (_name, args, message) => {
    const good = [{ toolCalls: [{ name: 'update_plan', args: plan('completed', 'in_progress') }] }];
    const bad = [{ toolCalls: [{ name: 'update_plan', args }] }];
    const withBad = await run([...good, ...bad, { content: 'Done.' }]);
    const without = await run([...good, { toolCalls: [{ name: 'file_read', args: { path: 'a.md' } }] }, { content: 'Done.' }]);
    expect(withBad.events.filter((e) => e.type === 'plan.updated')).toHaveLength(1);
    const error = withBad.toolMessages[1] ?? '';
    expect(error).toMatch(/^Error: invalid arguments for update_plan: /);
    expect(error.toLowerCase()).toContain(message.toLowerCase());
    expect(withBad.events.find((e) => e.type === 'tool.completed' && e.toolName === 'update_plan' && !e.ok)).toBeDefined();
    // The bar after the bad call is where it is after a plain tool call.
    expect(percents(withBad.events)).toEqual(percents(without.events));
  });

  it('gives the progress report its Completed and Remaining when a limit stops the run', async () => {
    const steps: ScriptedStep[] = [
      { toolCalls: [{ name: 'update_plan', args: plan('completed', 'in_progress', 'pending') }] },
      { toolCalls: [{ name: 'file_read', args: { path: 'a.md' } }] },
      { content: 'not a report' },
    ];
    const { events } = await run(steps, { maxIterations: 2 });
    const report = events.find((e) => e.type === 'report.generated');
    expect(report?.type === 'report.generated' && report.report.completedWork[0]).toBe('Plan item done: Step 1');
    expect(report?.type === 'report.generated' && report.report.remaining).toEqual(['Step 2 (in progress)', 'Step 3']);
  });
});
