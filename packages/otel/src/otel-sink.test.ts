import { AgentRuntime, defineTool, type Tool } from '@headway/runtime';
import { ScriptedProvider, type ScriptedStep } from '@headway/runtime/testing';
import { createProgressHub, systemClock, type ProgressEvent } from '@headway/protocol';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOtelSink, type OtelSinkErrorContext, type OtelSinkOptions } from './otel-sink.js';
import { FakeClock, metricPoints, outline, spanTrees, telemetry, type SpanView } from './otel.test-util.js';

const START = 1_767_225_600_000; // 2026-01-01T00:00:00Z

function setup(options: Partial<OtelSinkOptions> = {}) {
  const t = telemetry();
  const errors: [unknown, OtelSinkErrorContext][] = [];
  const sink = createOtelSink({
    tracer: t.tracerProvider.getTracer('test'),
    meter: t.meterProvider.getMeter('test'),
    onInternalError: (error, context) => errors.push([error, context]),
    ...options,
  });
  const clock = new FakeClock(START);
  const trees = (): SpanView[] => spanTrees(t.exporter.getFinishedSpans(), START);
  return { ...t, sink, errors, clock, trees };
}

function ids(): () => string {
  let n = 0;
  return () => `id-${String(++n)}`;
}

/** A tool that takes `ms` on the fake clock. */
function timedTool(clock: FakeClock, name: string, ms: number, result: (args: { q: string }) => string = ({ q }) => `${name}: ${q}`): Tool {
  return defineTool({
    name,
    description: `The ${name} tool`,
    parameters: z.object({ q: z.string() }),
    execute: (args) => {
      clock.advance(ms);
      return result(args);
    },
  });
}

/** A scripted model whose every call takes `ms` on the fake clock. */
function model(clock: FakeClock, ms: number, next: (call: number, toolsOffered: number) => ScriptedStep): ScriptedProvider {
  return new ScriptedProvider((_conversation, request, call) => {
    clock.advance(ms);
    return next(call, request.tools.length);
  });
}

function runSpanOf(trees: SpanView[]): SpanView {
  expect(trees).toHaveLength(1);
  return trees[0]!;
}

