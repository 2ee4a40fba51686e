import {
  HeadwayError,
  NullReporter,
  createProgressHub,
  isTerminalEvent,
  progressEventSchema,
  type ProgressEvent,
  type ProgressReporter,
} from '@headway/protocol';
import { generateText, streamText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { manualClock, scriptedModel, tools, userTexts, type Script } from './scripted-model.test-util.js';
import { withHeadway } from './with-headway.js';

const MODEL_REPORT = [
  '## PROGRESS REPORT',
  '### Task',
  'Find the config',
  '### Completed Work',
  '- read a.txt',
  '### Key Findings',
  '- a.txt holds the token',
  '### Attempted but Inconclusive',
  'None.',
  '### Not Started / Remaining',
  '- read b.txt',
  '### Suggested Next Steps',
  '- read b.txt next',
].join('\n');

/** Calls `read` forever, except that a report prompt is answered with MODEL_REPORT. */
const reader: Script = (call, options) => {
  if (userTexts(options).some((t) => t.startsWith('STOP:'))) return { text: MODEL_REPORT };
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

describe('withHeadway', () => {
  it('drives the seed reporter in order for a two-step run', async () => {
    const calls: string[] = [];
    const reporter: ProgressReporter = {
      onStart: (task) => calls.push(`start ${task}`),
      onProgress: (pct, label) => calls.push(`progress ${String(pct)} ${label}`),
      onToolStart: (name) => calls.push(`tool ${name}`),
      onToolDone: (name, summary) => calls.push(`done ${name} ${summary}`),
      onIteration: (i, max) => calls.push(`iteration ${String(i)}/${String(max)}`),
      onComplete: (summary) => calls.push(`complete ${summary}`),
      onError: (error) => calls.push(`error ${error}`),
    };
    const run = withHeadway({ task: 'Read a.txt', sinks: [reporter], maxIterations: 5, runId: 'r1', clock: manualClock() });
    const model = scriptedModel((call) =>
      call === 0 ? { calls: [{ tool: 'read', input: { path: 'a.txt' } }] } : { text: 'a.txt says hi' },
    );
    const result = await generateText({ model, tools, prompt: 'Read a.txt', ...run.settings });
    const end = await run.finish();
    expect(result.text).toBe('a.txt says hi');
    expect(end).toEqual({ outcome: 'completed', warnings: [] });
    expect(calls).toMatchInlineSnapshot(`
      [
        "start Read a.txt",
        "iteration 0/5",
        "progress 32 ",
        "tool read",
        "done read ok",
        "progress 36 ",
        "iteration 1/5",
        "progress 54 ",
        "progress 100 ",
        "complete finished after 2 iteration(s)",
      ]
    `);
  });

  it('emits model-call facts and tool previews as the runtime does', async () => {
    const { events, sink } = collect();
    const run = withHeadway({
      task: 'Read',
      sinks: [sink],
      maxIterations: 5,
      costOf: (u) => (u.inputTokens + u.outputTokens) / 1000,
      sessionId: 's1',
    });
    const model = scriptedModel((call) =>
      call === 0
        ? {
            calls: [
              { tool: 'read', input: { path: 'a.txt' } },
              { tool: 'fail', input: {} },
            ],
          }
        : { text: 'done' },
    );
    await generateText({ model, tools, prompt: 'Read', ...run.settings });
    await run.finish();
    expectOneTerminal(events);
    expect(events.map((e) => e.type)).toMatchInlineSnapshot(`
      [
        "run.started",
        "iteration",
        "step.started",
        "progress",
        "tool.executing",
        "tool.executing",
        "tool.completed",
        "tool.completed",
        "step.finished",
        "progress",
        "iteration",
        "step.started",
        "step.finished",
        "progress",
        "progress",
        "run.finished",
      ]
    `);
    expect(events.find((e) => e.type === 'run.started')).toMatchObject({ task: 'Read', sessionId: 's1', limits: { iterations: 5 } });
    expect(events.find((e) => e.type === 'step.started')).toMatchObject({ step: 'llm-1', provider: 'mock-provider', model: 'mock-model' });
    expect(events.find((e) => e.type === 'step.finished')).toMatchObject({
      step: 'llm-1',
      usage: { inputTokens: 10, outputTokens: 5 },
      finishReason: 'tool_calls',
      costUsd: 0.015,
    });
    // The AI SDK runs a step's tools in parallel: compare them in name order.
    expect(
      events
        .filter((e) => e.type === 'tool.completed')
        .map((e) => [e.toolName, e.ok, e.preview])
        .sort(),
    ).toEqual([
      ['fail', false, 'disk on fire'],
      ['read', true, 'contents of a.txt'],
    ]);
    expect(events.filter((e) => e.type === 'progress').at(-1)).toMatchObject({ percent: 100 });
  });

  it("reads the model's _progress and reasoning, and keeps the _progress JSON out of the log", async () => {
    const { events, sink } = collect();
    const run = withHeadway({ task: 'Read', sinks: [sink], maxIterations: 2, clock: manualClock() });
    const model = new MockLanguageModelV3({
      doGenerate: [
        {
          content: [
            { type: 'reasoning', text: 'read a.txt first' },
            { type: 'text', text: 'Reading.\n```json\n{"_progress":{"percent":70,"message":"Reading a.txt"}}\n```' },
            { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: '{"path":"a.txt"}' },
          ],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
          warnings: [],
        },
        {
          content: [{ type: 'text', text: 'no report' }],
          finishReason: { unified: 'stop', raw: undefined },
          usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
          warnings: [],
        },
      ],
    });
    await generateText({ model, tools, prompt: 'Read', ...run.settings });
    const end = await run.finish();
    expect(events.find((e) => e.type === 'thinking')).toMatchObject({ content: 'read a.txt first' });
    expect(events.filter((e) => e.type === 'progress').map((e) => [e.percent, e.message])).toContainEqual([70, 'Reading a.txt']);
    expect(end.report?.generatedBy).toBe('fallback');
    expect(end.report?.keyFindings).toContain('Model note (iteration 1): Reading.');
  });

  it('at the iteration limit the model receives the report prompt in that step, without tools', async () => {
    const { events, sink } = collect();
    const run = withHeadway({ task: 'Find the config', sinks: [sink], maxIterations: 3 });
    const model = scriptedModel(reader);
    await generateText({ model, tools, prompt: 'Find the config', ...run.settings });
    const end = await run.finish();

    expect(model.doGenerateCalls).toHaveLength(3);
    const last = model.doGenerateCalls[2];
    const prompt = userTexts(last ?? { prompt: [] }).at(-1) ?? '';
    expect(prompt).toMatch(/^STOP: You have reached the iteration limit \(3 of 3\)\./);
    expect(prompt).toContain('[iteration 1] read({"path":"0.txt"}) → contents of 0.txt');
    expect(last?.toolChoice).toEqual({ type: 'none' });
    expect(last?.tools ?? []).toEqual([]);
    expect(model.doGenerateCalls.slice(0, 2).every((c) => userTexts(c).every((t) => !t.startsWith('STOP:')))).toBe(true);

    expect(end.outcome).toBe('limit');
    expect(end.reason).toBe('max-iterations');
    expect(end.report).toMatchObject({
      generatedBy: 'model',
      keyFindings: ['a.txt holds the token'],
      remaining: ['read b.txt'],
      stats: { iterations: 3, toolCalls: 2 },
    });
    expectOneTerminal(events);
    expect(
      events.filter((e) => e.type.startsWith('limit') || e.type === 'report.generated' || isTerminalEvent(e)).map((e) => e.type),
    ).toEqual(['limit.approaching', 'limit.reached', 'report.generated', 'run.finished']);
    // One iteration before the last, as headway's runtime warns.
    expect(events.find((e) => e.type === 'limit.approaching')).toMatchObject({ limit: 'iterations', used: 2, max: 3 });
    const approachingAt = events.findIndex((e) => e.type === 'limit.approaching');
    expect(
      events
        .slice(0, approachingAt)
        .filter((e) => e.type === 'iteration')
        .map((e) => e.index),
    ).toEqual([0, 1]);
  });

  it('a model that answers the report prompt with garbage still yields a fallback report and a warning', async () => {
    const run = withHeadway({ task: 'Find the config', maxIterations: 2 });
    const model = scriptedModel((call, options) =>
      userTexts(options).some((t) => t.startsWith('STOP:'))
        ? { text: '\u0000<<<garbage>>>' }
        : { calls: [{ tool: 'read', input: { path: `${String(call)}.txt` } }] },
    );
    await generateText({ model, tools, prompt: 'Find the config', ...run.settings });
    const end = await run.finish();
    expect(end.report).toMatchObject({
      generatedBy: 'fallback',
      reason: 'max-iterations',
      keyFindings: ['read({"path":"0.txt"}) → contents of 0.txt'],
    });
    expect(end.warnings).toEqual(["the model's report was not usable (no report sections found); built the report from the tool-call log"]);
  });

  it('a model that calls a tool in the report step still ends at the limit with a fallback report', async () => {
    const { events, sink } = collect();
    const run = withHeadway({ task: 'Find the config', sinks: [sink], maxIterations: 2 });
    const model = scriptedModel((call) => ({ calls: [{ tool: 'read', input: { path: `${String(call)}.txt` } }] }));
    const tracked = await run.track(generateText({ model, tools, prompt: 'Find the config', ...run.settings }));
    expect(tracked).toMatchObject({ outcome: 'limit', reason: 'max-iterations', report: { generatedBy: 'fallback' } });
    expect(tracked.warnings[0]).toMatch(
      /^the model's report step failed \(Model response contained a tool call even though tool choice was none\.\)/,
    );
    expectOneTerminal(events);
  });

  it('time budget, graceful: the next step is the report step', async () => {
    const clock = manualClock();
    const { events, sink } = collect();
    const run = withHeadway({ task: 'Find the config', sinks: [sink], timeBudgetMs: 10_000, clock });
    const model = scriptedModel((call, options) => {
      clock.advanceSync(4_000);
      return reader(call, options);
    });
    await generateText({ model, tools, prompt: 'Find the config', ...run.settings });
    const end = await run.finish();
    expect(end).toMatchObject({ outcome: 'limit', reason: 'time-budget', report: { generatedBy: 'model' } });
    expect(userTexts(model.doGenerateCalls.at(-1) as never).at(-1)).toMatch(/^STOP: Your time budget is used up/);
    expectOneTerminal(events);
    expect(events.filter((e) => ['limit.approaching', 'limit.reached', 'wind-down.started'].includes(e.type))).toMatchObject([
      { type: 'limit.approaching', limit: 'time' },
      { type: 'limit.reached', limit: 'time', max: 10_000 },
      { type: 'wind-down.started', reason: 'time-budget', graceIterations: 1 },
    ]);
  });

  it('time budget, hard stop: a step still running after the grace is aborted and the report comes from the log', async () => {
    const clock = manualClock();
    const { events, sink } = collect();
    const run = withHeadway({ task: 'Find the config', sinks: [sink], timeBudgetMs: 10_000, hardStopAfterMs: 1_000, clock });
    const model = scriptedModel((call, options) => {
      if (call < 2) {
        // The budget runs out during the second step (at 10 s), the hard stop is armed for 11 s.
        clock.advanceSync(call === 0 ? 6_000 : 4_500);
        return { calls: [{ tool: 'read', input: { path: `${String(call)}.txt` } }] };
      }
      // The report step hangs until aborted.
      return new Promise((_resolve, reject) => {
        options.abortSignal?.addEventListener('abort', () => {
          reject(options.abortSignal?.reason as Error);
        });
        clock.advanceSync(1_000);
      });
    });
    const tracked = await run.track(generateText({ model, tools, prompt: 'Find the config', maxRetries: 0, ...run.settings }));
    expect(tracked).toMatchObject({
      outcome: 'limit',
      reason: 'time-budget',
      report: { generatedBy: 'fallback', stats: { toolCalls: 2 } },
    });
    expect(HeadwayError.isInstance(tracked.error, 'AI_SDK_HARD_STOP')).toBe(true);
    expectOneTerminal(events);
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'limit' });
  });

  it('cost budget: no model call after the budget is spent; the report comes from the log', async () => {
    const { events, sink } = collect();
    const run = withHeadway({ task: 'Find the config', sinks: [sink], maxSpendUsd: 0.02, costOf: () => 0.01 });
    const model = scriptedModel(reader);
    await generateText({ model, tools, prompt: 'Find the config', ...run.settings });
    const end = await run.finish();
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(end).toMatchObject({ outcome: 'limit', reason: 'cost-budget', report: { generatedBy: 'fallback', stats: { costUsd: 0.02 } } });
    expectOneTerminal(events);
    expect(events.filter((e) => e.type === 'limit.reached')).toMatchObject([{ limit: 'cost', used: 0.02, max: 0.02 }]);
  });

  it('abort: run.cancelled with a report', async () => {
    const controller = new AbortController();
    const { events, sink } = collect();
    const run = withHeadway({ task: 'Find the config', sinks: [sink], abortSignal: controller.signal });
    const model = scriptedModel((call, options) => {
      if (call === 0) return { calls: [{ tool: 'read', input: { path: 'a.txt' } }] };
      return new Promise((_resolve, reject) => {
        options.abortSignal?.addEventListener('abort', () => {
          reject(options.abortSignal?.reason as Error);
        });
        controller.abort('user pressed stop');
      });
    });
    const tracked = await run.track(generateText({ model, tools, prompt: 'Find the config', maxRetries: 0, ...run.settings }));
    expect(tracked).toMatchObject({ outcome: 'cancelled', reason: 'cancelled', report: { generatedBy: 'fallback', reason: 'cancelled' } });
    expectOneTerminal(events);
    expect(events.slice(-2)).toMatchObject([{ type: 'report.generated' }, { type: 'run.cancelled', reason: 'user pressed stop' }]);
  });

  it('a throwing sink changes nothing', async () => {
    const a = collect();
    const b = collect();
    const script: Script = (call) => (call === 0 ? { calls: [{ tool: 'read', input: { path: 'a.txt' } }] } : { text: 'ok' });
    const clean = withHeadway({ task: 't', sinks: [a.sink], runId: 'x', clock: manualClock() });
    await generateText({ model: scriptedModel(script), tools, prompt: 't', ...clean.settings });
    await clean.finish();
    const throwing = withHeadway({
      task: 't',
      sinks: [
        () => {
          throw new Error('boom');
        },
        b.sink,
      ],
      runId: 'x',
      clock: manualClock(),
    });
    const result = await generateText({ model: scriptedModel(script), tools, prompt: 't', ...throwing.settings });
    expect(await throwing.finish()).toEqual({ outcome: 'completed', warnings: [] });
    expect(result.text).toBe('ok');
    // Tool durations come from the AI SDK's own timer; everything else is the same.
    const same = (e: ProgressEvent): unknown => (e.type === 'tool.completed' ? { ...e, durationMs: 0 } : e);
    expect(b.events.map(same)).toEqual(a.events.map(same));
    expect(throwing.hub.stats().sinkErrors).toBe(b.events.length);
  });

  it('works with streamText and a hub passed in', async () => {
    const hub = createProgressHub({ runId: 'stream' });
    const { events, sink } = collect();
    hub.add(sink);
    const run = withHeadway({ task: 'Find the config', hub, maxIterations: 2 });
    const model = scriptedModel(reader);
    const result = streamText({ model, tools, prompt: 'Find the config', ...run.settings });
    expect(await result.text).toBe(MODEL_REPORT);
    const end = await run.finish();
    expect(end).toMatchObject({ outcome: 'limit', report: { generatedBy: 'model' } });
    expect(userTexts(model.doStreamCalls.at(-1) as never).at(-1)).toMatch(/^STOP:/);
    expectOneTerminal(events);
  });

  it('with only NullReporters no event is built, and the report is still there', async () => {
    const run = withHeadway({ task: 'Find the config', sinks: [new NullReporter()], maxIterations: 2 });
    await generateText({ model: scriptedModel(reader), tools, prompt: 'Find the config', ...run.settings });
    expect(await run.finish()).toMatchObject({ outcome: 'limit', report: { generatedBy: 'model', stats: { toolCalls: 1 } } });
    expect(run.hub.lastSeq).toBe(0);
  });

  it('finish and fail are idempotent: one terminal event', async () => {
    const { events, sink } = collect();
    const run = withHeadway({ task: 't', sinks: [sink] });
    const first = await run.finish();
    expect(await run.fail(new Error('late'))).toBe(first);
    expectOneTerminal(events);
  });

  it('rejects bad options with an error naming the field', () => {
    expect(() => withHeadway({ task: 't', maxIterations: 0 })).toThrowErrorMatchingInlineSnapshot(
      `[AiSdkError: withHeadway: invalid options: maxIterations: must be at least 1]`,
    );
    expect(() => withHeadway({ task: 't', maxSpendUsd: 1 })).toThrowErrorMatchingInlineSnapshot(
      `[AiSdkError: withHeadway: invalid options: costOf: is required with maxSpendUsd]`,
    );
    expect(() => withHeadway({ task: '', timeBudgetMs: Number.NaN })).toThrowErrorMatchingInlineSnapshot(
      `[AiSdkError: withHeadway: invalid options: task: must be a non-empty string; timeBudgetMs: invalid input: expected number, received NaN]`,
    );
  });
});

