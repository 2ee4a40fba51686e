import { isTerminalEvent, progressEventSchema, type ProgressEvent } from '@headway/protocol';
import { continuationPrompt } from '@headway/report';
import { Agent, setTracingDisabled } from '@openai/agents';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginTool, manualClock, readTool, scriptedModel, userTexts, type Script } from './scripted-model.test-util.js';
import { withHeadway } from './with-headway.js';

beforeAll(() => {
  setTracingDisabled(true);
});

const MODEL_REPORT = [
  '## PROGRESS REPORT',
  '### Task',
  'Find the config',
  '### Completed Work',
  '- read 0.txt and 1.txt',
  '### Key Findings',
  '- 0.txt holds the token',
  '### Attempted but Inconclusive',
  'None.',
  '### Not Started / Remaining',
  '- read 2.txt',
  '### Suggested Next Steps',
  '- read 2.txt next',
].join('\n');

/** Reads forever, except that a report prompt is answered with MODEL_REPORT. */
const reader: Script = (call, request) => {
  if (userTexts(request).some((t) => t.includes('STOP:'))) return { text: MODEL_REPORT };
  return { calls: [{ tool: 'read', input: { path: `${String(call)}.txt` } }] };
};

function collect(): { events: ProgressEvent[]; sink: (e: ProgressEvent) => void } {
  const events: ProgressEvent[] = [];
  return { events, sink: (e) => events.push(e) };
}

function expectOneTerminal(events: ProgressEvent[]): void {
  expect(events.filter(isTerminalEvent)).toHaveLength(1);
  expect(isTerminalEvent(events.at(-1) ?? { type: '' })).toBe(true);
  events.forEach((e, i) => {
    expect(e.seq).toBe(i + 1);
    expect(progressEventSchema.parse(e)).toEqual(e);
  });
}