describe('createOtelSink: one trace per run, from real runtime events', () => {
  it('a two-tool run: invoke_agent with chat and execute_tool children, usage, progress and metrics', async () => {
    const s = setup();
    const provider = model(s.clock, 400, (call) =>
      call === 0
        ? {
            toolCalls: [
              { id: 'call-search', name: 'search', args: { q: 'otel' } },
              { id: 'call-read', name: 'read', args: { q: 'README.md' } },
            ],
            usage: { inputTokens: 120, outputTokens: 24 },
          }
        : { content: 'The README explains headway.', usage: { inputTokens: 300, outputTokens: 12 } },
    );
    const runtime = new AgentRuntime(
      { provider: 'scripted', model: 'gpt-4o-mini', agentName: 'researcher', maxIterations: 5 },
      {
        provider,
        tools: [timedTool(s.clock, 'search', 150), timedTool(s.clock, 'read', 50)],
        sinks: [s.sink],
        clock: s.clock,
        generateId: ids(),
      },
    );
    const result = await runtime.run('What does the README say?', { sessionId: 'session-7' });
    expect(result.status).toBe('completed');
    expect(s.errors).toEqual([]);
    expect(s.sink.openRuns).toBe(0);
    const run = runSpanOf(s.trees());
    expect(outline([run])).toEqual([
      'invoke_agent researcher [INTERNAL] OK',
      '  chat gpt-4o-mini [CLIENT] UNSET',
      '  execute_tool search [INTERNAL] UNSET',
      '  execute_tool read [INTERNAL] UNSET',
      '  chat gpt-4o-mini [CLIENT] UNSET',
    ]);
    expect(run).toMatchObject({ startMs: 0, endMs: 1000 });
    expect(run.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'researcher',
      'gen_ai.conversation.id': 'session-7',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.usage.input_tokens': 420,
      'gen_ai.usage.output_tokens': 36,
      'headway.run.id': 'id-1',
      'headway.run.outcome': 'completed',
      'headway.iterations.used': 2,
      'headway.iterations.max': 5,
      'headway.time.used_ms': 1000,
      'headway.cost.used_usd': expect.closeTo((420 * 0.15 + 36 * 0.6) / 1e6, 12) as unknown,
      'headway.progress.percent': 100,
    });
    const [chat1, search, read, chat2] = run.children;
    expect(chat1).toMatchObject({
      startMs: 0,
      endMs: 400,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'scripted',
        'gen_ai.request.model': 'gpt-4o-mini',
        'gen_ai.usage.input_tokens': 120,
        'gen_ai.usage.output_tokens': 24,
        'gen_ai.response.finish_reasons': ['tool_calls'],
        'headway.step': 'llm-1',
        'headway.iteration': 0,
      },
    });
    expect(search).toEqual({
      name: 'execute_tool search',
      kind: 'INTERNAL',
      status: 'UNSET',
      startMs: 400,
      endMs: 550,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'search',
        'gen_ai.tool.call.id': 'call-search',
        'gen_ai.tool.type': 'function',
        'headway.iteration': 0,
        'headway.tool.outcome': 'ok',
      },
      events: [],
      children: [],
    });
    expect(read).toMatchObject({
      startMs: 550,
      endMs: 600,
      attributes: { 'gen_ai.tool.call.id': 'call-read', 'headway.tool.outcome': 'ok' },
    });
    expect(chat2).toMatchObject({
      startMs: 600,
      endMs: 1000,
      attributes: { 'gen_ai.response.finish_reasons': ['stop'], 'headway.iteration': 1, 'headway.step': 'llm-2' },
    });
    // Message contents are off by default: no task, arguments, results or text anywhere.
    const everything = JSON.stringify(s.trees());
    for (const secret of ['What does the README', 'otel"', 'README.md', 'explains']) expect(everything).not.toContain(secret);
    // Progress goes on the run span as events, in order, ending at 100.
    const progress = run.events.filter((e) => e.name === 'headway.progress').map((e) => e.attributes['headway.progress.percent']);
    expect(progress.at(-1)).toBe(100);
    expect([...progress].sort((a, b) => Number(a) - Number(b))).toEqual(progress);

    expect(await metricPoints(s.reader, 'gen_ai.client.token.usage')).toEqual([
      [
        {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'scripted',
          'gen_ai.request.model': 'gpt-4o-mini',
          'gen_ai.token.type': 'input',
        },
        { count: 2, sum: 420 },
      ],
      [
        {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'scripted',
          'gen_ai.request.model': 'gpt-4o-mini',
          'gen_ai.token.type': 'output',
        },
        { count: 2, sum: 36 },
      ],
    ]);
    expect(await metricPoints(s.reader, 'gen_ai.client.operation.duration')).toEqual([
      [
        { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'scripted', 'gen_ai.request.model': 'gpt-4o-mini' },
        { count: 2, sum: 0.8 },
      ],
    ]);
    expect(await metricPoints(s.reader, 'gen_ai.execute_tool.duration')).toEqual([
      [
        { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search', 'headway.tool.outcome': 'ok' },
        { count: 1, sum: 0.15 },
      ],
      [
        { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'read', 'headway.tool.outcome': 'ok' },
        { count: 1, sum: 0.05 },
      ],
    ]);
    const runAttributes = {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'researcher',
      'headway.run.outcome': 'completed',
    };
    expect(await metricPoints(s.reader, 'gen_ai.invoke_agent.duration')).toEqual([[runAttributes, { count: 1, sum: 1 }]]);
    expect(await metricPoints(s.reader, 'headway.run.iterations')).toEqual([[runAttributes, { count: 1, sum: 2 }]]);
    expect(await metricPoints(s.reader, 'headway.runs')).toEqual([[runAttributes, 1]]);
  });

  it('the iteration limit: the last call has no tools, the run span says limit, with the limit events and the report', async () => {
    const s = setup();
    const provider = model(s.clock, 100, (call, tools) =>
      tools > 0
        ? {
            toolCalls: [{ id: `c${String(call)}`, name: 'search', args: { q: String(call) } }],
            usage: { inputTokens: 10, outputTokens: 5 },
          }
        : { content: 'Out of iterations.', usage: { inputTokens: 10, outputTokens: 5 } },
    );
    const runtime = new AgentRuntime(
      { provider: 'scripted', agentName: 'looper', maxIterations: 2 },
      { provider, tools: [timedTool(s.clock, 'search', 10)], sinks: [s.sink], clock: s.clock, generateId: ids() },
    );
    expect((await runtime.run('Loop')).status).toBe('limit');
    const run = runSpanOf(s.trees());
    expect(outline([run])).toEqual([
      'invoke_agent looper [INTERNAL] ERROR: stopped at the iterations limit',
      '  chat [CLIENT] UNSET',
      '  execute_tool search [INTERNAL] UNSET',
      '  chat [CLIENT] UNSET',
    ]);
    expect(run.attributes).toMatchObject({
      'headway.run.outcome': 'limit',
      'headway.run.limit': 'iterations',
      'headway.run.stop_reason': 'max-iterations',
      'headway.iterations.used': 2,
      'headway.iterations.max': 2,
      'error.type': 'limit',
    });
    expect(run.attributes).not.toHaveProperty('gen_ai.request.model');
    expect(run.events.filter((e) => e.name !== 'headway.progress')).toEqual([
      {
        name: 'headway.limit.approaching',
        atMs: 0,
        attributes: { 'headway.limit': 'iterations', 'headway.limit.used': 1, 'headway.limit.max': 2 },
      },
      {
        name: 'headway.limit.reached',
        atMs: 110,
        attributes: { 'headway.limit': 'iterations', 'headway.limit.used': 2, 'headway.limit.max': 2 },
      },
      {
        name: 'headway.report.generated',
        atMs: 210,
        // "Out of iterations." is no report: the fallback one is built from the tool-call log.
        attributes: {
          'headway.report.reason': 'max-iterations',
          'headway.report.generated_by': 'fallback',
          'headway.report.completed_work': 1,
          'headway.report.remaining': 1,
          'headway.report.suggested_next_steps': 1,
        },
      },
    ]);
    expect(await metricPoints(s.reader, 'headway.runs')).toEqual([
      [
        { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'looper', 'headway.run.outcome': 'limit', 'error.type': 'limit' },
        1,
      ],
    ]);
  });

  it('the time limit: approaching at 80%, reached, wind-down, then the report round', async () => {
    const s = setup();
    const provider = model(s.clock, 1_000, (call, tools) =>
      tools > 0 ? { toolCalls: [{ id: `c${String(call)}`, name: 'work', args: { q: 'x' } }] } : { content: 'Report: ran out of time.' },
    );
    const runtime = new AgentRuntime(
      { provider: 'scripted', agentName: 'slow', maxIterations: 10, timeBudgetMs: 60_000, graceIterations: 1 },
      { provider, tools: [timedTool(s.clock, 'work', 30_000)], sinks: [s.sink], clock: s.clock, generateId: ids() },
    );
    expect((await runtime.run('Work slowly')).status).toBe('limit');
    const run = runSpanOf(s.trees());
    expect(outline([run])).toEqual([
      'invoke_agent slow [INTERNAL] ERROR: stopped at the time limit',
      '  chat [CLIENT] UNSET',
      '  execute_tool work [INTERNAL] UNSET',
      '  chat [CLIENT] UNSET',
      '  execute_tool work [INTERNAL] UNSET',
      '  chat [CLIENT] UNSET',
    ]);
    expect(run.attributes).toMatchObject({
      'headway.run.outcome': 'limit',
      'headway.run.limit': 'time',
      'headway.run.stop_reason': 'time-budget',
      'headway.time.budget_ms': 60_000,
      'headway.time.used_ms': 63_000,
    });
    expect(run.events.filter((e) => e.name !== 'headway.progress').map((e) => [e.name, e.atMs, e.attributes])).toEqual([
      ['headway.limit.approaching', 48_000, { 'headway.limit': 'time', 'headway.limit.used': 48_000, 'headway.limit.max': 60_000 }],
      ['headway.limit.reached', 60_000, { 'headway.limit': 'time', 'headway.limit.used': 60_000, 'headway.limit.max': 60_000 }],
      ['headway.wind_down.started', 60_000, { 'headway.wind_down.reason': 'time-budget', 'headway.wind_down.grace_iterations': 1 }],
      ['headway.report.generated', 63_000, expect.objectContaining({ 'headway.report.reason': 'time-budget' })],
    ]);
  });

  it('a model with no price under a cost limit: its calls have no cost, and the run span counts them as unpriced, not $0', async () => {
    const s = setup();
    const provider = model(s.clock, 200, (call) =>
      call < 2
        ? { toolCalls: [{ id: `c${String(call)}`, name: 'search', args: { q: 'x' } }], usage: { inputTokens: 10, outputTokens: 1 } }
        : { content: 'done' },
    );
    const runtime = new AgentRuntime(
      { provider: 'scripted', model: 'in-house-model', agentName: 'spender', maxIterations: 10, maxSpendUsd: 0.001 },
      { provider, tools: [timedTool(s.clock, 'search', 10)], sinks: [s.sink], clock: s.clock, generateId: ids() },
    );
    expect((await runtime.run('Spend')).status).toBe('completed');
    const run = runSpanOf(s.trees());
    expect([
      run.attributes['headway.cost.used_usd'],
      run.attributes['headway.cost.unpriced_calls'],
      run.attributes['headway.cost.max_usd'],
    ]).toEqual([undefined, 3, 0.001]);
    expect(run.children.filter((c) => c.name.startsWith('chat')).map((c) => c.attributes['headway.cost.usd'])).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('the cost limit: the spend crosses the cap, the next call is refused, the run span has spend used and max', async () => {
    const s = setup();
    const provider = model(s.clock, 200, (call) => ({
      toolCalls: [{ id: `c${String(call)}`, name: 'search', args: { q: 'x' } }],
      usage: { inputTokens: 10_000, outputTokens: 100 },
    }));
    const runtime = new AgentRuntime(
      { provider: 'scripted', model: 'gpt-4o-mini', agentName: 'spender', maxIterations: 10, maxSpendUsd: 0.001 },
      { provider, tools: [timedTool(s.clock, 'search', 10)], sinks: [s.sink], clock: s.clock, generateId: ids() },
    );
    expect((await runtime.run('Spend')).status).toBe('limit');
    const run = runSpanOf(s.trees());
    expect(outline([run])).toEqual([
      'invoke_agent spender [INTERNAL] ERROR: stopped at the cost limit',
      '  chat gpt-4o-mini [CLIENT] UNSET',
      '  execute_tool search [INTERNAL] UNSET',
    ]);
    const spent = (10_000 * 0.15 + 100 * 0.6) / 1e6;
    expect(run.attributes).toMatchObject({
      'headway.run.outcome': 'limit',
      'headway.run.limit': 'cost',
      'headway.run.stop_reason': 'cost-budget',
      'headway.cost.max_usd': 0.001,
    });
    expect(run.attributes['headway.cost.used_usd']).toBeCloseTo(spent, 12);
    expect(run.attributes['headway.cost.unpriced_calls']).toBeUndefined();
    expect(run.children[0]!.attributes['headway.cost.usd']).toBeCloseTo(spent, 12);
    expect(
      run.events
        .filter((e) => e.name.startsWith('headway.limit'))
        .map((e) => [e.name, e.attributes['headway.limit'], e.attributes['headway.limit.max']]),
    ).toEqual([
      ['headway.limit.approaching', 'cost', 0.001],
      ['headway.limit.reached', 'cost', 0.001],
    ]);
  });

  it('a cancelled run: the tool in flight ends with an error status, the run span says cancelled', async () => {
    const s = setup();
    const controller = new AbortController();
    const stop = defineTool({
      name: 'stop',
      description: 'Presses stop',
      parameters: z.object({}),
      execute: () => {
        s.clock.advance(5);
        controller.abort('the user pressed stop');
        return 'never seen';
      },
    });
    const provider = model(s.clock, 100, () => ({ toolCalls: [{ id: 'c-stop', name: 'stop', args: {} }] }));
    const runtime = new AgentRuntime(
      { provider: 'scripted', agentName: 'stoppable' },
      { provider, tools: [stop], sinks: [s.sink], clock: s.clock, generateId: ids() },
    );
    expect((await runtime.run('Go', { signal: controller.signal })).status).toBe('cancelled');
    const run = runSpanOf(s.trees());
    expect(outline([run])).toEqual([
      'invoke_agent stoppable [INTERNAL] ERROR: cancelled: the user pressed stop',
      '  chat [CLIENT] UNSET',
      '  execute_tool stop [INTERNAL] ERROR: the run ended (cancelled) before this finished',
    ]);
    expect(run.attributes).toMatchObject({
      'headway.run.outcome': 'cancelled',
      'error.type': 'cancelled',
      'headway.run.stop_reason': 'cancelled',
    });
    expect(run.children[1]).toMatchObject({
      startMs: 100,
      endMs: 105,
      attributes: { 'error.type': 'interrupted', 'gen_ai.tool.call.id': 'c-stop' },
    });
  });

  it('an errored run: the failed model call ends with an error status, the run span carries the (redacted) error', async () => {
    const s = setup();
    const provider = model(s.clock, 100, (call) =>
      call === 0
        ? { toolCalls: [{ id: 'c1', name: 'search', args: { q: 'x' } }] }
        : { error: new Error('upstream said no (key sk-abcdefghijklmnopqrstuvwxyz123456)') },
    );
    const runtime = new AgentRuntime(
      { provider: 'scripted', agentName: 'fragile' },
      { provider, tools: [timedTool(s.clock, 'search', 10)], sinks: [s.sink], clock: s.clock, generateId: ids(), retry: { maxRetries: 0 } },
    );
    expect((await runtime.run('Go')).status).toBe('error');
    const run = runSpanOf(s.trees());
    expect(outline([run]).map((l) => l.replace(/sk-\w+/, 'sk-…'))).toEqual([
      expect.stringMatching(/^invoke_agent fragile \[INTERNAL\] ERROR: .*upstream said no \(key \[REDACTED\]\)/) as unknown,
      '  chat [CLIENT] UNSET',
      '  execute_tool search [INTERNAL] UNSET',
      '  chat [CLIENT] ERROR: the run ended (failed) before this finished',
    ]);
    expect(JSON.stringify(run)).not.toContain('sk-abcdefghijklmnopqrstuvwxyz123456');
    expect(run.attributes).toMatchObject({ 'headway.run.outcome': 'failed', 'error.type': '_OTHER', 'headway.run.stop_reason': 'error' });
  });
});

