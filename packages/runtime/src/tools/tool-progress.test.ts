import type { ProgressEvent } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentRuntime } from '../loop/agent-runtime.js';
import { ManualClock } from '../loop/clock.js';
import { collect, ids } from '../loop/test-helpers.test-util.js';
import { ScriptedProvider } from '../provider/scripted-provider.js';
import { defineTool, type ToolContext } from './define-tool.js';

/** The events between a call's tool.executing and its tool.completed. */
function during(events: ProgressEvent[], toolCallId: string): ProgressEvent[] {
  const start = events.findIndex((e) => e.type === 'tool.executing' && e.toolCallId === toolCallId);
  const end = events.findIndex((e) => e.type === 'tool.completed' && e.toolCallId === toolCallId);
  return events.slice(start + 1, end);
}

function progressOf(events: ProgressEvent[]): { percent: number; message?: string }[] {
  return events.flatMap((e) =>
    e.type === 'progress' ? [{ percent: e.percent, ...(e.message === undefined ? {} : { message: e.message }) }] : [],
  );
}

describe('ctx.reportProgress: a tool moves the run bar inside its slice', () => {
  it('maps the tool percent into ctx.progressSlice, in order, never back, with its messages', async () => {
    let seen: ToolContext | undefined;
    const index = defineTool({
      name: 'index_docs',
      description: 'indexes documents',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        seen = ctx;
        ctx.reportProgress({ message: 'listing documents' });
        for (const percent of [0, 25, 50, 40, 100]) ctx.reportProgress({ percent, message: `indexed ${String(percent)}%` });
        return 'indexed 4 documents';
      },
    });
    const provider = new ScriptedProvider([{ toolCalls: [{ name: 'index_docs', args: {}, id: 'call_1' }] }, { content: 'done' }]);
    const { sink, events } = collect();
    const result = await new AgentRuntime(
      { provider: 'scripted', maxIterations: 4 },
      { provider, tools: [index], sinks: [sink], generateId: ids(), clock: new ManualClock() },
    ).run('index the docs');
    expect(result.status).toBe('completed');
    const slice = seen?.progressSlice;
    // The bar stood at 34 when the round's tools began; the call's share is the rest over the 4 rounds left.
    expect(slice).toEqual({ lo: 34, hi: 50.25 });
    expect(progressOf(during(events, 'call_1'))).toEqual([
      { percent: 34, message: 'listing documents' },
      { percent: 34, message: 'indexed 0%' },
      { percent: 38, message: 'indexed 25%' },
      { percent: 42, message: 'indexed 50%' },
      { percent: 42, message: 'indexed 40%' },
      { percent: 50, message: 'indexed 100%' },
    ]);
    const percents = progressOf(events).map((p) => p.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBe(100);
  });

  it('gives each call of a round its share and ignores reports after the call ended', async () => {
    const contexts: ToolContext[] = [];
    const step = defineTool({
      name: 'step',
      description: 'one step',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        contexts.push(ctx);
        ctx.reportProgress({ percent: 100 });
        return 'ok';
      },
    });
    const provider = new ScriptedProvider([
      {
        toolCalls: [
          { name: 'step', args: {}, id: 'call_a' },
          { name: 'step', args: {}, id: 'call_b' },
        ],
      },
      { content: 'done' },
    ]);
    const { sink, events } = collect();
    await new AgentRuntime(
      { provider: 'scripted', maxIterations: 2 },
      { provider, tools: [step], sinks: [sink], generateId: ids(), clock: new ManualClock() },
    ).run('t');
    const [a, b] = contexts;
    // First of two rounds, two calls: the first call gets a quarter of the rest; the second starts where
    // the first left the bar and gets half of the rest (the round's share, one call left).
    expect(a?.progressSlice).toEqual({ lo: 41, hi: 55.5 });
    expect(b?.progressSlice).toEqual({ lo: 55, hi: 77 });
    const before = events.length;
    a?.reportProgress({ percent: 0, message: 'late' });
    b?.reportProgress({ message: 'late' });
    expect(events.length).toBe(before);
  });

  it('ignores hostile updates without throwing into the tool', async () => {
    const hostile: unknown[] = [
      null,
      42,
      { percent: Number.NaN },
      { percent: Number.POSITIVE_INFINITY, message: 7 },
      {
        get percent(): number {
          throw new Error('getter');
        },
      },
      (() => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      })(),
      { message: '\u0000\u001b[2J' },
      { percent: 250, message: `${'x'.repeat(10_000)}\u0007` },
    ];
    const tool = defineTool({
      name: 'hostile',
      description: 'reports nonsense',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        for (const update of hostile) ctx.reportProgress(update as never);
        return 'survived';
      },
    });
    const provider = new ScriptedProvider([{ toolCalls: [{ name: 'hostile', args: {}, id: 'call_h' }] }, { content: 'done' }]);
    const { sink, events } = collect();
    const result = await new AgentRuntime(
      { provider: 'scripted', maxIterations: 4 },
      { provider, tools: [tool], sinks: [sink], generateId: ids(), clock: new ManualClock() },
    ).run('t');
    expect(result.status).toBe('completed');
    const completed = events.find((e) => e.type === 'tool.completed');
    expect(completed).toMatchObject({ ok: true });
    const nested = progressOf(during(events, 'call_h'));
    // Control characters become spaces (and are trimmed); 250 counts as 100; the rest is ignored.
    expect(nested).toEqual([
      { percent: 34, message: '[2J' },
      { percent: 50, message: 'x'.repeat(200) },
    ]);
  });
});
