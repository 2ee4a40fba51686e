import { describe, expect, it } from 'vitest';
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