describe('createOtelSink: the run-state vocabulary', () => {
  function ended(finish: Parameters<ReturnType<typeof createProgressHub>['emit']>[0]) {
    const t = telemetry();
    const sink = createOtelSink({ tracer: t.tracerProvider.getTracer('test'), meter: false });
    const hub = createProgressHub({ runId: 'run-v', clock: { ...systemClock, now: () => START } });
    hub.add(sink);
    hub.emit({ type: 'run.started', agentName: 'worder' });
    hub.emit(finish);
    const run = spanTrees(t.exporter.getFinishedSpans(), START)[0]!;
    return { outline: outline([run])[0], attributes: run.attributes };
  }

  it('says the same state words as every other part: stalled, which limit, failed', () => {
    const stalled = ended({ type: 'run.finished', durationMs: 1, outcome: 'limit', stopReason: 'stalled' });
    expect(stalled.outline).toBe('invoke_agent worder [INTERNAL] ERROR: stalled: wound down as stuck');
    expect(stalled.attributes).toMatchObject({ 'headway.run.outcome': 'stalled', 'error.type': 'stalled' });
    const cost = ended({ type: 'run.finished', durationMs: 1, outcome: 'limit', stopReason: 'cost-budget' });
    expect(cost.outline).toBe('invoke_agent worder [INTERNAL] ERROR: stopped at the cost limit');
    expect(cost.attributes).toMatchObject({ 'headway.run.outcome': 'limit', 'headway.run.limit': 'cost', 'error.type': 'limit' });
    expect(ended({ type: 'run.error', error: 'boom' }).attributes).toMatchObject({ 'headway.run.outcome': 'failed' });
    expect(ended({ type: 'run.cancelled' }).attributes).toMatchObject({ 'headway.run.outcome': 'cancelled' });
  });
});

