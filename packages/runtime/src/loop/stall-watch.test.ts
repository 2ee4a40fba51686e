import type { ProgressEvent } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../tools/define-tool.js';
import { ScriptedProvider, type ScriptedStep } from '../provider/scripted-provider.js';
import { AgentRuntime } from './agent-runtime.js';
import type { AgentConfigInput } from './agent-config.js';
import { ManualClock } from './clock.js';
import { collect, fileRead, ids } from './test-helpers.test-util.js';

const ls = defineTool({
  name: 'bash',
  description: 'Run a shell command',
  parameters: z.object({ command: z.string() }),
  execute: () => 'a.ts\nb.ts',
});
const jobStatus = defineTool({
  name: 'job_status',
  description: 'Status of the build job',
  parameters: z.object({ id: z.string() }),
  poll: true,
  execute: () => 'running',
});

const repeat = (n: number, step: ScriptedStep): ScriptedStep[] => Array.from({ length: n }, () => step);
const lsStep: ScriptedStep = { toolCalls: [{ name: 'bash', args: { command: 'ls src/work' } }] };

async function run(script: ScriptedStep[], config: Partial<AgentConfigInput> = {}) {
  const events = collect();
  const provider = new ScriptedProvider(script);
  const result = await new AgentRuntime(
    { provider: 'scripted', maxIterations: 40, ...config },
    { provider, tools: [ls, fileRead, jobStatus], sinks: [events.sink], generateId: ids(), clock: new ManualClock() },
  ).run('tidy src/work');
  return { result, events: events.events, provider };
}

function stallEvents(events: ProgressEvent[]): unknown[] {
  return events.flatMap((e) => (e.type === 'stall.detected' || e.type === 'stall.cleared' ? [{ ...e, ts: 0, seq: 0 }] : []));
}

