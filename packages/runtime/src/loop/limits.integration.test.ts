import { parseProgressEvent, type ProgressEvent } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentRuntime } from './agent-runtime.js';
import { ManualClock } from './clock.js';
import { defineTool } from '../tools/define-tool.js';
import type { ChatMessage } from '../provider/provider.js';
import { ProviderError } from '../provider/provider-error.js';
import { ScriptedProvider, type ScriptedStep } from '../provider/scripted-provider.js';
import { collect, fileRead, ids } from './test-helpers.test-util.js';

const MODEL_REPORT = `## PROGRESS REPORT

### Task
Summarize the README file

### Completed Work
- Read README.md

### Key Findings
- headway makes agent loops legible

### Attempted but Inconclusive
- none

### Not Started / Remaining
- Write the summary

### Suggested Next Steps
- Summarize the findings above
`;

/** A model that keeps reading files until it is asked for a report, then writes `report`. */
function diligent(report: string, delayMs = 0): (conversation: readonly ChatMessage[]) => ScriptedStep {
  return (conversation) => {
    const last = conversation.at(-1);
    if (last?.role === 'user' && last.content.includes('PROGRESS REPORT')) return { content: report, delayMs };
    return { content: 'Reading another file.', toolCalls: [{ name: 'file_read', args: { path: `f${conversation.length}.md` } }], delayMs };
  };
}

function terminalAndReport(events: ProgressEvent[]): { terminals: ProgressEvent[]; reports: ProgressEvent[] } {
  return {
    terminals: events.filter((e) => e.type === 'run.finished' || e.type === 'run.error' || e.type === 'run.cancelled'),
    reports: events.filter((e) => e.type === 'report.generated'),
  };
}

function expectEndsWithReport(events: ProgressEvent[]): void {
  const { terminals, reports } = terminalAndReport(events);
  expect(terminals).toHaveLength(1);
  expect(reports).toHaveLength(1);
  expect(events.at(-1)).toBe(terminals[0]);
  expect(events.at(-2)).toBe(reports[0]);
  // Every event is valid on the wire.
  for (const e of events) expect(parseProgressEvent(JSON.parse(JSON.stringify(e)))).toEqual(e);
}