describe('createOtelSink: a run resumed from a checkpoint', () => {
  // The runtime's resume continues the run id and seq in a new hub, without run.started; here
  // the two processes are two hubs and two sinks.
  function firstProcess(sink: ReturnType<typeof createOtelSink>) {
    const hub = createProgressHub({ runId: 'run-r', clock: { ...systemClock, now: () => START } });
    hub.add(sink);
    hub.emit({ type: 'run.started', agentName: 'resumable', sessionId: 's-1', limits: { iterations: 10 } });
    hub.emit({ type: 'iteration', index: 0, max: 10 });
    hub.emit({ type: 'step.started', step: 'llm-1', provider: 'openai', model: 'gpt-4o' });
    hub.emit({
      type: 'step.finished',
      step: 'llm-1',
      durationMs: 0,
      usage: { inputTokens: 10, outputTokens: 2 },
      finishReason: 'tool_calls',
    });
    hub.emit({ type: 'checkpoint.saved', checkpointId: 'cp-1', iteration: 1 });
    hub.emit({ type: 'tool.executing', toolName: 'work', toolCallId: 'c2' });
    // ... and the process dies here.
    return hub.lastSeq;
  }

  function secondProcess(sink: ReturnType<typeof createOtelSink>, lastSeq: number): void {
    const hub = createProgressHub({ runId: 'run-r', clock: { ...systemClock, now: () => START + 60_000 }, lastSeq });
    hub.add(sink);
    hub.emit({ type: 'tool.executing', toolName: 'work', toolCallId: 'c2' });
    hub.emit({ type: 'tool.completed', toolName: 'work', toolCallId: 'c2', durationMs: 0, ok: true });
    hub.emit({ type: 'iteration', index: 1, max: 10 });
    hub.emit({ type: 'step.started', step: 'llm-2', provider: 'openai', model: 'gpt-4o' });
    hub.emit({ type: 'step.finished', step: 'llm-2', durationMs: 0, usage: { inputTokens: 20, outputTokens: 3 }, finishReason: 'stop' });
    hub.emit({ type: 'run.finished', durationMs: 60_000, outcome: 'completed' });
  }

  it('in another process: a new trace, linked to the first one, named by run id and marked resumed', () => {
    const t = telemetry();
    const tracer = t.tracerProvider.getTracer('test');
    const first = createOtelSink({ tracer, meter: false });
    const lastSeq = firstProcess(first);
    const stored = first.spanContext('run-r'); // what an app keeps with its checkpoint
    expect(stored).toBeDefined();
    const second = createOtelSink({
      tracer,
      meter: false,
      agentName: 'resumable',
      linkResumed: (runId) => (runId === 'run-r' ? stored : undefined),
    });
    secondProcess(second, lastSeq);
    expect(second.openRuns).toBe(0);
    const spans = t.exporter.getFinishedSpans();
    // The first process's run span and its in-flight tool never ended: they died with it.
    const trees = spanTrees(spans, START);
    expect(trees.map((tr) => outline([tr]))).toEqual([
      ['chat gpt-4o [CLIENT] UNSET'],
      ['invoke_agent resumable [INTERNAL] OK', '  execute_tool work [INTERNAL] UNSET', '  chat gpt-4o [CLIENT] UNSET'],
    ]);
    const resumed = spans.find((sp) => sp.name === 'invoke_agent resumable')!;
    expect(resumed.spanContext().traceId).not.toBe(stored!.traceId);
    expect(resumed.links.map((l) => [l.context.traceId, l.context.spanId, l.attributes])).toEqual([
      [stored!.traceId, stored!.spanId, { 'headway.link': 'resumed_from' }],
    ]);
    expect(trees[1]!.attributes).toMatchObject({
      'headway.run.id': 'run-r',
      'headway.run.resumed': true,
      'headway.run.first_seq': lastSeq + 1,
      'gen_ai.agent.name': 'resumable',
      'headway.run.outcome': 'completed',
    });
    expect(trees[0]!.attributes['headway.step']).toBe('llm-1');
  });

  it('in the same process: one trace; the call that was in flight ends as interrupted and runs again', () => {
    const s = setup({ meter: false });
    const lastSeq = firstProcess(s.sink);
    secondProcess(s.sink, lastSeq);
    const run = runSpanOf(s.trees());
    expect(outline([run])).toEqual([
      'invoke_agent resumable [INTERNAL] OK',
      '  chat gpt-4o [CLIENT] UNSET',
      '  execute_tool work [INTERNAL] ERROR: the call was started again',
      '  execute_tool work [INTERNAL] UNSET',
      '  chat gpt-4o [CLIENT] UNSET',
    ]);
    expect(run.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 30,
      'gen_ai.conversation.id': 's-1',
      'headway.iterations.used': 2,
    });
    expect(run.attributes).not.toHaveProperty('headway.run.resumed');
  });
});