describe('stall detection in the runtime', () => {
  it('reports a run repeating one call with the same result by default, at the fifth identical call, and freezes the bar', async () => {
    const { result, events } = await run([...repeat(8, lsStep), { content: 'done' }]);
    expect(result.status).toBe('completed');
    expect(stallEvents(events)).toEqual([
      {
        type: 'stall.detected',
        runId: result.runId,
        seq: 0,
        ts: 0,
        kind: 'repeated-call',
        evidence: { toolCallIds: expect.any(Array) as unknown, subject: 'ls src/work', repeats: 5 },
        since: 0,
      },
    ]);
    const detectedAt = events.findIndex((e) => e.type === 'stall.detected');
    const completedBefore = events.slice(0, detectedAt).filter((e) => e.type === 'tool.completed').length;
    expect(completedBefore).toBe(5);
    // While stalled the bar stands still and has no ETA; it moves again only at the end (100).
    const during = events.slice(detectedAt).filter((e) => e.type === 'progress');
    const frozen = during.slice(0, -1);
    expect(new Set(frozen.map((e) => e.percent)).size).toBeLessThanOrEqual(1);
    expect(frozen.every((e) => e.etaMs === undefined)).toBe(true);
    expect(during.at(-1)?.percent).toBe(100);
  });

  it('never reports a varied run of 30 different calls', async () => {
    const script = Array.from({ length: 30 }, (_, i): ScriptedStep => ({
      toolCalls: [{ name: i % 2 === 0 ? 'file_read' : 'bash', args: i % 2 === 0 ? { path: `f${i}.md` } : { command: `wc -l f${i}.md` } }],
    }));
    const { result, events } = await run([...script, { content: 'done' }]);
    expect(result.status).toBe('completed');
    expect(result.iterations).toBe(31);
    expect(stallEvents(events)).toEqual([]);
  });

  it('does not count a poll tool: waiting on a job is not a loop', async () => {
    const { events } = await run([...repeat(10, { toolCalls: [{ name: 'job_status', args: { id: 'j1' } }] }), { content: 'built' }]);
    expect(stallEvents(events)).toEqual([]);
  });

  it('wind-down ends a looping run within a few iterations with a report whose stop reason is stalled', async () => {
    const { result, events } = await run(repeat(30, lsStep), { stallPolicy: 'wind-down' });
    expect(result.status).toBe('limit');
    expect(result.iterations).toBe(6);
    expect(result.report?.reason).toBe('stalled');
    // The scripted model answers the report request with a tool call it may not make: the report falls back to the log.
    expect(result.report?.generatedBy).toBe('fallback');
    expect(result.report?.attemptedInconclusive[0]).toBe('Stopped as stuck: ls src/work 5× with the same result');
    const tail = events.map((e) => e.type).slice(events.findIndex((e) => e.type === 'stall.detected'));
    expect(tail.filter((t) => t !== 'progress' && t !== 'checkpoint.saved')).toEqual([
      'stall.detected',
      'wind-down.started',
      'iteration',
      'step.started',
      'step.finished',
      'report.generated',
      'run.finished',
    ]);
    expect(events.find((e) => e.type === 'wind-down.started')).toMatchObject({ reason: 'stalled', graceIterations: 1 });
    const finished = events.at(-1);
    expect(finished?.type === 'run.finished' && finished.summary).toBe(
      'stopped at a stall (the run was repeating itself) after 6 iteration(s); progress report attached',
    );
  });

  it('asks the model for its report saying what looped, and keeps the report it writes', async () => {
    const report = [
      '## PROGRESS REPORT',
      '### Task',
      'Tidy src/work.',
      '### Completed Work',
      '- Listed src/work.',
      '### Attempted but Inconclusive',
      '- Listing again gave the same two files.',
    ].join('\n');
    const { result, provider } = await run([...repeat(5, lsStep), { content: report }], { stallPolicy: 'wind-down' });
    expect(result.report).toMatchObject({
      reason: 'stalled',
      generatedBy: 'model',
      completedWork: ['Listed src/work.'],
      attemptedInconclusive: ['Stopped as stuck: ls src/work 5× with the same result', 'Listing again gave the same two files.'],
    });
    const prompt = provider.requests.at(-1)?.messages.at(-1)?.content;
    expect(prompt).toContain('STOP: You are stuck repeating yourself (ls src/work 5× with the same result)');
    expect(provider.requests.at(-1)?.tools).toEqual([]);
  });

  it('nudge sends the model one message naming what repeated, once per stall', async () => {
    const { result, provider } = await run([...repeat(9, lsStep), { content: 'done' }], { stallPolicy: 'nudge' });
    expect(result.status).toBe('completed');
    const nudges = (provider.requests.at(-1)?.messages ?? []).filter(
      (m) => m.role === 'user' && m.content.startsWith('You seem to be stuck'),
    );
    expect(nudges.map((m) => m.content)).toEqual([
      'You seem to be stuck: ls src/work 5× with the same result. Doing the same thing again will give the same result. Change your approach (other arguments, another tool, another way to the goal), or, if the task is done or cannot be done, say so and stop.',
    ]);
  });

  it('asks a policy function per stall; one that throws or answers nonsense counts as warn and is reported', async () => {
    const errors: string[] = [];
    const seen: string[] = [];
    const events = collect();
    const result = await new AgentRuntime(
      {
        provider: 'scripted',
        maxIterations: 20,
        stallPolicy: (info) => {
          seen.push(`${info.kind} since ${info.since} at ${info.iteration}: ${info.description}`);
          throw new Error('policy bug');
        },
      },
      {
        provider: new ScriptedProvider([...repeat(6, lsStep), { content: 'done' }]),
        tools: [ls],
        sinks: [events.sink],
        generateId: ids(),
        clock: new ManualClock(),
        onInternalError: (_error, { where }) => errors.push(where),
      },
    ).run('t');
    expect(result.status).toBe('completed');
    expect(seen).toEqual(['repeated-call since 0 at 4: ls src/work 5× with the same result']);
    expect(errors).toEqual(['stallPolicy']);
  });

  it('rejects a misspelt policy or threshold, naming it', () => {
    expect(() => new AgentRuntime({ provider: 'scripted', stallPolicy: 'stop' as 'warn' }, { provider: new ScriptedProvider([]) })).toThrow(
      /stallPolicy/,
    );
    expect(() => new AgentRuntime({ provider: 'scripted', stall: { repeatedCall: 1 } }, { provider: new ScriptedProvider([]) })).toThrow(
      /stall\.repeatedCall/,
    );
  });
});
