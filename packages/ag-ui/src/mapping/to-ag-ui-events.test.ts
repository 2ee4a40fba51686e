import { EventType, type AGUIEvent } from '@ag-ui/core';
import type { ProgressEvent, ProgressEventBody, ProgressReport } from '@headway/protocol';
import { MACHINE_LOAD_FACTOR, progressEventArbitraries } from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replayThroughClient, schemaProblems, verifyWithClient } from '../ag-ui-client.test-util.js';
import { toAgUiEvents, type AgUiEventMapper } from './to-ag-ui-events.js';

/** A time limit of this file, stretched on a busy machine as the hostile fuzzing limits are. */
const scaled = (ms: number): number => Math.round(ms * MACHINE_LOAD_FACTOR);

function stamp(bodies: ProgressEventBody[], runId = 'run-1'): ProgressEvent[] {
  return bodies.map((body, i) => ({ ...body, runId, seq: i + 1, ts: 1000 + i }));
}

function mapAll(events: readonly ProgressEvent[], mapper: AgUiEventMapper = toAgUiEvents({ threadId: 'thread-1' })): AGUIEvent[] {
  return [...events.flatMap((e) => mapper.push(e)), ...mapper.end()];
}

function line(e: AGUIEvent): string {
  switch (e.type) {
    case EventType.STEP_STARTED:
    case EventType.STEP_FINISHED:
      return `${e.type} ${e.stepName}`;
    case EventType.TEXT_MESSAGE_START:
    case EventType.TEXT_MESSAGE_END:
      return `${e.type} ${e.messageId}`;
    case EventType.TEXT_MESSAGE_CONTENT:
      return `${e.type} ${e.messageId} ${JSON.stringify(e.delta)}`;
    case EventType.TOOL_CALL_START:
      return `${e.type} ${e.toolCallId} ${e.toolCallName} parent=${e.parentMessageId ?? '-'}`;
    case EventType.TOOL_CALL_ARGS:
      return `${e.type} ${e.toolCallId} ${e.delta}`;
    case EventType.TOOL_CALL_END:
      return `${e.type} ${e.toolCallId}`;
    case EventType.TOOL_CALL_RESULT:
      return `${e.type} ${e.toolCallId} ${JSON.stringify(e.content)}`;
    case EventType.ACTIVITY_DELTA:
      return `${e.type} ${e.patch.map((p) => ('value' in p ? `${p.path}=${JSON.stringify(p.value)}` : p.path)).join(' ')}`;
    case EventType.CUSTOM:
      return `${e.type} ${e.name}`;
    case EventType.RUN_FINISHED:
      return `${e.type} ${e.outcome?.type ?? '-'}`;
    case EventType.RUN_ERROR:
      return `${e.type} ${e.code ?? '-'} ${e.message}`;
    default:
      return e.type;
  }
}

const report: ProgressReport = {
  task: 'Summarize the repository',
  reason: 'max-iterations',
  completedWork: ['read README.md'],
  keyFindings: ['eight packages'],
  attemptedInconclusive: [],
  remaining: ['read the design notes'],
  suggestedNextSteps: ['continue from the design notes'],
  stats: { iterations: 2, toolCalls: 1, elapsedMs: 40 },
  generatedBy: 'fallback',
};