describe('createOtelSink: message contents', () => {
  it('are recorded only when asked, and redacted', async () => {
    const s = setup({ captureContent: true });
    const provider = model(s.clock, 10, (call) =>
      call === 0
        ? { toolCalls: [{ id: 'c1', name: 'search', args: { q: 'docs', apiKey: 'hunter2' } }] }
        : { content: 'Found it. Bearer abcdefghijklmnopqrstuvwxyz' },
    );
    const lenient = defineTool({
      name: 'search',
      description: 'Search',
      parameters: z.object({ q: z.string() }).loose(),
      execute: ({ q }) => `result for ${q}, password=swordfish`,
    });
    const runtime = new AgentRuntime(
      { provider: 'scripted', agentName: 'talker' },
      { provider, tools: [lenient], sinks: [s.sink], clock: s.clock, generateId: ids() },
    );
    await runtime.run('Find the docs with token=abc123', { stream: true });
    const run = runSpanOf(s.trees());
    expect(JSON.parse(run.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Find the docs with token=[REDACTED]' }] },
    ]);
    const tool = run.children.find((c) => c.name === 'execute_tool search')!;
    expect(JSON.parse(tool.attributes['gen_ai.tool.call.arguments'] as string)).toEqual({ q: 'docs', apiKey: '[REDACTED]' });
    expect(tool.attributes['gen_ai.tool.call.result']).toBe('result for docs, password=[REDACTED]');
    const lastChat = run.children.at(-1)!;
    expect(JSON.parse(lastChat.attributes['gen_ai.output.messages'] as string)).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'Found it. Bearer [REDACTED]' }] },
    ]);
    expect(JSON.stringify(run)).not.toMatch(/hunter2|swordfish|abc123|abcdefghijklmnopqrstuvwxyz/);
  });
});