describe('withHeadway (OpenAI Agents SDK)', () => {
  it('a two-tool run emits the seed order, with tokens, cost and previews', async () => {
    const { events, sink } = collect();
    const model = scriptedModel((call) =>
      call === 0
        ? { calls: [{ tool: 'read', input: { path: 'a.txt' } }] }
        : call === 1
          ? { calls: [{ tool: 'read', input: { path: 'b.txt' } }] }
          : { text: 'a and b say hi' },
    );
    const agent = new Agent({ name: 'reader', instructions: 'read files', model, tools: [readTool] });
    const tracked = withHeadway({
      task: 'Read a and b',
      sinks: [sink],
      maxIterations: 5,
      costOf: (u) => (u.inputTokens + u.outputTokens) / 1000,
      clock: manualClock(),
    });
    const end = await tracked.run(agent, 'Read a and b');
    expect(end.outcome).toBe('completed');
    expect(end.result?.finalOutput).toBe('a and b say hi');
    expectOneTerminal(events);
    const types = events.map((e) => e.type).filter((t) => t !== 'progress');
    expect(types).toEqual([
      'run.started',
      'iteration',
      'step.started',
      'tool.executing',
      'tool.completed',
      'step.finished',
      'iteration',
      'step.started',
      'tool.executing',
      'tool.completed',
      'step.finished',
      'iteration',
      'step.started',
      'step.finished',
      'run.finished',
    ]);
    expect(events[0]).toMatchObject({ type: 'run.started', agentName: 'reader', task: 'Read a and b', limits: { iterations: 5 } });
    expect(events.find((e) => e.type === 'step.finished')).toMatchObject({
      step: 'llm-1',
      usage: { inputTokens: 10, outputTokens: 5 },
      costUsd: 0.015,
    });
    expect(events.filter((e) => e.type === 'tool.completed').map((e) => [e.toolName, e.ok, e.preview])).toEqual([
      ['read', true, 'contents of a.txt'],
      ['read', true, 'contents of b.txt'],
    ]);
    expect(events.filter((e) => e.type === 'progress').at(-1)).toMatchObject({ percent: 100 });
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'completed', summary: 'finished after 3 iteration(s)' });
  });

  it('marks model calls the same by the hooks alone as through the input filter (a time budget turns the filter on)', async () => {
    const script: Script = (call) =>
      call < 2
        ? {
            calls: [
              { tool: 'read', input: { path: `${String(call)}.txt` } },
              { tool: 'read', input: { path: 'x.txt' } },
            ],
          }
        : { text: 'done' };
    const shape = async (timeBudgetMs: number | undefined): Promise<unknown[]> => {
      const { events, sink } = collect();
      const model = scriptedModel(script);
      const agent = new Agent({ name: 'reader', model, tools: [readTool] });
      const end = await withHeadway({
        task: 'Read',
        sinks: [sink],
        maxIterations: 5,
        clock: manualClock(),
        ...(timeBudgetMs === undefined ? {} : { timeBudgetMs }),
      }).run(agent, 'Read');
      expect(end.outcome).toBe('completed');
      expect(model.requests).toHaveLength(3);
      expectOneTerminal(events);
      return events
        .filter((e) => e.type !== 'progress' && e.type !== 'run.started')
        .map((e) =>
          e.type === 'step.finished'
            ? [e.type, e.step, e.usage]
            : e.type === 'tool.completed' || e.type === 'tool.executing'
              ? [e.type, e.toolCallId]
              : e.type === 'iteration'
                ? [e.type, e.index]
                : [e.type],
        );
    };
    const byHooks = await shape(undefined);
    expect(byHooks.filter((e) => (e as string[])[0] === 'step.finished')).toHaveLength(3);
    expect(await shape(60_000)).toEqual(byHooks);
  });

  it('at the iteration limit the agent is asked for its report without tools, and the report continues the work', async () => {
    const { events, sink } = collect();
    const model = scriptedModel(reader);
    const agent = new Agent({ name: 'reader', instructions: 'read files', model, tools: [readTool] });
    const end = await withHeadway({ task: 'Find the config', sinks: [sink], maxIterations: 3, clock: manualClock() }).run(
      agent,
      'Find the config',
    );

    expect(model.requests).toHaveLength(3);
    const last = model.requests[2];
    expect(last?.tools).toEqual([]);
    const prompt = userTexts(last ?? model.requests[0]!).at(-1) ?? '';
    expect(prompt).toMatch(/STOP: You have reached the iteration limit \(3 of 3\)\./);
    expect(prompt).toContain('[iteration 1] read({"path":"0.txt"}) → contents of 0.txt');
    expect(end.outcome).toBe('limit');
    expect(end.reason).toBe('max-iterations');
    expect(end.report).toMatchObject({
      generatedBy: 'model',
      reason: 'max-iterations',
      completedWork: ['read 0.txt and 1.txt'],
      remaining: ['read 2.txt'],
    });
    expect(end.report?.stats).toMatchObject({ iterations: 3, toolCalls: 2 });
    expectOneTerminal(events);
    expect(events.filter((e) => e.type === 'limit.reached')).toMatchObject([{ limit: 'iterations', used: 3, max: 3 }]);
    expect(events.filter((e) => e.type === 'step.started').map((e) => e.description)).toEqual([
      'model call',
      'model call',
      'model call (no tools)',
    ]);
    expect(events.at(-2)).toMatchObject({ type: 'report.generated' });
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'limit' });

    // Continue: a fresh run from the continuation prompt finishes the task.
    const next = scriptedModel((call) =>
      call === 0 ? { calls: [{ tool: 'read', input: { path: '2.txt' } }] } : { text: 'the config is in 2.txt' },
    );
    const again = await withHeadway({ task: 'Find the config', maxIterations: 3 }).run(
      new Agent({ name: 'reader', model: next, tools: [readTool] }),
      continuationPrompt(end.report!),
    );
    expect(again.outcome).toBe('completed');
    expect(userTexts(next.requests[0]!)[0]).toContain('read 2.txt next');
  });

  it("the SDK's own maxTurns ends with the report, not MaxTurnsExceededError", async () => {
    const model = scriptedModel(reader);
    const agent = new Agent({ name: 'reader', model, tools: [readTool] });
    const end = await withHeadway({ task: 'Find the config', maxIterations: 10 }).run(agent, 'Find the config', { maxTurns: 2 });
    expect(end.error).toBeUndefined();
    expect(end.outcome).toBe('limit');
    expect(end.report?.generatedBy).toBe('model');
    expect(end.result?.finalOutput).toContain('read 2.txt next');
  });

  it('a spent budget ends without another model call, with the report from the tool-call log', async () => {
    const model = scriptedModel(reader);
    const agent = new Agent({ name: 'reader', model, tools: [readTool] });
    const end = await withHeadway({ task: 'Find', maxIterations: 10, maxSpendUsd: 1, costOf: () => 0.6 }).run(agent, 'Find');
    expect(model.requests).toHaveLength(2);
    expect(end).toMatchObject({ outcome: 'limit', reason: 'cost-budget', report: { generatedBy: 'fallback', stats: { costUsd: 1.2 } } });
    expect(end).toMatchObject({ warnings: [], unpricedCalls: 0 });
  });

  it('a call of unknown cost is left out of the spend and counted, named once per model, and never stops the run', async () => {
    const { events, sink } = collect();
    const model = scriptedModel(reader);
    const agent = new Agent({ name: 'reader', model, tools: [readTool] });
    const end = await withHeadway({ task: 'Find', sinks: [sink], maxIterations: 3, maxSpendUsd: 1, costOf: () => undefined }).run(
      agent,
      'Find',
    );
    // Two working calls and the report call: the iteration limit ended the run, not a made-up spend.
    expect(model.requests).toHaveLength(3);
    expect(end).toMatchObject({ outcome: 'limit', reason: 'max-iterations', report: { generatedBy: 'model' }, unpricedCalls: 3 });
    expect(end.report?.stats.costUsd).toBeUndefined();
    expect(end.warnings).toEqual([
      {
        code: 'cost-unknown',
        message:
          'default has no price: its calls are not counted against the cost limit of $1 (what they cost is unknown); have costOf price it',
      },
    ]);
    expect(events.filter((e) => e.type === 'limit.reached')).toMatchObject([{ limit: 'iterations' }]);
    expect(events.flatMap((e) => (e.type === 'step.finished' ? [e.costUsd] : []))).toEqual([undefined, undefined, undefined]);
  });

  it('a handoff nests the second agent and the bar never moves backwards', async () => {
    const { events, sink } = collect();
    const worker = new Agent({
      name: 'worker',
      model: scriptedModel((call) => (call < 3 ? { calls: [{ tool: 'read', input: { path: `${String(call)}.txt` } }] } : { text: 'done' })),
      tools: [readTool],
    });
    const manager = new Agent({
      name: 'manager',
      model: scriptedModel(() => ({ calls: [{ tool: 'transfer_to_worker', input: {} }] })),
      handoffs: [worker],
    });
    const end = await withHeadway({ task: 'Delegate', sinks: [sink], maxIterations: 10, clock: manualClock() }).run(manager, 'Delegate');
    expect(end.outcome).toBe('completed');
    const percents = events.filter((e) => e.type === 'progress').map((e) => e.percent);
    expect(percents.length).toBeGreaterThan(2);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBe(100);
    expect(events.some((e) => e.type === 'progress' && e.message === 'handed off to worker')).toBe(true);
  });

  it('redacts secrets in tool arguments where the event is made', async () => {
    const { events, sink } = collect();
    const model = scriptedModel((call) =>
      call === 0 ? { calls: [{ tool: 'login', input: { user: 'ann', password: 'hunter2-secret-value' } }] } : { text: 'in' },
    );
    await withHeadway({ task: 'Log in', sinks: [sink] }).run(new Agent({ name: 'a', model, tools: [loginTool] }), 'Log in');
    const executing = events.find((e) => e.type === 'tool.executing');
    expect(JSON.stringify(executing)).not.toContain('hunter2-secret-value');
    expect(executing).toMatchObject({ args: { user: 'ann' } });
  });

  it('a throwing sink changes nothing: same result, same events for the other sink', async () => {
    const runOnce = async (extra: ((e: ProgressEvent) => void)[]): Promise<{ types: string[]; outcome: string }> => {
      const { events, sink } = collect();
      const model = scriptedModel(reader);
      const end = await withHeadway({ task: 'Find', sinks: [...extra, sink], maxIterations: 3, clock: manualClock() }).run(
        new Agent({ name: 'r', model, tools: [readTool] }),
        'Find',
      );
      return { types: events.map((e) => e.type), outcome: end.outcome };
    };
    const plain = await runOnce([]);
    const hostile = await runOnce([
      () => {
        throw new Error('sink on fire');
      },
    ]);
    expect(hostile).toEqual(plain);
  });

  it('a cancelled run ends with run.cancelled and a report', async () => {
    const { events, sink } = collect();
    const controller = new AbortController();
    const model = scriptedModel((call) => {
      if (call === 1) controller.abort(new Error('user pressed stop'));
      return { calls: [{ tool: 'read', input: { path: 'a.txt' } }] };
    });
    const end = await withHeadway({ task: 'Find', sinks: [sink], abortSignal: controller.signal }).run(
      new Agent({ name: 'r', model, tools: [readTool] }),
      'Find',
    );
    expect(end.outcome).toBe('cancelled');
    expect(end.report?.reason).toBe('cancelled');
    expect(events.at(-1)).toMatchObject({ type: 'run.cancelled', reason: 'user pressed stop' });
    expectOneTerminal(events);
  });

  it('a guardrail trip ends the run with run.error and a typed warning', async () => {
    const { events, sink } = collect();
    const agent = new Agent({
      name: 'guarded',
      model: scriptedModel(() => ({ text: 'hi' })),
      inputGuardrails: [{ name: 'no-homework', execute: () => Promise.resolve({ tripwireTriggered: true, outputInfo: {} }) }],
    });
    const end = await withHeadway({ task: 'Do my homework', sinks: [sink] }).run(agent, 'Do my homework');
    expect(end.outcome).toBe('error');
    expect(end.warnings).toEqual([{ code: 'guardrail-tripped', message: 'input guardrail no-homework tripped' }]);
    expectOneTerminal(events);
    expect(events.at(-1)?.type).toBe('run.error');
  });

  it('the time budget winds down at the next turn and ends with the report the agent writes without tools', async () => {
    const { events, sink } = collect();
    const clock = manualClock();
    const model = scriptedModel((call, request) => {
      if (call === 1) clock.advanceSync(40_000); // the second model call runs past the budget (not the grace)
      return reader(call, request);
    });
    const agent = new Agent({ name: 'reader', model, tools: [readTool] });
    const end = await withHeadway({ task: 'Find the config', sinks: [sink], maxIterations: 20, timeBudgetMs: 30_000, clock }).run(
      agent,
      'Find',
    );
    expect(end).toMatchObject({ outcome: 'limit', reason: 'time-budget', report: { generatedBy: 'model' } });
    expect(model.requests).toHaveLength(3);
    expect(model.requests[2]?.tools).toEqual([]);
    expect(userTexts(model.requests[2]!).at(-1)).toMatch(/^STOP: /);
    expect(events.filter((e) => e.type === 'wind-down.started' || e.type === 'limit.reached').map((e) => e.type)).toEqual([
      'limit.reached',
      'wind-down.started',
    ]);
    expectOneTerminal(events);
  });

  it('the hard stop aborts a report call that does not come back, and the report comes from the log', async () => {
    const clock = manualClock();
    const model = scriptedModel((call, request) => {
      if (call === 1) clock.advanceSync(35_000);
      if (call === 2) clock.advanceSync(30_000); // the report call outlives the grace
      return reader(call, request);
    });
    const agent = new Agent({ name: 'reader', model, tools: [readTool] });
    const end = await withHeadway({ task: 'Find', maxIterations: 20, timeBudgetMs: 30_000, hardStopAfterMs: 10_000, clock }).run(
      agent,
      'Find',
    );
    expect(end).toMatchObject({ outcome: 'limit', reason: 'time-budget' });
    expect(end.report?.generatedBy).toBe('fallback');
  });
});