describe('a step of unknown cost: the runtime’s rule (left out, counted, said once per model, never a stop)', () => {
  /** Calls `read` forever at 1,000,000 + 1,000,000 tokens a step ($2 at the price below), with `usage` as given. */
  const spender =
    (usage: readonly [number | undefined, number | undefined]): Script =>
    (call, options) => {
      if (userTexts(options).some((t) => t.startsWith('STOP:'))) return { text: MODEL_REPORT, usage };
      return { calls: [{ tool: 'read', input: { path: `${String(call)}.txt` } }], usage };
    };
  const dollarsPerMillion = (u: { inputTokens: number; outputTokens: number }): number => (u.inputTokens + u.outputTokens) / 1_000_000;
  const UNPRICED =
    'mock-provider/mock-model has no price: its calls are not counted against the cost limit of $1 (what they cost is unknown); have costOf price it';

  it.each([
    ['usage NaN', [Number.NaN, 1_000_000], dollarsPerMillion, 'usage', 'AI_SDK_UNKNOWN_USAGE'],
    ['usage missing', [undefined, undefined], dollarsPerMillion, 'usage', 'AI_SDK_UNKNOWN_USAGE'],
    ['usage negative', [-1_000_000, 1_000_000], dollarsPerMillion, 'usage', 'AI_SDK_UNKNOWN_USAGE'],
    ['costOf returning Infinity', [1_000_000, 1_000_000], () => Number.POSITIVE_INFINITY, 'costOf', 'AI_SDK_INVALID_COST'],
    ['costOf returning NaN', [1_000_000, 1_000_000], () => Number.NaN, 'costOf', 'AI_SDK_INVALID_COST'],
    [
      'costOf throwing',
      [1_000_000, 1_000_000],
      () => {
        throw new Error('price list offline');
      },
      'costOf',
      'AI_SDK_INVALID_COST',
    ],
  ] as const)(
    '%s: the budget of 1 USD does not stop the run; each step is told, the model is named once, the calls are counted',
    async (_name, usage, costOf, where, code) => {
      const { events, sink } = collect();
      const told: { code: string; where: string; message: string }[] = [];
      const run = withHeadway({
        task: 'Find the config',
        sinks: [sink],
        maxSpendUsd: 1,
        maxIterations: 3,
        costOf,
        onInternalError: (error, context) => {
          told.push({ code: (error as HeadwayError).code, where: context.where, message: (error as Error).message });
        },
      });
      const model = scriptedModel(spender(usage));
      await generateText({ model, tools, prompt: 'Find the config', ...run.settings });
      const end = await run.finish();
      // Two working steps and the report step: the iteration limit ended it, not the spend.
      expect(model.doGenerateCalls).toHaveLength(3);
      expect(end).toMatchObject({ outcome: 'limit', reason: 'max-iterations', report: { generatedBy: 'model' }, unpricedCalls: 3 });
      expect(end.warnings).toEqual([UNPRICED]);
      expect(end.report?.stats.costUsd).toBeUndefined();
      expectOneTerminal(events);
      expect(events.filter((e) => e.type === 'limit.reached')).toMatchObject([{ limit: 'iterations' }]);
      expect(events.filter((e) => e.type === 'limit.approaching').map((e) => e.limit)).not.toContain('cost');
      expect(told.map((t) => [t.code, t.where])).toEqual([
        [code, where],
        [code, where],
        [code, where],
      ]);
      expect(told[0]?.message).toMatch(/^step 1.*its cost is unknown; not counted against maxSpendUsd$/);
    },
  );

  it('the priced spend still stops the run at the cap; without a cap an unknown cost is only told', async () => {
    const capped = withHeadway({ task: 't', maxSpendUsd: 100, costOf: dollarsPerMillion });
    const model = scriptedModel((call) =>
      call < 3 ? { calls: [{ tool: 'read', input: { path: 'a' } }], usage: [1_000_000, 0] } : { text: 'done' },
    );
    await generateText({ model, tools, prompt: 't', ...capped.settings });
    expect(await capped.finish()).toMatchObject({ outcome: 'completed', unpricedCalls: 0 });
    expect(model.doGenerateCalls).toHaveLength(4);

    const spent = withHeadway({ task: 't', maxSpendUsd: 1, costOf: dollarsPerMillion });
    const costly = scriptedModel(spender([1_000_000, 1_000_000]));
    await generateText({ model: costly, tools, prompt: 't', ...spent.settings });
    expect(await spent.finish()).toMatchObject({ outcome: 'limit', reason: 'cost-budget', report: { generatedBy: 'fallback' } });
    expect(costly.doGenerateCalls).toHaveLength(1);

    const warnings: string[] = [];
    const uncapped = withHeadway({ task: 't', costOf: () => Number.NaN, onInternalError: (_e, { where }) => warnings.push(where) });
    const other = scriptedModel((call) => (call < 2 ? { calls: [{ tool: 'read', input: { path: 'a' } }] } : { text: 'done' }));
    await generateText({ model: other, tools, prompt: 't', ...uncapped.settings });
    expect(await uncapped.finish()).toEqual({ outcome: 'completed', warnings: [], unpricedCalls: 3 });
    expect(warnings).toEqual(['costOf', 'costOf', 'costOf']);
  });
});