describe('createOtelSink: never breaks the run', () => {
  it('a throwing exporter, tracer or meter is counted and reported; the run and the other sinks are untouched', async () => {
    const seen: ProgressEvent[] = [];
    const errors: OtelSinkErrorContext[] = [];
    const t = telemetry();
    const boom = (): never => {
      throw new Error('exporter down');
    };
    // A span processor that throws on every span start and end, as a broken exporter behind it would.
    const broken = new BasicTracerProvider({
      spanProcessors: [{ onStart: boom, onEnd: boom, forceFlush: () => Promise.resolve(), shutdown: () => Promise.resolve() }],
    });
    const sinks = [
      createOtelSink({ tracer: broken.getTracer('x'), meter: t.meterProvider.getMeter('x'), onInternalError: (_e, c) => errors.push(c) }),
      createOtelSink({
        tracer: { startSpan: boom, startActiveSpan: boom } as never,
        meter: { createHistogram: boom, createCounter: boom } as never,
        onInternalError: (_e, c) => errors.push(c),
      }),
      (event: ProgressEvent) => {
        seen.push(event);
      },
    ];
    const clock = new FakeClock(START);
    const provider = model(clock, 10, (call) =>
      call === 0 ? { toolCalls: [{ id: 'c1', name: 'search', args: { q: 'x' } }] } : { content: 'ok' },
    );
    const internal: string[] = [];
    const result = await new AgentRuntime(
      { provider: 'scripted' },
      {
        provider,
        tools: [timedTool(clock, 'search', 1)],
        sinks,
        clock,
        generateId: ids(),
        onInternalError: (_e, { where }) => internal.push(where),
      },
    ).run('t');
    expect(result.status).toBe('completed');
    expect(seen.at(-1)?.type).toBe('run.finished');
    expect(internal).toEqual([]); // the sinks never threw into the hub
    expect(errors.length).toBeGreaterThan(0);
    expect(new Set(errors.map((e) => e.where))).toEqual(new Set(['trace', 'metrics']));
    expect(errors.every((e) => typeof e.eventType === 'string')).toBe(true);
    expect(sinks.slice(0, 2).map((s) => (s as ReturnType<typeof createOtelSink>).openRuns)).toEqual([0, 0]);
    const [a, b] = sinks as [ReturnType<typeof createOtelSink>, ReturnType<typeof createOtelSink>];
    expect(a.stats().internalErrors + b.stats().internalErrors).toBe(errors.length);
  });

  it('keeps memory bounded: at most maxRuns runs and maxOpenSpansPerRun open spans; close() ends the rest', () => {
    const s = setup({ maxRuns: 2, maxOpenSpansPerRun: 3, meter: false });
    const emit = (runId: string, seq: number, body: Record<string, unknown>): void => {
      s.sink.handle({ runId, seq, ts: START + seq, ...body } as ProgressEvent);
    };
    for (let i = 1; i <= 5; i++) emit('run-a', i, { type: 'tool.executing', toolName: 't', toolCallId: `c${String(i)}` });
    emit('run-b', 1, { type: 'run.started', agentName: 'b' });
    emit('run-c', 1, { type: 'run.started', agentName: 'c' });
    expect(s.sink.openRuns).toBe(2);
    expect(s.sink.stats().runsAbandoned).toBe(1);
    emit('run-a', 9, { type: 'run.finished', durationMs: 1, outcome: 'completed' }); // run-a was dropped: ignored
    expect(s.sink.openRuns).toBe(2);
    s.sink.close();
    expect(s.sink.openRuns).toBe(0);
    const runA = s.trees().find((tr) => tr.attributes['headway.run.id'] === 'run-a')!;
    expect(outline([runA])).toEqual([
      'invoke_agent [INTERNAL] ERROR: dropped: too many runs open in this sink',
      '  execute_tool t [INTERNAL] ERROR: too many spans open in this run',
      '  execute_tool t [INTERNAL] ERROR: too many spans open in this run',
      '  execute_tool t [INTERNAL] ERROR: dropped: too many runs open in this sink',
      '  execute_tool t [INTERNAL] ERROR: dropped: too many runs open in this sink',
      '  execute_tool t [INTERNAL] ERROR: dropped: too many runs open in this sink',
    ]);
    expect(s.trees()).toHaveLength(3);
  });
});