describe('toAgUiEvents', () => {
  it('maps a run with a step, text, a tool call and progress, in order', () => {
    const events = stamp([
      { type: 'run.started', agentName: 'demo', task: 'Summarize' },
      { type: 'iteration', index: 0, max: 3 },
      { type: 'step.started', step: 'model' },
      { type: 'text.delta', text: 'Reading ' },
      { type: 'text.delta', text: 'the README.' },
      { type: 'step.finished', step: 'model', durationMs: 5 },
      { type: 'tool.executing', toolName: 'file_read', toolCallId: 'call-1', args: { path: 'README.md' } },
      { type: 'progress', percent: 40, message: 'read', etaMs: 2000 },
      { type: 'tool.completed', toolName: 'file_read', toolCallId: 'call-1', durationMs: 3, ok: true, preview: '# headway' },
      { type: 'run.finished', durationMs: 12, outcome: 'completed' },
    ]);
    expect(mapAll(events).map(line)).toMatchInlineSnapshot(`
      [
        "RUN_STARTED",
        "ACTIVITY_SNAPSHOT",
        "ACTIVITY_DELTA /iteration={"index":0,"max":3}",
        "STEP_STARTED model",
        "TEXT_MESSAGE_START run-1:m1",
        "TEXT_MESSAGE_CONTENT run-1:m1 "Reading "",
        "TEXT_MESSAGE_CONTENT run-1:m1 "the README."",
        "TEXT_MESSAGE_END run-1:m1",
        "STEP_FINISHED model",
        "TOOL_CALL_START call-1 file_read parent=run-1:m1",
        "TOOL_CALL_ARGS call-1 {"path":"README.md"}",
        "TOOL_CALL_END call-1",
        "ACTIVITY_DELTA /percent=40 /message="read" /etaMs=2000",
        "TOOL_CALL_RESULT call-1 "# headway"",
        "ACTIVITY_DELTA /toolCalls={"finished":1,"failed":0}",
        "ACTIVITY_DELTA /status="completed"",
        "RUN_FINISHED success",
      ]
    `);
  });

  it('carries the parent run and the ETA range in the activity, and patches the range only when it changes', () => {
    const out = mapAll(
      stamp([
        { type: 'run.started', agentName: 'demo', task: 'Summarize', parentRunId: 'run-0' },
        { type: 'progress', percent: 20, etaMs: 4000, etaLowMs: 2000, etaHighMs: 9000 },
        { type: 'progress', percent: 30, etaMs: 3000, etaLowMs: 2000, etaHighMs: 9000 },
        { type: 'progress', percent: 40 },
        { type: 'run.finished', durationMs: 12, outcome: 'completed' },
      ]),
    );
    expect(out.map(line).filter((l) => l.startsWith('ACTIVITY_DELTA'))).toEqual([
      'ACTIVITY_DELTA /parentRunId="run-0"',
      'ACTIVITY_DELTA /percent=20 /message=null /etaMs=4000 /etaLowMs=2000 /etaHighMs=9000',
      'ACTIVITY_DELTA /percent=30 /message=null /etaMs=3000',
      'ACTIVITY_DELTA /percent=40 /message=null /etaMs=null /etaLowMs=null /etaHighMs=null',
      'ACTIVITY_DELTA /status="completed"',
    ]);
  });

  it('closes the open text, the unfinished tool call and the open steps, in that order, before RUN_FINISHED cancelled', async () => {
    const events = stamp([
      { type: 'run.started', agentName: 'demo' },
      { type: 'step.started', step: 'outer' },
      { type: 'step.started', step: 'inner' },
      { type: 'tool.executing', toolName: 'slow', toolCallId: 'call-9' },
      { type: 'text.delta', text: 'still working' },
      { type: 'run.cancelled', reason: 'user stopped it' },
    ]);
    const out = mapAll(events);
    expect(out.slice(-7).map(line)).toEqual([
      'TEXT_MESSAGE_CONTENT run-1:m1 "still working"',
      'TEXT_MESSAGE_END run-1:m1',
      'TOOL_CALL_RESULT call-9 "did not finish: the run was cancelled"',
      'STEP_FINISHED inner',
      'STEP_FINISHED outer',
      'ACTIVITY_DELTA /status="cancelled" /stopReason="user stopped it"',
      'RUN_FINISHED cancelled',
    ]);
    const view = await replayThroughClient(out);
    expect(view.outcome).toBe('cancelled');
    expect(view.warnings).toEqual([]);
  });

  it('maps a failure mid-tool to RUN_ERROR after closing the call and the step', async () => {
    const out = mapAll(
      stamp([
        { type: 'run.started', agentName: 'demo' },
        { type: 'step.started', step: 'work' },
        { type: 'tool.executing', toolName: 'fetch', toolCallId: 'c1', args: { url: 'x' } },
        { type: 'run.error', error: 'provider down' },
      ]),
    );
    expect(out.slice(-4).map(line)).toEqual([
      'TOOL_CALL_RESULT c1 "did not finish: the run failed"',
      'STEP_FINISHED work',
      'ACTIVITY_DELTA /status="failed" /stopReason="provider down"',
      'RUN_ERROR HEADWAY_RUN_ERROR provider down',
    ]);
    await verifyWithClient(out);
  });

  it('sends stall.detected and stall.cleared as CUSTOM events a client receives', async () => {
    const evidence = { toolCallIds: ['c1', 'c2'], subject: 'ls src/work', repeats: 5 };
    const out = mapAll(
      stamp([
        { type: 'run.started', agentName: 'demo' },
        { type: 'stall.detected', kind: 'repeated-call', evidence, since: 2 },
        { type: 'stall.cleared', kind: 'repeated-call', since: 2 },
        { type: 'run.finished', durationMs: 40, outcome: 'completed' },
      ]),
    );
    const view = await replayThroughClient(out);
    expect(view.custom).toEqual([
      { name: 'headway.stall.detected', value: { kind: 'repeated-call', evidence, since: 2 } },
      { name: 'headway.stall.cleared', value: { kind: 'repeated-call', since: 2 } },
    ]);
  });

  it('sends the report as CUSTOM headway.report and in the activity, and a limit run finishes with success', async () => {
    const out = mapAll(
      stamp([
        { type: 'run.started', agentName: 'demo' },
        { type: 'limit.approaching', limit: 'iterations', used: 4, max: 5 },
        { type: 'limit.reached', limit: 'iterations', used: 5, max: 5 },
        { type: 'wind-down.started', reason: 'max-iterations', graceIterations: 1 },
        { type: 'report.generated', report },
        { type: 'run.finished', durationMs: 40, outcome: 'limit', summary: 'stopped at the iteration limit' },
      ]),
    );
    const view = await replayThroughClient(out);
    expect(view.custom).toEqual([{ name: 'headway.report', value: report }]);
    const activity = view.messages.find((m) => m.role === 'activity');
    expect(activity).toMatchObject({
      activityType: 'progress',
      content: {
        status: 'limit',
        report,
        limits: { iterations: { used: 5, max: 5, reached: true }, time: null, cost: null },
        windDown: { reason: 'max-iterations', graceIterations: 1 },
      },
    });
    const finished = out.at(-1);
    expect(finished).toMatchObject({
      type: 'RUN_FINISHED',
      outcome: { type: 'success' },
      result: { outcome: 'limit', state: 'limit', summary: 'stopped at the iteration limit' },
    });
  });

  it('says how the run ended in the one run-state vocabulary: which limit, stalled', async () => {
    const ended = async (finish: Parameters<typeof stamp>[0][number]) => {
      const out = mapAll(stamp([{ type: 'run.started', agentName: 'demo' }, finish]));
      const view = await replayThroughClient(out);
      const content = (view.messages.find((m) => m.role === 'activity') as unknown as { content: { status: string } }).content;
      return { status: content.status, result: (out.at(-1) as { result?: unknown }).result };
    };
    expect(await ended({ type: 'run.finished', durationMs: 5, outcome: 'limit', stopReason: 'cost-budget' })).toEqual({
      status: 'limit',
      result: { outcome: 'limit', state: 'limit', limit: 'cost', stopReason: 'cost-budget', durationMs: 5 },
    });
    expect(await ended({ type: 'run.finished', durationMs: 5, outcome: 'limit', stopReason: 'stalled' })).toEqual({
      status: 'stalled',
      result: { outcome: 'limit', state: 'stalled', stopReason: 'stalled', durationMs: 5 },
    });
  });

  it('ends a stream cut short with RUN_ERROR HEADWAY_STREAM_ENDED, and maps nothing after the end', () => {
    const mapper = toAgUiEvents();
    mapper.push(stamp([{ type: 'step.started', step: 's' }])[0]!);
    expect(mapper.end().map(line)).toEqual([
      'STEP_FINISHED s',
      'ACTIVITY_DELTA /status="failed" /stopReason="The event stream ended before the run finished"',
      'RUN_ERROR HEADWAY_STREAM_ENDED The event stream ended before the run finished',
    ]);
    expect(mapper.ended).toBe(true);
    expect(mapper.end()).toEqual([]);
    expect(mapper.push(stamp([{ type: 'text.delta', text: 'late' }])[0]!)).toEqual([]);
  });

  it('gives each tool call a unique id even when the source repeats one', () => {
    const out = mapAll(
      stamp([
        { type: 'tool.executing', toolName: 'a', toolCallId: 'same' },
        { type: 'tool.completed', toolName: 'a', toolCallId: 'same', durationMs: 1, ok: true },
        { type: 'tool.executing', toolName: 'a', toolCallId: 'same' },
        { type: 'tool.completed', toolName: 'a', toolCallId: 'same', durationMs: 1, ok: false, preview: 'boom' },
      ]),
    );
    const starts = out.filter((e) => e.type === EventType.TOOL_CALL_START).map((e) => e.toolCallId);
    expect(starts).toEqual(['same', 'run-1:t2']);
    const results = out.filter((e) => e.type === EventType.TOOL_CALL_RESULT).map((e) => [e.toolCallId, e.content]);
    expect(results).toEqual([
      ['same', ''],
      ['run-1:t2', 'boom'],
    ]);
  });

  it('snapshot() brings a fresh client to the same state as the full stream, and later events continue it', async () => {
    const events = stamp([
      { type: 'run.started', agentName: 'demo', task: 'T' },
      { type: 'step.started', step: 'model' },
      { type: 'text.delta', text: 'Hello' },
      { type: 'tool.executing', toolName: 'file_read', toolCallId: 'c1', args: { path: 'a' } },
      { type: 'tool.completed', toolName: 'file_read', toolCallId: 'c1', durationMs: 1, ok: true, preview: 'A' },
      { type: 'step.started', step: 'model-2' },
      { type: 'text.delta', text: 'Wor' },
      { type: 'progress', percent: 60 },
      // -- the snapshot is taken here --
      { type: 'text.delta', text: 'ld' },
      { type: 'step.finished', step: 'model-2', durationMs: 3 },
      { type: 'run.finished', durationMs: 10, outcome: 'completed' },
    ]);
    const full = toAgUiEvents({ threadId: 't' });
    const late = toAgUiEvents({ threadId: 't' });
    const fullOut = events.flatMap((e) => full.push(e));
    const before = events.slice(0, 8);
    before.forEach((e) => late.push(e));
    const reattached = [...late.snapshot(), ...events.slice(8).flatMap((e) => late.push(e))];
    expect(schemaProblems(reattached)).toEqual([]);
    const [a, b] = await Promise.all([replayThroughClient(fullOut), replayThroughClient(reattached)]);
    expect(b.warnings).toEqual([]);
    expect(b.messages).toEqual(a.messages);
    expect(b.outcome).toBe('success');
  });

  it('fuzz: any stream, shuffled or cut short, yields events every schema accepts and the client verifier passes', async () => {
    const { event } = progressEventArbitraries();
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 40 }), fc.boolean(), async (events, withEnd) => {
        const mapper = toAgUiEvents();
        const out = events.flatMap((e) => mapper.push(e));
        if (withEnd) out.push(...mapper.end());
        expect(schemaProblems(out)).toEqual([]);
        await verifyWithClient(out);
        const terminals = out.filter((e) => e.type === EventType.RUN_FINISHED || e.type === EventType.RUN_ERROR);
        expect(terminals.length).toBeLessThanOrEqual(1);
        if (terminals.length === 1) expect(out.at(-1)).toBe(terminals[0]);
        if (withEnd) expect(terminals).toHaveLength(1);
      }),
      { numRuns: 300, timeout: scaled(2000) },
    );
  });

  it('fuzz: the client applies any mapped stream (and a snapshot taken anywhere) without a warning or an error', async () => {
    const { event } = progressEventArbitraries();
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 25 }), fc.nat(), async (events, cut) => {
        const mapper = toAgUiEvents();
        const at = events.length === 0 ? 0 : cut % events.length;
        events.slice(0, at).forEach((e) => mapper.push(e));
        const stream = [...mapper.snapshot(), ...events.slice(at).flatMap((e) => mapper.push(e)), ...mapper.end()];
        const view = await replayThroughClient(stream);
        expect(view.warnings).toEqual([]);
        expect(view.messages).toEqual(mapper.messages());
      }),
      { numRuns: 60, timeout: scaled(5000) },
    );
  });
});