describe('secrets in tool results (issue 31)', () => {
  const KEY = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123';
  const PASSWORD = 'hunter2-correct-horse-battery';
  const envTools = {
    env: tool({
      description: 'prints the environment',
      inputSchema: z.object({ password: z.string() }),
      execute: () => Promise.resolve(`OPENAI_API_KEY=${KEY}\nDB_PASSWORD=${PASSWORD}`),
    }),
  };
  const script: Script = (call) => (call === 0 ? { calls: [{ tool: 'env', input: { password: PASSWORD } }] } : { text: 'Rotated.' });

  it('no event carries the secret (preview and args); the model still gets the real result', async () => {
    const { events, sink } = collect();
    const run = withHeadway({ task: 'Rotate the keys', sinks: [sink] });
    const model = scriptedModel(script);
    await generateText({ model, tools: envTools, prompt: 'Rotate the keys', ...run.settings });
    await run.finish();
    const wire = JSON.stringify(events);
    expect(wire).not.toContain(KEY);
    expect(wire).not.toContain(PASSWORD);
    expect(events.find((e) => e.type === 'tool.completed')).toMatchObject({ preview: 'OPENAI_API_KEY=[REDACTED] DB_PASSWORD=[REDACTED]' });
    expect(JSON.stringify(model.doGenerateCalls[1]?.prompt)).toContain(KEY);
  });

  it('the tool-call log keeps the arguments the tool was called with, redacted once, as tool.executing showed them', async () => {
    // A tool that changes its input while it runs: the log used to read the changed object at the
    // call's end, so the report prompt named arguments the model never sent.
    const mutating = {
      env: tool({
        description: 'prints the environment',
        inputSchema: z.object({ path: z.string(), password: z.string() }),
        execute: (input: { path: string; password: string }) => {
          input.path = 'changed-by-the-tool';
          return Promise.resolve('done');
        },
      }),
    };
    const calling: Script = (call) =>
      call === 0 ? { calls: [{ tool: 'env', input: { path: 'a.ts', password: PASSWORD } }] } : { text: 'Rotated.' };
    for (const quiet of [false, true]) {
      const { events, sink } = collect();
      const run = withHeadway({ task: 'Rotate the keys', sinks: [quiet ? new NullReporter() : sink], maxIterations: 2 });
      const model = scriptedModel(calling);
      await generateText({ model, tools: mutating, prompt: 'Rotate the keys', ...run.settings });
      await run.finish();
      const logged = userTexts(model.doGenerateCalls[1]!).join('\n');
      expect(logged).toContain('env({"path":"a.ts","password":"[REDACTED]"}) → done');
      expect(logged).not.toContain(PASSWORD);
      expect(logged).not.toContain('changed-by-the-tool');
      if (!quiet) expect(events.find((e) => e.type === 'tool.executing')).toMatchObject({ args: { path: 'a.ts', password: '[REDACTED]' } });
    }
  });

  it('redact: false is the one opt-out', async () => {
    const { events, sink } = collect();
    const run = withHeadway({ task: 'Rotate the keys', sinks: [sink], redact: false });
    await generateText({ model: scriptedModel(script), tools: envTools, prompt: 'Rotate the keys', ...run.settings });
    await run.finish();
    expect(JSON.stringify(events)).toContain(KEY);
    expect(() => withHeadway({ task: 't', redact: true as unknown as false })).toThrow(/redact: must be false/);
  });

  it('hands the AI SDK a signal only when something can fire it: your abortSignal, the time budget, or both', () => {
    expect('abortSignal' in withHeadway({ task: 't', clock: manualClock() }).settings).toBe(false);
    const yours = new AbortController();
    expect(withHeadway({ task: 't', abortSignal: yours.signal, clock: manualClock() }).settings.abortSignal).toBe(yours.signal);
    const budgeted = withHeadway({ task: 't', timeBudgetMs: 1000, clock: manualClock() }).settings.abortSignal;
    expect(budgeted?.aborted).toBe(false);
    const both = withHeadway({ task: 't', timeBudgetMs: 1000, abortSignal: yours.signal, clock: manualClock() }).settings.abortSignal;
    yours.abort(new Error('stop'));
    expect(both?.aborted).toBe(true);
  });
});