describe('createOtelSink: where the run span hangs', () => {
  it('under the span active when the run starts (a request span), with the AsyncLocalStorage context manager', async () => {
    const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
    const { context: otelContext, trace } = await import('@opentelemetry/api');
    const manager = new AsyncLocalStorageContextManager().enable();
    otelContext.setGlobalContextManager(manager);
    try {
      const s = setup({ meter: false });
      const tracer = s.tracerProvider.getTracer('app');
      const provider = model(s.clock, 10, () => ({ content: 'hi' }));
      const runtime = new AgentRuntime(
        { provider: 'scripted', agentName: 'nested' },
        { provider, sinks: [s.sink], clock: s.clock, generateId: ids() },
      );
      await tracer.startActiveSpan('POST /chat', { startTime: [1_767_225_600, 0] }, async (request) => {
        await runtime.run('hello');
        request.end([1_767_225_601, 0]);
      });
      expect(outline(s.trees())).toEqual(['POST /chat [INTERNAL] UNSET', '  invoke_agent nested [INTERNAL] OK', '    chat [CLIENT] UNSET']);
      expect(trace.getActiveSpan()).toBeUndefined();
    } finally {
      otelContext.disable();
    }
  });
});

describe('createOtelSink: span events with their values', () => {
  it('extensions, checkpoints, flagged tools and strategy rotations, from any loop emitting through a hub', () => {
    const s = setup({ meter: false });
    let now = START;
    const hub = createProgressHub({ runId: 'run-e', clock: { ...systemClock, now: () => now } });
    hub.add(s.sink);
    hub.emit({ type: 'run.started', agentName: 'negotiator', limits: { iterations: 5, time: 1_000 } });
    now += 100;
    hub.emit({ type: 'timeout.extended', byMs: 500, totalBudgetMs: 1_500 });
    hub.emit({ type: 'checkpoint.saved', checkpointId: 'cp-9', iteration: 1 });
    hub.emit({ type: 'tool.executing', toolName: 'fetch', toolCallId: 't1' });
    hub.emit({ type: 'tool.flagged', toolName: 'fetch', toolCallId: 't1', findings: ['instruction "ignore previous instructions"'] });
    hub.emit({ type: 'tool.completed', toolName: 'fetch', toolCallId: 't1', durationMs: 0, ok: false });
    hub.emit({ type: 'strategy.rotated', toolName: 'fetch', failures: 3 });
    hub.emit({
      type: 'stall.detected',
      kind: 'repeated-failure',
      evidence: { toolCallIds: ['t1'], subject: 'fetch secret-url', repeats: 4 },
      since: 1,
    });
    hub.emit({ type: 'stall.cleared', kind: 'repeated-failure', since: 1 });
    hub.emit({ type: 'thinking', content: 'secret plan' });
    now += 100;
    hub.emit({ type: 'run.cancelled' });
    const run = runSpanOf(s.trees());
    expect(run.events).toEqual([
      {
        name: 'headway.timeout.extended',
        atMs: 100,
        attributes: { 'headway.timeout.by_ms': 500, 'headway.timeout.total_budget_ms': 1_500 },
      },
      { name: 'headway.checkpoint.saved', atMs: 100, attributes: { 'headway.checkpoint.id': 'cp-9', 'headway.iteration': 1 } },
      {
        name: 'headway.tool.flagged',
        atMs: 100,
        attributes: { 'gen_ai.tool.name': 'fetch', 'gen_ai.tool.call.id': 't1', 'headway.findings.count': 1 },
      },
      { name: 'headway.strategy.rotated', atMs: 100, attributes: { 'gen_ai.tool.name': 'fetch', 'headway.failures': 3 } },
      {
        name: 'headway.stall.detected',
        atMs: 100,
        attributes: {
          'headway.stall.kind': 'repeated-failure',
          'headway.stall.since': 1,
          'headway.stall.repeats': 4,
          'headway.stall.tool_call_ids': ['t1'],
        },
      },
      { name: 'headway.stall.cleared', atMs: 100, attributes: { 'headway.stall.kind': 'repeated-failure', 'headway.stall.since': 1 } },
    ]);
    expect(run.attributes).toMatchObject({
      'headway.time.budget_ms': 1_500,
      'headway.iterations.max': 5,
      'headway.run.outcome': 'cancelled',
      'headway.time.used_ms': 200,
    });
    expect(outline([run])).toEqual([
      'invoke_agent negotiator [INTERNAL] ERROR: cancelled',
      '  execute_tool fetch [INTERNAL] ERROR: fetch failed',
    ]);
    expect(run.children[0]!.attributes).toMatchObject({ 'error.type': 'tool_error', 'headway.tool.outcome': 'error' });
  });
});

