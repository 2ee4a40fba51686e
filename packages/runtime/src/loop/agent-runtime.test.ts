import { HeadwayError } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkpointRunInfo } from '../checkpoint/run-state-codec.js';
import { MemoryCheckpointStore } from '../checkpoint/memory-checkpoint-store.js';
import { defineTool } from '../tools/define-tool.js';
import { AgentRuntime } from './agent-runtime.js';
import { ScriptedProvider } from '../provider/scripted-provider.js';
import { collect, fileRead, ids, createRecordingReporter, search } from './test-helpers.test-util.js';

describe('AgentRuntime: a two-round run', () => {
  it('calls the reporter in exactly the documented order', async () => {
    const { reporter, calls } = createRecordingReporter();
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'file_read', args: { path: 'README.md' } }] },
      { content: 'The README says headway makes agent loops legible.' },
    ]);
    const runtime = new AgentRuntime(
      { provider: 'scripted' },
      { provider, tools: [fileRead], progressReporter: reporter, generateId: ids() },
    );
    const result = await runtime.run('Summarize the README file');
    expect(result.status).toBe('completed');
    expect(result.text).toBe('The README says headway makes agent loops legible.');
    expect(result.iterations).toBe(2);
    expect(result.report).toBeUndefined();
    expect(calls.filter((c) => !c.startsWith('onProgress'))).toEqual([
      'onStart(Summarize the README file)',
      'onIteration(0, 10)',
      'onToolStart(file_read)',
      'onToolDone(file_read, ok)',
      'onIteration(1, 10)',
      'onComplete(finished after 2 iteration(s))',
    ]);
    const progress = calls.filter((c) => c.startsWith('onProgress'));
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toMatch(/^onProgress\(100, /);
    expect(calls.at(-2)).toMatch(/^onProgress\(100, /);
  });

  it('emits the events of each iteration, one terminal event last', async () => {
    const { sink, events, types } = collect();
    const provider = new ScriptedProvider([
      {
        toolCalls: [
          { name: 'file_read', args: { path: 'README.md' } },
          { name: 'search', args: { query: 'auth' } },
        ],
        reasoning: 'Read first.',
      },
      { content: 'Done.' },
    ]);
    const runtime = new AgentRuntime({ provider: 'scripted' }, { provider, tools: [fileRead, search], sinks: [sink], generateId: ids() });
    await runtime.run('Look around');
    const withoutProgress = types().filter((t) => t !== 'progress');
    expect(withoutProgress).toEqual([
      'run.started',
      'iteration',
      'step.started',
      'step.finished',
      'thinking',
      'tool.executing',
      'tool.completed',
      'tool.executing',
      'tool.completed',
      'iteration',
      'step.started',
      'step.finished',
      'run.finished',
    ]);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const completed = events.find((e) => e.type === 'tool.completed');
    expect(completed).toMatchObject({
      toolName: 'file_read',
      toolCallId: 'call_1_1',
      ok: true,
      preview: 'contents of README.md: headway makes agent loops legible',
    });
  });
});

describe('AgentRuntime: one run-state vocabulary and continuation', () => {
  it('ends a limit-stopped run as limit (iterations), never completed, and says which limit in run.finished', async () => {
    const { sink, events } = collect();
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'file_read', args: { path: 'README.md' } }] },
      { toolCalls: [{ name: 'search', args: { query: 'packages' } }] },
    ]);
    const runtime = new AgentRuntime(
      { provider: 'scripted', maxIterations: 2 },
      { provider, tools: [fileRead, search], sinks: [sink], generateId: ids() },
    );
    const result = await runtime.run('Summarize the README file');
    expect(result.status).toBe('limit');
    expect(result.end).toEqual({ state: 'limit', limit: 'iterations' });
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'limit', stopReason: 'max-iterations' });
  });

  it('continues a run from its report: the task stays the title, run.started carries parentRunId, the chain completes', async () => {
    const { sink, events } = collect();
    const store = new MemoryCheckpointStore();
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'file_read', args: { path: 'README.md' } }] },
      { toolCalls: [{ name: 'search', args: { query: 'packages' } }] },
      { content: 'headway has 21 packages.' },
    ]);
    const runtime = new AgentRuntime(
      { provider: 'scripted', maxIterations: 2 },
      { provider, tools: [fileRead, search], sinks: [sink], generateId: ids('run'), checkpointStore: store },
    );
    const first = await runtime.run('Summarize the README file');
    expect(first.end?.state).toBe('limit');
    if (first.report === undefined) throw new Error('expected a report');
    const second = await runtime.continueRun({ runId: first.runId, report: first.report });
    expect(second).toMatchObject({
      status: 'completed',
      end: { state: 'completed' },
      parentRunId: first.runId,
      text: 'headway has 21 packages.',
    });
    const started = events.filter((e) => e.type === 'run.started');
    expect(started.map((e) => [e.runId, e.task, e.parentRunId])).toEqual([
      [first.runId, 'Summarize the README file', undefined],
      [second.runId, 'Summarize the README file', first.runId],
    ]);
    // The stored records say the same: the task, the agent, the parent, how each ended.
    const records = store.list({}).map((s) => {
      const cp = store.load(s.id);
      if (cp === undefined) throw new Error(`no checkpoint ${s.id}`);
      return { runId: cp.runId, ...checkpointRunInfo(cp) };
    });
    expect(records).toEqual([
      { runId: first.runId, task: 'Summarize the README file', agentName: 'agent', end: { state: 'limit', limit: 'iterations' } },
      {
        runId: second.runId,
        task: 'Summarize the README file',
        agentName: 'agent',
        parentRunId: first.runId,
        end: { state: 'completed' },
      },
    ]);
  });

  it('refuses a continuation from something that is not a report, saying where', async () => {
    const runtime = new AgentRuntime({ provider: 'scripted' }, { provider: new ScriptedProvider([]), generateId: ids() });
    const bad = { runId: '', report: { task: 'x', reason: 'bored' } } as unknown as Parameters<typeof runtime.continueRun>[0];
    const error = await runtime.continueRun(bad).catch((e: unknown) => e);
    expect(HeadwayError.isInstance(error, 'RUNTIME_INVALID_CONTINUATION')).toBe(true);
    expect((error as Error).message).toMatch(/^Invalid continuation: runId: .*report\.reason/);
  });

  it('lists the work in flight and the task under remaining when a run is cancelled mid-tool', async () => {
    const controller = new AbortController();
    const slow = defineTool({
      name: 'slow_read',
      description: 'Read slowly',
      parameters: z.object({ path: z.string() }),
      execute: (_args, { signal }) =>
        new Promise<string>((_resolve, reject) => {
          controller.abort(new Error('cancelled by the user (Ctrl-C)'));
          signal.addEventListener('abort', () => {
            reject(signal.reason as Error);
          });
        }),
    });
    const provider = new ScriptedProvider([{ toolCalls: [{ name: 'slow_read', args: { path: 'README.md' } }] }, { content: 'never' }]);
    const runtime = new AgentRuntime({ provider: 'scripted' }, { provider, tools: [slow], generateId: ids() });
    const result = await runtime.run('Summarize the README file', { signal: controller.signal });
    expect(result.end).toEqual({ state: 'cancelled' });
    expect(result.report?.remaining).toEqual([
      'slow_read: started, not finished',
      'The task, not finished when the run stopped: Summarize the README file',
    ]);
  });
});