describe('every event of a run, byte for byte (the hooks are a hot path: a faster one must not change a byte)', () => {
  const KEY = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123';
  const usage = { inputTokens: { total: 7, noCache: 7, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 3, text: 3, reasoning: 0 } };
  /** Reasoning, `_progress`, a secret in args and result, a failing call, a repeated call (a stall the policy nudges), then the report step. */
  function model(clock: ReturnType<typeof manualClock>): MockLanguageModelV3 {
    const call = (id: string, name: string, input: unknown) => ({
      type: 'tool-call' as const,
      toolCallId: id,
      toolName: name,
      input: JSON.stringify(input),
    });
    const steps = [
      [
        { type: 'reasoning' as const, text: 'read a.txt first' },
        { type: 'text' as const, text: 'Reading.\n```json\n{"_progress":{"percent":40,"message":"Reading a.txt"}}\n```' },
        call('c1', 'read', { path: 'a.txt', apiKey: KEY }),
      ],
      [call('c2', 'fail', {})],
      [call('c3', 'read', { path: 'a.txt', apiKey: KEY })],
      [call('c4', 'read', { path: 'a.txt', apiKey: KEY })],
      [{ type: 'text' as const, text: MODEL_REPORT }],
    ];
    let n = 0;
    return new MockLanguageModelV3({
      doGenerate: () => {
        clock.advanceSync(25);
        const content = steps[Math.min(n++, steps.length - 1)] ?? [];
        const calls = content.some((c) => c.type === 'tool-call');
        return Promise.resolve({ content, finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: undefined }, usage, warnings: [] });
      },
    });
  }
  const secretTools = {
    read: tool({
      description: 'reads a file',
      inputSchema: z.object({ path: z.string(), apiKey: z.string() }),
      execute: ({ path }) => Promise.resolve({ path, text: `token=${KEY}` }),
    }),
    fail: tools.fail,
  };

  it('the same events, in the same order, with the same fields, and the same result', async () => {
    const clock = manualClock();
    const { events, sink } = collect();
    const run = withHeadway({
      task: 'Find the config',
      sinks: [sink],
      runId: 'run-1',
      maxIterations: 5,
      clock,
      costOf: (u) => (u.inputTokens + u.outputTokens) / 1000,
      stallPolicy: 'nudge',
      stall: { repeatedCall: 2 },
    });
    await generateText({ model: model(clock), tools: secretTools, prompt: 'Find the config', ...run.settings });
    const end = await run.finish();
    // A tool's own duration is the AI SDK's wall clock: the one field not on the manual clock.
    const lines = events.map((e) => JSON.stringify(e.type === 'tool.completed' ? { ...e, durationMs: 0 } : e));
    expect(lines).toMatchInlineSnapshot(`
      [
        "{"type":"run.started","agentName":"ai-sdk-agent","task":"Find the config","limits":{"iterations":5},"runId":"run-1","seq":1,"ts":1000}",
        "{"type":"iteration","index":0,"max":5,"runId":"run-1","seq":2,"ts":1000}",
        "{"type":"step.started","step":"llm-1","description":"model call","provider":"mock-provider","model":"mock-model-id","runId":"run-1","seq":3,"ts":1000}",
        "{"type":"progress","percent":32,"runId":"run-1","seq":4,"ts":1025}",
        "{"type":"tool.executing","toolName":"read","toolCallId":"c1","args":{"path":"a.txt","apiKey":"[REDACTED]"},"runId":"run-1","seq":5,"ts":1025}",
        "{"type":"tool.completed","toolName":"read","toolCallId":"c1","durationMs":0,"ok":true,"preview":"{\\"path\\":\\"a.txt\\",\\"text\\":\\"token=[REDACTED]\\"}","runId":"run-1","seq":6,"ts":1025}",
        "{"type":"step.finished","step":"llm-1","durationMs":25,"usage":{"inputTokens":7,"outputTokens":3},"finishReason":"tool_calls","costUsd":0.01,"runId":"run-1","seq":7,"ts":1025}",
        "{"type":"thinking","content":"read a.txt first","runId":"run-1","seq":8,"ts":1025}",
        "{"type":"progress","percent":40,"message":"Reading a.txt","runId":"run-1","seq":9,"ts":1025}",
        "{"type":"iteration","index":1,"max":5,"runId":"run-1","seq":10,"ts":1025}",
        "{"type":"progress","percent":43,"message":"Reading a.txt","runId":"run-1","seq":11,"ts":1025}",
        "{"type":"step.started","step":"llm-2","description":"model call","provider":"mock-provider","model":"mock-model-id","runId":"run-1","seq":12,"ts":1025}",
        "{"type":"tool.executing","toolName":"fail","toolCallId":"c2","args":{},"runId":"run-1","seq":13,"ts":1050}",
        "{"type":"tool.completed","toolName":"fail","toolCallId":"c2","durationMs":0,"ok":false,"preview":"disk on fire","runId":"run-1","seq":14,"ts":1050}",
        "{"type":"step.finished","step":"llm-2","durationMs":25,"usage":{"inputTokens":7,"outputTokens":3},"finishReason":"tool_calls","costUsd":0.01,"runId":"run-1","seq":15,"ts":1050}",
        "{"type":"iteration","index":2,"max":5,"runId":"run-1","seq":16,"ts":1050}",
        "{"type":"progress","percent":45,"message":"Reading a.txt","etaMs":33,"etaLowMs":9,"etaHighMs":127,"runId":"run-1","seq":17,"ts":1050}",
        "{"type":"step.started","step":"llm-3","description":"model call","provider":"mock-provider","model":"mock-model-id","runId":"run-1","seq":18,"ts":1050}",
        "{"type":"tool.executing","toolName":"read","toolCallId":"c3","args":{"path":"a.txt","apiKey":"[REDACTED]"},"runId":"run-1","seq":19,"ts":1075}",
        "{"type":"tool.completed","toolName":"read","toolCallId":"c3","durationMs":0,"ok":true,"preview":"{\\"path\\":\\"a.txt\\",\\"text\\":\\"token=[REDACTED]\\"}","runId":"run-1","seq":20,"ts":1075}",
        "{"type":"step.finished","step":"llm-3","durationMs":25,"usage":{"inputTokens":7,"outputTokens":3},"finishReason":"tool_calls","costUsd":0.01,"runId":"run-1","seq":21,"ts":1075}",
        "{"type":"iteration","index":3,"max":5,"runId":"run-1","seq":22,"ts":1075}",
        "{"type":"limit.approaching","limit":"iterations","used":4,"max":5,"runId":"run-1","seq":23,"ts":1075}",
        "{"type":"progress","percent":47,"message":"Reading a.txt","etaMs":24,"etaLowMs":6,"etaHighMs":93,"runId":"run-1","seq":24,"ts":1075}",
        "{"type":"step.started","step":"llm-4","description":"model call","provider":"mock-provider","model":"mock-model-id","runId":"run-1","seq":25,"ts":1075}",
        "{"type":"tool.executing","toolName":"read","toolCallId":"c4","args":{"path":"a.txt","apiKey":"[REDACTED]"},"runId":"run-1","seq":26,"ts":1100}",
        "{"type":"tool.completed","toolName":"read","toolCallId":"c4","durationMs":0,"ok":true,"preview":"{\\"path\\":\\"a.txt\\",\\"text\\":\\"token=[REDACTED]\\"}","runId":"run-1","seq":27,"ts":1100}",
        "{"type":"stall.detected","kind":"repeated-call","evidence":{"toolCallIds":["c3","c4"],"subject":"read a.txt","repeats":2},"since":2,"runId":"run-1","seq":28,"ts":1100}",
        "{"type":"progress","percent":47,"message":"Reading a.txt","runId":"run-1","seq":29,"ts":1100}",
        "{"type":"step.finished","step":"llm-4","durationMs":25,"usage":{"inputTokens":7,"outputTokens":3},"finishReason":"tool_calls","costUsd":0.01,"runId":"run-1","seq":30,"ts":1100}",
        "{"type":"iteration","index":4,"max":5,"runId":"run-1","seq":31,"ts":1100}",
        "{"type":"limit.reached","limit":"iterations","used":5,"max":5,"runId":"run-1","seq":32,"ts":1100}",
        "{"type":"step.started","step":"llm-5","description":"model call (no tools)","provider":"mock-provider","model":"mock-model-id","runId":"run-1","seq":33,"ts":1100}",
        "{"type":"step.finished","step":"llm-5","durationMs":25,"usage":{"inputTokens":7,"outputTokens":3},"finishReason":"stop","costUsd":0.01,"runId":"run-1","seq":34,"ts":1125}",
        "{"type":"report.generated","report":{"task":"Find the config","reason":"max-iterations","completedWork":["read a.txt"],"keyFindings":["a.txt holds the token"],"attemptedInconclusive":[],"remaining":["read b.txt"],"suggestedNextSteps":["read b.txt next"],"stats":{"iterations":5,"toolCalls":4,"elapsedMs":125,"costUsd":0.05},"generatedBy":"model"},"runId":"run-1","seq":35,"ts":1125}",
        "{"type":"run.finished","durationMs":125,"outcome":"limit","summary":"stopped at the iterations limit after 5 iteration(s); progress report attached","runId":"run-1","seq":36,"ts":1125}",
      ]
    `);
    expect(JSON.stringify(end)).toMatchInlineSnapshot(
      `"{"outcome":"limit","reason":"max-iterations","report":{"task":"Find the config","reason":"max-iterations","completedWork":["read a.txt"],"keyFindings":["a.txt holds the token"],"attemptedInconclusive":[],"remaining":["read b.txt"],"suggestedNextSteps":["read b.txt next"],"stats":{"iterations":5,"toolCalls":4,"elapsedMs":125,"costUsd":0.05},"generatedBy":"model"},"warnings":[],"unpricedCalls":0}"`,
    );
  });
});