describe('createOtelSink: with the OpenTelemetry API alone', () => {
  it('works with no SDK registered: nothing recorded, nothing failed, no run left open', () => {
    const sink = createOtelSink();
    const hub = createProgressHub({ runId: 'bare' });
    hub.add(sink);
    hub.emit({ type: 'run.started', agentName: 'a' });
    hub.emit({ type: 'step.started', step: 'llm-1', provider: 'openai' });
    hub.emit({ type: 'text.delta', text: 'hi' });
    hub.emit({ type: 'step.finished', step: 'llm-1', durationMs: 1, usage: { inputTokens: 1, outputTokens: 1 } });
    hub.emit({ type: 'tool.executing', toolName: 't' });
    hub.emit({ type: 'tool.completed', toolName: 't', durationMs: 1, ok: true });
    hub.emit({ type: 'run.finished', durationMs: 2, outcome: 'completed' });
    expect(sink.stats()).toEqual({ events: 7, runsEnded: 1, runsAbandoned: 0, internalErrors: 0 });
    expect(sink.openRuns).toBe(0);
    expect(sink.spanContext('bare')?.traceId).toBe('00000000000000000000000000000000');
  });

  it('parentContext chooses where a run hangs', () => {
    const s = setup({ meter: false });
    const tracer = s.tracerProvider.getTracer('app');
    const job = tracer.startSpan('job', { startTime: [1_767_225_600, 0] });
    const sink = createOtelSink({
      tracer: s.tracerProvider.getTracer('test'),
      meter: false,
      parentContext: () => trace.setSpan(ROOT_CONTEXT, job),
    });
    sink.handle({ type: 'run.started', runId: 'p', seq: 1, ts: START, agentName: 'child' });
    sink.handle({ type: 'run.finished', runId: 'p', seq: 2, ts: START + 5, durationMs: 5, outcome: 'completed' });
    job.end([1_767_225_601, 0]);
    expect(outline(s.trees())).toEqual(['job [INTERNAL] UNSET', '  invoke_agent child [INTERNAL] OK']);
  });
});