describe('iteration limit', () => {
  it('asks for a report on the last iteration with tools disabled and uses the model report', async () => {
    const { sink, events } = collect();
    const provider = new ScriptedProvider(diligent(MODEL_REPORT));
    const runtime = new AgentRuntime(
      { provider: 'scripted', maxIterations: 5 },
      { provider, tools: [fileRead], sinks: [sink], generateId: ids() },
    );
    const result = await runtime.run('Summarize the README file');
    expect(result.status).toBe('limit');
    expect(result.iterations).toBe(5);
    expect(provider.requests.at(-1)?.tools).toEqual([]);
    expect(provider.requests[3]?.tools).toHaveLength(1);
    expect(result.report).toMatchObject({
      reason: 'max-iterations',
      generatedBy: 'model',
      completedWork: ['Read README.md'],
      remaining: ['Write the summary'],
      stats: { iterations: 5, toolCalls: 4 },
    });
    expect(result.text).toMatch(/^## PROGRESS REPORT/);
    expectEndsWithReport(events);
    expect(events.at(-1)).toMatchObject({
      type: 'run.finished',
      outcome: 'limit',
      summary: 'stopped at the iteration limit after 5 iteration(s); progress report attached',
    });
    const approaching = events.filter((e) => e.type === 'limit.approaching');
    expect(approaching).toEqual([expect.objectContaining({ limit: 'iterations', used: 4, max: 5 })]);
    expect(events.filter((e) => e.type === 'limit.reached')).toEqual([expect.objectContaining({ limit: 'iterations', used: 5, max: 5 })]);
    // limit.approaching comes with the round that reaches 80%.
    const fourth = events.findIndex((e) => e.type === 'iteration' && e.index === 3);
    expect(events[fourth + 1]?.type).toBe('limit.approaching');
  });

  it('with a limit of 3, warns in iteration 2 and reaches the limit in iteration 3, never both at once', async () => {
    const { sink, events } = collect();
    const provider = new ScriptedProvider(diligent(MODEL_REPORT));
    const runtime = new AgentRuntime(
      { provider: 'scripted', maxIterations: 3 },
      { provider, tools: [fileRead], sinks: [sink], generateId: ids() },
    );
    await runtime.run('Summarize the README file');
    const order = events
      .filter((e) => e.type === 'iteration' || e.type === 'limit.approaching' || e.type === 'limit.reached')
      .map((e) => (e.type === 'iteration' ? `iteration ${e.index + 1}/${e.max}` : `${e.type} ${e.used}/${e.max}`));
    expect(order).toEqual(['iteration 1/3', 'iteration 2/3', 'limit.approaching 2/3', 'iteration 3/3', 'limit.reached 3/3']);
  });

  it('with a limit of 2, warns in iteration 1 (one iteration ahead) and reaches the limit in iteration 2', async () => {
    const { sink, events } = collect();
    const provider = new ScriptedProvider(diligent(MODEL_REPORT));
    const runtime = new AgentRuntime(
      { provider: 'scripted', maxIterations: 2 },
      { provider, tools: [fileRead], sinks: [sink], generateId: ids() },
    );
    await runtime.run('Summarize the README file');
    const order = events
      .filter((e) => e.type === 'iteration' || e.type === 'limit.approaching' || e.type === 'limit.reached')
      .map((e) => (e.type === 'iteration' ? `iteration ${e.index + 1}/${e.max}` : `${e.type} ${e.used}/${e.max}`));
    expect(order).toEqual(['iteration 1/2', 'limit.approaching 1/2', 'iteration 2/2', 'limit.reached 2/2']);
  });

  it('falls back to the deterministic report when the reply is not a report', async () => {
    const { sink, events } = collect();
    const provider = new ScriptedProvider(diligent('Sorry, I ran out of steps.'));
    const runtime = new AgentRuntime(
      { provider: 'scripted', maxIterations: 3 },
      { provider, tools: [fileRead], sinks: [sink], generateId: ids() },
    );
    const result = await runtime.run('Summarize the README file');
    expect(result.status).toBe('limit');
    expect(result.report?.generatedBy).toBe('fallback');
    expect(result.report?.reason).toBe('max-iterations');
    expect(result.report?.completedWork.length).toBeGreaterThan(0);
    expectEndsWithReport(events);
  });

  it('the reporter hears which limit stopped the run', async () => {
    const summaries: string[] = [];
    const reporter = {
      onStart() {},
      onProgress() {},
      onToolStart() {},
      onToolDone() {},
      onIteration() {},
      onComplete: (s: string) => summaries.push(s),
      onError() {},
    };
    const runtime = new AgentRuntime(
      { provider: 'scripted', maxIterations: 2 },
      { provider: new ScriptedProvider(diligent('nope')), tools: [fileRead], progressReporter: reporter },
    );
    await runtime.run('t');
    expect(summaries).toEqual(['stopped at the iteration limit after 2 iteration(s); progress report attached']);
  });
});

describe('time limits (fake clock)', () => {
  it('graceful: wind-down at the deadline, report prompt, grace iterations, model report', async () => {
    const clock = new ManualClock({ autoAdvance: true, start: 1_000_000 });
    const { sink, events } = collect();
    // Each model call takes 10 s; the budget is 25 s, so the deadline passes in iteration 3.
    const provider = new ScriptedProvider(diligent(MODEL_REPORT, 10_000), { clock });
    const runtime = new AgentRuntime(
      { provider: 'scripted', maxIterations: 50, timeBudgetMs: 25_000, graceIterations: 2 },
      { provider, tools: [fileRead], sinks: [sink], clock, generateId: ids() },
    );
    const result = await runtime.run('Summarize the README file');
    expect(result.status).toBe('limit');
    expect(result.report).toMatchObject({ reason: 'time-budget', generatedBy: 'model' });
    expect(result.iterations).toBe(4);
    const types = events.map((e) => e.type);
    expect(types.indexOf('limit.approaching')).toBeLessThan(types.indexOf('limit.reached'));
    expect(events.find((e) => e.type === 'limit.approaching')).toMatchObject({ limit: 'time', used: 20_000, max: 25_000 });
    expect(events.find((e) => e.type === 'limit.reached')).toMatchObject({ limit: 'time', used: 25_000, max: 25_000 });
    expect(events.find((e) => e.type === 'wind-down.started')).toMatchObject({ reason: 'time-budget', graceIterations: 2 });
    expectEndsWithReport(events);
    expect(clock.pendingTimers).toBe(0);
  });

  it('graceful: a model that keeps calling tools is cut off after the grace iterations with the fallback', async () => {
    const clock = new ManualClock({ autoAdvance: true });
    const { sink, events } = collect();
    const provider = new ScriptedProvider(() => ({ toolCalls: [{ name: 'file_read', args: { path: 'x' } }], delayMs: 10_000 }), { clock });
    const runtime = new AgentRuntime(
      { provider: 'scripted', maxIterations: 50, timeBudgetMs: 25_000, graceIterations: 2 },
      { provider, tools: [fileRead], sinks: [sink], clock },
    );
    const result = await runtime.run('t');
    expect(result.status).toBe('limit');
    expect(result.iterations).toBe(5);
    expect(provider.requests.at(-1)?.tools).toEqual([]);
    expect(result.report).toMatchObject({ reason: 'time-budget', generatedBy: 'fallback' });
    expectEndsWithReport(events);
  });

  it('graceful: hard abort hardStopAfterMs after wind-down, even mid-call', async () => {
    const clock = new ManualClock({ autoAdvance: true });
    const { sink, events } = collect();
    const provider = new ScriptedProvider(
      (conversation) =>
        conversation.length > 3
          ? { content: 'never', delayMs: 10 * 60_000 }
          : { toolCalls: [{ name: 'file_read', args: { path: 'x' } }], delayMs: 20_000 },
      { clock },
    );
    const runtime = new AgentRuntime(
      { provider: 'scripted', timeBudgetMs: 10_000, hardStopAfterMs: 30_000 },
      { provider, tools: [fileRead], sinks: [sink], clock },
    );
    const result = await runtime.run('t');
    expect(result.status).toBe('limit');
    expect(result.report).toMatchObject({ reason: 'time-budget', generatedBy: 'fallback' });
    // Wind-down at 10 s, hard stop at 40 s.
    expect(result.report?.stats.elapsedMs).toBe(40_000);
    expectEndsWithReport(events);
  });

  it('hard: aborts at the deadline with the fallback report', async () => {
    const clock = new ManualClock({ autoAdvance: true });
    const { sink, events } = collect();
    let toolSignal: AbortSignal | undefined;
    const slow = defineTool({
      name: 'slow',
      description: 'takes a minute',
      parameters: z.object({}),
      execute: async (_args, ctx) => {
        toolSignal = ctx.signal;
        await new Promise((resolve) =>
          clock.setTimeout(() => {
            resolve(undefined);
          }, 60_000),
        );
        return 'late';
      },
    });
    const provider = new ScriptedProvider([{ toolCalls: [{ name: 'slow', args: {} }], delayMs: 1_000 }], { clock });
    const runtime = new AgentRuntime(
      { provider: 'scripted', timeBudgetMs: 5_000, timeoutBehavior: 'hard' },
      { provider, tools: [slow], sinks: [sink], clock },
    );
    const result = await runtime.run('t');
    expect(result.status).toBe('limit');
    expect(result.report).toMatchObject({ reason: 'time-budget', generatedBy: 'fallback', stats: { elapsedMs: 5_000 } });
    expect(toolSignal?.aborted).toBe(true);
    expect(events.some((e) => e.type === 'wind-down.started')).toBe(false);
    expect(events.filter((e) => e.type === 'limit.reached')).toHaveLength(1);
    expectEndsWithReport(events);
  });

  it('negotiated: extends in chunks up to the budget, then winds down', async () => {
    const clock = new ManualClock({ autoAdvance: true });
    const { sink, events } = collect();
    const asked: number[] = [];
    const provider = new ScriptedProvider(diligent(MODEL_REPORT, 10_000), { clock });
    const runtime = new AgentRuntime(
      {
        provider: 'scripted',
        maxIterations: 100,
        timeBudgetMs: 30_000,
        timeoutBehavior: 'negotiated',
        negotiatedTimeoutBudgetMs: 50_000,
        negotiatedExtensionMs: 20_000,
      },
      {
        provider,
        tools: [fileRead],
        sinks: [sink],
        clock,
        onTimeout: (request) => {
          asked.push(request.remainingMs);
          return 60_000;
        },
      },
    );
    const result = await runtime.run('t');
    expect(asked).toEqual([50_000, 30_000, 10_000]);
    expect(events.filter((e) => e.type === 'timeout.extended')).toEqual([
      expect.objectContaining({ byMs: 20_000, totalBudgetMs: 50_000 }),
      expect.objectContaining({ byMs: 20_000, totalBudgetMs: 70_000 }),
      expect.objectContaining({ byMs: 10_000, totalBudgetMs: 80_000 }),
    ]);
    expect(events.find((e) => e.type === 'wind-down.started')).toMatchObject({ reason: 'negotiated-timeout' });
    expect(result.report).toMatchObject({ reason: 'negotiated-timeout', generatedBy: 'model' });
    expectEndsWithReport(events);
  });

  it('negotiated: a declining observer starts the graceful wind-down at once', async () => {
    const clock = new ManualClock({ autoAdvance: true });
    const { sink, events } = collect();
    const provider = new ScriptedProvider(diligent(MODEL_REPORT, 10_000), { clock });
    const runtime = new AgentRuntime(
      { provider: 'scripted', maxIterations: 100, timeBudgetMs: 15_000, timeoutBehavior: 'negotiated' },
      { provider, tools: [fileRead], sinks: [sink], clock, onTimeout: async () => Promise.resolve(false) },
    );
    const result = await runtime.run('t');
    expect(events.some((e) => e.type === 'timeout.extended')).toBe(false);
    expect(result.report?.reason).toBe('negotiated-timeout');
    expect(result.status).toBe('limit');
  });

  it("negotiated with 'model': the model is asked and its answer honoured", async () => {
    const clock = new ManualClock({ autoAdvance: true });
    const { sink, events } = collect();
    const provider = new ScriptedProvider(
      (conversation) => {
        const last = conversation.at(-1);
        if (last?.role === 'user' && last.content.includes('"extendMs"'))
          return { content: '{"extendMs": 5000, "reason": "almost there"}' };
        return diligent(MODEL_REPORT, 10_000)(conversation);
      },
      { clock },
    );
    const runtime = new AgentRuntime(
      { provider: 'scripted', maxIterations: 100, timeBudgetMs: 15_000, timeoutBehavior: 'negotiated', negotiatedTimeoutBudgetMs: 5_000 },
      { provider, tools: [fileRead], sinks: [sink], clock, onTimeout: 'model' },
    );
    const result = await runtime.run('t');
    expect(events.filter((e) => e.type === 'timeout.extended')).toEqual([expect.objectContaining({ byMs: 5_000, totalBudgetMs: 20_000 })]);
    expect(result.report?.reason).toBe('negotiated-timeout');
  });
});

describe('cancellation and errors', () => {
  it('an AbortSignal aborts the provider call, emits run.cancelled and returns the fallback report', async () => {
    const clock = new ManualClock();
    const { sink, events } = collect();
    const provider = new ScriptedProvider(
      [{ toolCalls: [{ name: 'file_read', args: { path: 'a' } }] }, { content: 'slow', delayMs: 60_000 }],
      { clock },
    );
    const controller = new AbortController();
    const runtime = new AgentRuntime({ provider: 'scripted' }, { provider, tools: [fileRead], sinks: [sink], clock });
    const running = runtime.run('Summarize the README file', { signal: controller.signal });
    while (provider.calls < 2) await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error('user pressed Ctrl-C'));
    const result = await running;
    expect(result.status).toBe('cancelled');
    expect(result.report).toMatchObject({ reason: 'cancelled', generatedBy: 'fallback', stats: { toolCalls: 1 } });
    expect(events.at(-1)).toMatchObject({ type: 'run.cancelled', reason: 'user pressed Ctrl-C' });
    expectEndsWithReport(events);
    expect(clock.pendingTimers).toBe(0);
  });

  it('aborts a running tool through ctx.signal', async () => {
    const { sink, events } = collect();
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const hang = defineTool({
      name: 'hang',
      description: 'never returns',
      parameters: z.object({}),
      execute: (_a, ctx) => {
        seen = ctx.signal;
        controller.abort();
        return new Promise(() => undefined);
      },
    });
    const runtime = new AgentRuntime(
      { provider: 'scripted' },
      { provider: new ScriptedProvider([{ toolCalls: [{ name: 'hang', args: {} }] }]), tools: [hang], sinks: [sink] },
    );
    const result = await runtime.run('t', { signal: controller.signal });
    expect(result.status).toBe('cancelled');
    expect(seen?.aborted).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run.cancelled', reason: 'cancelled by the caller' });
    expectEndsWithReport(events);
  });

  it('provider failure after retries: run.error, status error, fallback report', async () => {
    const clock = new ManualClock({ autoAdvance: true });
    const { sink, events } = collect();
    const failure = new ProviderError('PROVIDER_REQUEST_FAILED', 'HTTP 503', { retryable: true, status: 503 });
    const provider = new ScriptedProvider(
      [{ toolCalls: [{ name: 'file_read', args: { path: 'a' } }] }, { error: failure }, { error: failure }, { error: failure }],
      { clock },
    );
    const runtime = new AgentRuntime(
      { provider: 'scripted' },
      { provider, tools: [fileRead], sinks: [sink], clock, retry: { maxRetries: 2 } },
    );
    const result = await runtime.run('t');
    expect(result.status).toBe('error');
    expect(provider.calls).toBe(4);
    expect(result.report).toMatchObject({ reason: 'error', generatedBy: 'fallback' });
    expect(events.at(-1)).toMatchObject({ type: 'run.error', error: 'Provider "scripted" failed (after 3 attempts): HTTP 503' });
    expectEndsWithReport(events);
  });

  it('no provider available: run.error naming the problem', async () => {
    const provider = new ScriptedProvider([], { available: false });
    const runtime = new AgentRuntime({ provider: 'scripted' }, { provider, tools: [fileRead] });
    const result = await runtime.run('t');
    expect(result.status).toBe('error');
    expect(result.report?.reason).toBe('error');
  });
});
