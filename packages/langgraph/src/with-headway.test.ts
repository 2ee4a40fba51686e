import { isTerminalEvent, progressEventSchema, type ProgressEvent } from '@headway/protocol';
import { continuationPrompt } from '@headway/report';
import { Annotation, END, MemorySaver, RunControl, START, StateGraph } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { LangGraphError } from './langgraph-error.js';
import { manualClock, parentGraph, scriptedGraph, type Script } from './scripted-graph.test-util.js';
import { withHeadway, type StreamableGraph } from './with-headway.js';

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

const reader: Script = (call) => ({ calls: [{ tool: 'read', input: { path: `${String(call)}.txt` } }] });

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

describe('withHeadway (LangGraph)', () => {
  it('a two-tool run emits the seed order, with tokens, cost, previews and the plan', async () => {
    const { events, sink } = collect();
    const graph = scriptedGraph((call) =>
      call === 0
        ? {
            calls: [{ tool: 'read', input: { path: 'a.txt' } }],
            todos: [
              { text: 'read a', status: 'in_progress' },
              { text: 'read b', status: 'pending' },
            ],
          }
        : call === 1
          ? {
              calls: [{ tool: 'read', input: { path: 'b.txt' } }],
              todos: [
                { text: 'read a', status: 'completed' },
                { text: 'read b', status: 'in_progress' },
              ],
            }
          : { text: 'a and b say hi' },
    );
    const tracked = withHeadway({
      task: 'Read a and b',
      sinks: [sink],
      maxIterations: 10,
      planKey: 'todos',
      costOf: (u) => (u.inputTokens + u.outputTokens) / 1000,
      clock: manualClock(),
    });
    const end = await tracked.run(graph, { messages: [['user', 'Read a and b']] });
    expect(end.outcome).toBe('completed');
    expectOneTerminal(events);
    expect(
      events
        .map((e) => (e.type === 'step.started' || e.type === 'step.finished' ? `${e.type} ${e.step}` : e.type))
        .filter((t) => t !== 'progress'),
    ).toEqual([
      'run.started',
      'iteration',
      'step.started agent',
      'plan.updated',
      'step.finished agent',
      'iteration',
      'step.started tools',
      'tool.executing',
      'tool.completed',
      'step.finished tools',
      'iteration',
      'step.started agent',
      'plan.updated',
      'step.finished agent',
      'iteration',
      'step.started tools',
      'tool.executing',
      'tool.completed',
      'step.finished tools',
      'iteration',
      'step.started agent',
      'step.finished agent',
      'run.finished',
    ]);
    expect(events[0]).toMatchObject({ type: 'run.started', agentName: 'reader', task: 'Read a and b', limits: { iterations: 10 } });
    expect(events.find((e) => e.type === 'step.finished')).toMatchObject({
      step: 'agent',
      usage: { inputTokens: 10, outputTokens: 5 },
      costUsd: 0.015,
    });
    expect(events.filter((e) => e.type === 'tool.completed').map((e) => [e.toolName, e.ok, e.preview])).toEqual([
      ['read', true, 'contents of a.txt'],
      ['read', true, 'contents of b.txt'],
    ]);
    expect(events.find((e) => e.type === 'plan.updated')).toMatchObject({
      items: [
        { text: 'read a', status: 'in_progress' },
        { text: 'read b', status: 'pending' },
      ],
    });
    expect(events.filter((e) => e.type === 'progress').at(-1)).toMatchObject({ percent: 100 });
  });

  it('recursionLimit ends with the report from the report model, and the report continues the work', async () => {
    const { events, sink } = collect();
    const prompts: string[] = [];
    const reportModel = {
      invoke: (messages: [string, string][]) => {
        prompts.push(messages.map((m) => m[1]).join('\n'));
        return Promise.resolve({ content: MODEL_REPORT });
      },
    };
    const end = await withHeadway({ task: 'Find the config', sinks: [sink], maxIterations: 4, reportModel, clock: manualClock() }).run(
      scriptedGraph(reader),
      {
        messages: [['user', 'Find the config']],
      },
    );
    expect(end).toMatchObject({ outcome: 'limit', reason: 'max-iterations', report: { generatedBy: 'model', remaining: ['read 2.txt'] } });
    expect(end.error).toBeUndefined();
    expect(prompts[0]).toMatch(/^STOP: You have reached the iteration limit \(4 of 4\)\./);
    expect(prompts[0]).toContain('[iteration 2] read({"path":"0.txt"}) → contents of 0.txt');
    expect(end.reportMarkdown).toContain('read 2.txt next');
    expectOneTerminal(events);
    expect(events.filter((e) => e.type === 'limit.reached')).toMatchObject([{ limit: 'iterations' }]);
    expect(events.at(-2)).toMatchObject({ type: 'report.generated' });
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'limit' });

    const next = scriptedGraph((call, messages) =>
      call === 0 ? { calls: [{ tool: 'read', input: { path: '2.txt' } }] } : { text: `done after ${String(messages.length)} message(s)` },
    );
    const again = await withHeadway({ task: 'Find the config' }).run(next, { messages: [['user', continuationPrompt(end.report!)]] });
    expect(again.outcome).toBe('completed');
  });

  it('without a report model the limit report comes from the tool-call log', async () => {
    const end = await withHeadway({ task: 'Find', maxIterations: 3 }).run(scriptedGraph(reader), { messages: [['user', 'Find']] });
    expect(end).toMatchObject({ outcome: 'limit', reason: 'max-iterations', report: { generatedBy: 'fallback' } });
  });

  it('a spent budget stops between supersteps', async () => {
    const graph = scriptedGraph(reader);
    const end = await withHeadway({ task: 'Find', maxIterations: 20, maxSpendUsd: 1, costOf: () => 0.6 }).run(graph, {
      messages: [['user', 'Find']],
    });
    expect(graph.calls()).toBe(2);
    expect(end).toMatchObject({ outcome: 'limit', reason: 'cost-budget', report: { generatedBy: 'fallback', stats: { costUsd: 1.2 } } });
    expect(end).toMatchObject({ warnings: [], unpricedCalls: 0 });
  });

  it('a call of unknown cost is left out of the spend and counted, named once per model, and never stops the run', async () => {
    const { events, sink } = collect();
    const graph = scriptedGraph(reader);
    const end = await withHeadway({ task: 'Find', sinks: [sink], maxIterations: 4, maxSpendUsd: 1, costOf: () => undefined }).run(graph, {
      messages: [['user', 'Find']],
    });
    expect(end).toMatchObject({ outcome: 'limit', reason: 'max-iterations', report: { generatedBy: 'fallback' } });
    // Only the agent node's model calls are counted: the tool node's runs are not model calls.
    expect(end.unpricedCalls).toBe(graph.calls());
    expect(end.report?.stats.costUsd).toBeUndefined();
    expect(end.warnings).toEqual([
      {
        code: 'cost-unknown',
        message:
          'scripted-model has no price: its calls are not counted against the cost limit of $1 (what they cost is unknown); have costOf price it',
      },
    ]);
    expect(events.filter((e) => e.type === 'limit.reached')).toMatchObject([{ limit: 'iterations' }]);
  });

  it('a subgraph is nested progress and the bar never moves backwards', async () => {
    const { events, sink } = collect();
    const child = scriptedGraph((call) =>
      call < 3 ? { calls: [{ tool: 'read', input: { path: `${String(call)}.txt` } }] } : { text: 'found it' },
    );
    const end = await withHeadway({ task: 'Research', sinks: [sink], maxIterations: 10, clock: manualClock() }).run(parentGraph(child), {
      messages: [['user', 'Research']],
    });
    expect(end.outcome).toBe('completed');
    const steps = events.filter((e) => e.type === 'step.started').map((e) => e.step);
    expect(steps[0]).toBe('research');
    expect(steps).toContain('research/agent');
    expect(steps.at(-1)).toBe('summarise');
    const percents = events.filter((e) => e.type === 'progress').map((e) => e.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBe(100);
    expectOneTerminal(events);
  });

  it('events are live: a node runs after its step.started, and a superstep ends before the next node runs', async () => {
    const { events, sink } = collect();
    const seenByNode: string[][] = [];
    const graph = scriptedGraph((call) => {
      seenByNode.push(events.filter((e) => e.type === 'step.started' || e.type === 'step.finished').map((e) => `${e.type} ${e.step}`));
      return call === 0 ? { calls: [{ tool: 'read', input: { path: 'a.txt' } }] } : { text: 'done' };
    });
    await withHeadway({ task: 'Read a', sinks: [sink], clock: manualClock() }).run(graph, { messages: [['user', 'Read a']] });
    expect(seenByNode).toEqual([
      ['step.started agent'],
      ['step.started agent', 'step.finished agent', 'step.started tools', 'step.finished tools', 'step.started agent'],
    ]);
  });

  it('a stop between supersteps drains the graph at a checkpoint: the state is kept, and the same thread resumes at the next node', async () => {
    const checkpointer = new MemorySaver();
    const graph = scriptedGraph(reader, checkpointer);
    const thread = { configurable: { thread_id: 't1' } };
    const end = await withHeadway({ task: 'Find', maxSpendUsd: 1, costOf: () => 2 }).run(graph, { messages: [['user', 'Find']] }, thread);
    expect(end).toMatchObject({ outcome: 'limit', reason: 'cost-budget' });
    expect(graph.calls()).toBe(1);
    // The state after the first superstep: the user's message and the model's tool call.
    expect((end.state as { messages: unknown[] }).messages).toHaveLength(2);
    const { events, sink } = collect();
    await withHeadway({ task: 'Find', sinks: [sink], maxIterations: 3 }).run(graph, null, thread);
    expect(events.find((e) => e.type === 'step.started')).toMatchObject({ step: 'tools' });
  });

  it("the caller's RunControl is the one drained at a limit", async () => {
    const control = new RunControl();
    const end = await withHeadway({ task: 'Find', maxSpendUsd: 1, costOf: () => 2 }).run(
      scriptedGraph(reader),
      { messages: [['user', 'Find']] },
      { control },
    );
    expect(end.outcome).toBe('limit');
    expect(control.drainReason).toBe('headway');
  });

  it('a control that throws when asked to drain is reported; the graph runs on and the report follows', async () => {
    const survived: unknown[] = [];
    const graph = scriptedGraph((call) =>
      call < 2 ? { calls: [{ tool: 'read', input: { path: `${String(call)}.txt` } }] } : { text: 'done' },
    );
    const control = {
      drainRequested: false,
      requestDrain: () => {
        throw new Error('control on fire');
      },
    };
    const end = await withHeadway({
      task: 'Find',
      maxSpendUsd: 1,
      costOf: () => 2,
      onInternalError: (error) => void survived.push(error),
    }).run(graph, { messages: [['user', 'Find']] }, { control });
    expect(end).toMatchObject({ outcome: 'limit', reason: 'cost-budget', report: { generatedBy: 'fallback' } });
    expect(graph.calls()).toBe(3);
    expect(survived).toMatchObject([{ code: 'LANGGRAPH_NO_DRAIN' }]);
  });

  it('a config that cannot be read ends the run with an error, never a throw', async () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const { events, sink } = collect();
    const end = await withHeadway({ task: 'Find', sinks: [sink] }).run(scriptedGraph(reader), { messages: [['user', 'Find']] }, proxy);
    expect(end.outcome).toBe('error');
    expectOneTerminal(events);
  });

  it('a part that cannot be read is skipped and reported, and the run goes on', async () => {
    const survived: [string, unknown][] = [];
    const graph: StreamableGraph = {
      stream: (_input, options) => {
        const forward = (options.configurable as { __pregel_stream: { push: (chunk: unknown) => void } }).__pregel_stream;
        const hostile = {
          id: 't1',
          name: 'agent',
          get result(): unknown {
            throw new Error('result on fire');
          },
        };
        return Promise.resolve(
          (async function* () {
            forward.push([[], 'tasks', { id: 't1', name: 'agent', input: {} }]);
            forward.push([[], 'tasks', hostile]);
            forward.push([[], 'tasks', { id: 't1', name: 'agent', result: { messages: [] }, error: null }]);
            forward.push([[], 'values', { messages: ['kept'] }]);
            yield await Promise.resolve({ messages: ['kept'] });
          })(),
        );
      },
    };
    const { events, sink } = collect();
    const end = await withHeadway({
      task: 'Find',
      sinks: [sink],
      onInternalError: (error, { where }) => void survived.push([where, error]),
    }).run(graph, {});
    expect(end).toMatchObject({ outcome: 'completed', state: { messages: ['kept'] } });
    expect(survived).toHaveLength(1);
    expect(survived[0]?.[0]).toBe('stream');
    expect(survived[0]?.[1]).toMatchObject({ name: 'LangGraphError', code: 'LANGGRAPH_BAD_PART' });
    expect((survived[0]?.[1] as Error).message).toContain('result on fire');
    expect(events.filter((e) => e.type === 'step.finished').map((e) => e.type)).toEqual(['step.finished']);
    expectOneTerminal(events);
  });

  it('a graph that runs but forwards nothing is reported as a LangGraph the bridge cannot read', async () => {
    const survived: unknown[] = [];
    const modes: unknown[] = [];
    // A LangGraph that ignores the forwarded stream: its own stream, asked for `custom` parts only, carries none.
    const graph: StreamableGraph = {
      stream: (_input, options) => {
        modes.push(options.streamMode);
        return Promise.resolve((async function* () {})());
      },
    };
    const end = await withHeadway({ task: 'Find', onInternalError: (error) => void survived.push(error) }).run(graph, {});
    expect(modes).toEqual(['custom']);
    expect(end.outcome).toBe('completed');
    expect(end.state).toBeUndefined();
    expect(survived).toHaveLength(1);
    expect(survived[0]).toBeInstanceOf(LangGraphError);
    expect(survived[0]).toMatchObject({ code: 'LANGGRAPH_NO_EVENTS' });
  });

  it('the state is the one graph.invoke returns, and what nodes write with config.writer changes nothing', async () => {
    const Counter = Annotation.Root({
      n: Annotation<number>(),
      log: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
    });
    const build = () =>
      new StateGraph(Counter)
        .addNode('count', (state, config) => {
          config.writer({ note: `at ${String(state.n)}` });
          return { n: state.n + 1, log: [`count ${String(state.n)}`] };
        })
        .addEdge(START, 'count')
        .addConditionalEdges('count', (state) => (state.n < 3 ? 'count' : END), ['count', END])
        .compile();
    const plain = await build().invoke({ n: 0 });
    expect(plain).toEqual({ n: 3, log: ['count 0', 'count 1', 'count 2'] });
    const { events, sink } = collect();
    const end = await withHeadway({ task: 'Count to 3', sinks: [sink] }).run(build(), { n: 0 });
    expect(end.outcome).toBe('completed');
    expect(end.state).toEqual(plain);
    expect(events.filter((e) => e.type === 'step.finished').map((e) => e.step)).toEqual(['count', 'count', 'count']);
    expectOneTerminal(events);
  });

  it('redacts secrets in tool arguments where the event is made', async () => {
    const { events, sink } = collect();
    const graph = scriptedGraph((call) =>
      call === 0 ? { calls: [{ tool: 'login', input: { user: 'ann', password: 'hunter2-secret-value' } }] } : { text: 'in' },
    );
    await withHeadway({ task: 'Log in', sinks: [sink] }).run(graph, { messages: [['user', 'Log in']] });
    const executing = events.find((e) => e.type === 'tool.executing');
    expect(JSON.stringify(executing)).not.toContain('hunter2-secret-value');
    expect(executing).toMatchObject({ args: { user: 'ann' } });
  });

  it('a throwing sink changes nothing', async () => {
    const runOnce = async (extra: ((e: ProgressEvent) => void)[]): Promise<{ types: string[]; outcome: string }> => {
      const { events, sink } = collect();
      const end = await withHeadway({ task: 'Find', sinks: [...extra, sink], maxIterations: 4, clock: manualClock() }).run(
        scriptedGraph(reader),
        {
          messages: [['user', 'Find']],
        },
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

  it('a node that throws ends with run.error and a report', async () => {
    const { events, sink } = collect();
    const graph = scriptedGraph(() => {
      throw new Error('model on fire');
    });
    const end = await withHeadway({ task: 'Find', sinks: [sink] }).run(graph, { messages: [['user', 'Find']] });
    expect(end.outcome).toBe('error');
    expect(end.report?.reason).toBe('error');
    expect(events.at(-1)).toMatchObject({ type: 'run.error', error: 'model on fire' });
    expectOneTerminal(events);
  });

  it('a plan that does not validate is not used, and says why', async () => {
    const { events, sink } = collect();
    const graph = scriptedGraph((call) => (call === 0 ? { text: 'done', todos: [{ text: 'x', status: 'almost' }] } : { text: 'done' }));
    const end = await withHeadway({ task: 'Plan', sinks: [sink], planKey: 'todos' }).run(graph, { messages: [['user', 'Plan']] });
    expect(events.some((e) => e.type === 'plan.updated')).toBe(false);
    expect(end.warnings.map((w) => w.code)).toEqual(['plan-invalid']);
    expect(end.warnings[0]?.message).toContain('status');
  });

  it('the time budget winds down between supersteps and ends with the report', async () => {
    const { events, sink } = collect();
    const clock = manualClock();
    const graph = scriptedGraph((call) => {
      if (call === 1) clock.advanceSync(40_000); // the second model call runs past the budget (not the grace)
      return { calls: [{ tool: 'read', input: { path: `${String(call)}.txt` } }] };
    });
    const reportModel = { invoke: () => Promise.resolve({ content: MODEL_REPORT }) };
    const end = await withHeadway({
      task: 'Find the config',
      sinks: [sink],
      maxIterations: 20,
      timeBudgetMs: 30_000,
      reportModel,
      clock,
    }).run(graph, {
      messages: [['user', 'Find the config']],
    });
    expect(end).toMatchObject({ outcome: 'limit', reason: 'time-budget', report: { generatedBy: 'model' } });
    expect(graph.calls()).toBe(2);
    expect(events.filter((e) => e.type === 'wind-down.started' || e.type === 'limit.reached').map((e) => e.type)).toEqual([
      'limit.reached',
      'wind-down.started',
    ]);
    expectOneTerminal(events);
  });
});
