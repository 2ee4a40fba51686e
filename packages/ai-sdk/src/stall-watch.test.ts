// Stall detection through withHeadway, driven by the AI SDK's own MockLanguageModelV3.
import { NullReporter, type ProgressEvent, type ProgressEventOf } from '@headway/protocol';
import { generateText, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { manualClock, scriptedModel, tools, userTexts, type Script } from './scripted-model.test-util.js';
import type { StallInfo, StallPolicy } from './stall-watch.js';
import { withHeadway } from './with-headway.js';

const MODEL_REPORT = [
  '## PROGRESS REPORT',
  '### Task',
  'Find the config',
  '### Completed Work',
  '- read a.txt',
  '### Key Findings',
  '- a.txt holds nothing new',
  '### Attempted but Inconclusive',
  '- read a.txt again and again',
  '### Not Started / Remaining',
  '- read b.txt',
  '### Suggested Next Steps',
  '- read b.txt next',
].join('\n');

const NUDGE = 'You seem to be stuck';

/** Reads `path(call)` every step; a report prompt is answered with MODEL_REPORT. */
function looping(path: (call: number) => string, prompts: string[][] = []): Script {
  return (call, options) => {
    const texts = userTexts(options);
    prompts.push(texts);
    if (texts.some((t) => t.startsWith('STOP:'))) return { text: MODEL_REPORT };
    return { calls: [{ tool: 'read', input: { path: path(call) } }] };
  };
}

const allTools = {
  ...tools,
  status: tool({ description: 'job status', inputSchema: z.object({ job: z.string() }), execute: () => Promise.resolve('pending') }),
};

async function runWith(
  script: Script,
  options: {
    maxIterations: number;
    stallPolicy?: StallPolicy;
    pollTools?: string[];
    onInternalError?: (e: unknown, c: { where: string }) => void;
  },
) {
  const events: ProgressEvent[] = [];
  const run = withHeadway({
    task: 'Find the config',
    sinks: [
      (e) => {
        events.push(e);
      },
    ],
    clock: manualClock(),
    ...options,
  });
  await generateText({ model: scriptedModel(script), tools: allTools, prompt: 'Find the config', ...run.settings });
  const result = await run.finish();
  return { events, result };
}

function ofType<T extends ProgressEvent['type']>(events: ProgressEvent[], type: T): ProgressEventOf<T>[] {
  return events.filter((e): e is ProgressEventOf<T> => e.type === type);
}

describe('stall detection in withHeadway', () => {
  it('reports a run that repeats one call with the same result as stalled by default, within 6 identical calls, and freezes the bar', async () => {
    const { events, result } = await runWith(
      looping(() => 'a.txt'),
      { maxIterations: 12 },
    );
    const detected = ofType(events, 'stall.detected');
    expect(detected).toHaveLength(1);
    const at = events.indexOf(detected[0] as ProgressEvent);
    expect(events.slice(0, at).filter((e) => e.type === 'tool.completed')).toHaveLength(5);
    expect(detected[0]).toMatchObject({
      kind: 'repeated-call',
      since: 0,
      evidence: { subject: 'read a.txt', repeats: 5, toolCallIds: ['call_1_0', 'call_2_0', 'call_3_0', 'call_4_0', 'call_5_0'] },
    });
    // `warn`: the run goes on to its limit, and the bar does not move while stalled.
    expect(result).toMatchObject({ outcome: 'limit', reason: 'max-iterations' });
    const frozen = ofType(events.slice(0, at), 'progress').at(-1)?.percent;
    expect(frozen).toBeDefined();
    for (const p of ofType(events.slice(at), 'progress')) expect(p.percent).toBe(frozen);
    expect(ofType(events, 'wind-down.started')).toEqual([]);
  });

  it('never flags a varied run of 30 different calls', async () => {
    const script: Script = (call) =>
      call < 30 ? { calls: [{ tool: 'read', input: { path: `${String(call)}.txt` } }] } : { text: 'found it in 29.txt' };
    const { events, result } = await runWith(script, { maxIterations: 40 });
    expect(ofType(events, 'tool.completed')).toHaveLength(30);
    expect(events.filter((e) => e.type.startsWith('stall.'))).toEqual([]);
    expect(result).toEqual({ outcome: 'completed', warnings: [] });
  });

  it("wind-down ends a looping run within a few iterations with the model's report, stop reason stalled", async () => {
    const prompts: string[][] = [];
    const { events, result } = await runWith(
      looping(() => 'a.txt', prompts),
      { maxIterations: 20, stallPolicy: 'wind-down' },
    );
    // Five identical calls, then the report step: six model calls in all.
    expect(prompts).toHaveLength(6);
    const stop = prompts.at(-1)?.find((t) => t.startsWith('STOP:'));
    expect(stop).toContain('You are stuck repeating yourself (read a.txt 5× with the same result)');
    expect(ofType(events, 'wind-down.started')).toMatchObject([{ reason: 'stalled', graceIterations: 1 }]);
    expect(result.outcome).toBe('limit');
    expect(result.reason).toBe('stalled');
    expect(result.report?.reason).toBe('stalled');
    expect(result.report?.generatedBy).toBe('model');
    expect(result.report?.attemptedInconclusive).toEqual([
      'Stopped as stuck: read a.txt 5× with the same result',
      'read a.txt again and again',
    ]);
    expect(ofType(events, 'report.generated')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({
      type: 'run.finished',
      outcome: 'limit',
      summary: 'stopped at a stall (the run was repeating itself) after 6 iteration(s); progress report attached',
    });
  });

  it('wind-down falls back to the tool-call log when the report step is no report', async () => {
    const script: Script = (_call, options) =>
      userTexts(options).some((t) => t.startsWith('STOP:')) ? { text: 'sorry' } : { calls: [{ tool: 'read', input: { path: 'a.txt' } }] };
    const { result } = await runWith(script, { maxIterations: 20, stallPolicy: 'wind-down' });
    expect(result).toMatchObject({ outcome: 'limit', reason: 'stalled' });
    expect(result.report?.generatedBy).toBe('fallback');
    expect(result.report?.reason).toBe('stalled');
    expect(result.report?.attemptedInconclusive[0]).toBe('Stopped as stuck: read a.txt 5× with the same result');
    expect(result.warnings).toEqual([
      "the model's report was not usable (no report sections found); built the report from the tool-call log",
    ]);
  });

  it('nudge adds exactly one message per stall to the next step, naming what repeated', async () => {
    // a.txt 5× (stall 1), b.txt once (cleared), c.txt 6× (stall 2), then done.
    const path = (call: number): string => (call < 5 ? 'a.txt' : call === 5 ? 'b.txt' : 'c.txt');
    const prompts: string[][] = [];
    const script: Script = (call, options) => {
      prompts.push(userTexts(options));
      return call < 12 ? { calls: [{ tool: 'read', input: { path: path(call) } }] } : { text: 'done' };
    };
    const { events, result } = await runWith(script, { maxIterations: 20, stallPolicy: 'nudge' });
    expect(ofType(events, 'stall.detected').map((e) => e.evidence.subject)).toEqual(['read a.txt', 'read c.txt']);
    expect(ofType(events, 'stall.cleared')).toHaveLength(1);
    const nudged = prompts
      .map((texts, step) => ({ step, nudges: texts.filter((t) => t.startsWith(NUDGE)) }))
      .filter((p) => p.nudges.length > 0);
    expect(nudged).toEqual([
      {
        step: 5,
        nudges: [
          'You seem to be stuck: read a.txt 5× with the same result. Doing the same thing again will give the same result. Change your approach (other arguments, another tool, another way to the goal), or, if the task is done or cannot be done, say so and stop.',
        ],
      },
      { step: 11, nudges: [expect.stringContaining('You seem to be stuck: read c.txt 5× with the same result.')] },
    ]);
    expect(result).toEqual({ outcome: 'completed', warnings: [] });
  });

  it('a throwing stallPolicy is reported through onInternalError and treated as warn', async () => {
    const errors: [unknown, string][] = [];
    const seen: StallInfo[] = [];
    const prompts: string[][] = [];
    const { events, result } = await runWith(
      looping(() => 'a.txt', prompts),
      {
        maxIterations: 8,
        stallPolicy: (info) => {
          seen.push(info);
          throw new Error('policy broke');
        },
        onInternalError: (error, { where }) => errors.push([error, where]),
      },
    );
    expect(seen).toMatchObject([{ kind: 'repeated-call', since: 0, iteration: 4, description: 'read a.txt 5× with the same result' }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.[1]).toBe('stallPolicy');
    expect((errors[0]?.[0] as Error).message).toBe('policy broke');
    expect(ofType(events, 'stall.detected')).toHaveLength(1);
    expect(prompts.flat().filter((t) => t.startsWith(NUDGE))).toEqual([]);
    expect(result).toMatchObject({ outcome: 'limit', reason: 'max-iterations' });
  });

  it('a stallPolicy answering something else is reported as AI_SDK_INVALID_OPTIONS and treated as warn', async () => {
    const errors: [unknown, string][] = [];
    const { result } = await runWith(
      looping(() => 'a.txt'),
      {
        maxIterations: 8,
        stallPolicy: (() => 'panic') as unknown as StallPolicy,
        onInternalError: (error, { where }) => errors.push([error, where]),
      },
    );
    expect(errors.map(([e, where]) => [(e as { code?: string }).code, where])).toEqual([['AI_SDK_INVALID_OPTIONS', 'stallPolicy']]);
    expect(result).toMatchObject({ outcome: 'limit', reason: 'max-iterations' });
  });

  it('a poll tool is never a loop; the same calls to another tool are', async () => {
    const polling: Script = (call) => (call < 12 ? { calls: [{ tool: 'status', input: { job: 'j1' } }] } : { text: 'job done' });
    const polled = await runWith(polling, { maxIterations: 20, pollTools: ['status'], stallPolicy: 'wind-down' });
    expect(polled.events.filter((e) => e.type.startsWith('stall.'))).toEqual([]);
    expect(polled.result).toEqual({ outcome: 'completed', warnings: [] });
    const unmarked = await runWith(polling, { maxIterations: 20 });
    expect(ofType(unmarked.events, 'stall.detected').map((e) => e.evidence.subject)).toEqual(['status']);
  });
  it('takes thresholds from stall, and counts plan items done in run.hub as progress', async () => {
    // a, b, c, a, b, c…: no streak and no ping-pong, but nothing new after the third step.
    const cycle = (call: number): string => `${'abc'.charAt(call % 3)}.txt`;
    const script =
      (planned: boolean, emitPlan: (done: number) => void): Script =>
      (call) => {
        if (planned) emitPlan(call);
        return call < 9 ? { calls: [{ tool: 'read', input: { path: cycle(call) } }] } : { text: 'done' };
      };
    const outcomes = [];
    for (const planned of [false, true]) {
      const events: ProgressEvent[] = [];
      const run = withHeadway({
        task: 't',
        sinks: [
          (e) => {
            events.push(e);
          },
        ],
        clock: manualClock(),
        maxIterations: 20,
        stall: { noProgressIterations: 3 },
      });
      const emitPlan = (done: number): void => {
        run.hub.emit({
          type: 'plan.updated',
          items: Array.from({ length: 10 }, (_, i) => ({
            id: `p${String(i)}`,
            text: `item ${String(i)}`,
            status: i < done ? 'completed' : 'pending',
          })),
        });
      };
      await generateText({ model: scriptedModel(script(planned, emitPlan)), tools: allTools, prompt: 't', ...run.settings });
      await run.finish();
      outcomes.push(ofType(events, 'stall.detected').map((e) => [e.kind, e.since, e.evidence.subject]));
    }
    expect(outcomes).toEqual([[['no-progress', 3, 'no new result in 3 iterations']], []]);
  });
  it('with only NullReporters (no event built) wind-down still ends a looping run as stalled', async () => {
    const prompts: string[][] = [];
    const run = withHeadway({ task: 't', sinks: [new NullReporter()], clock: manualClock(), maxIterations: 20, stallPolicy: 'wind-down' });
    await generateText({ model: scriptedModel(looping(() => 'a.txt', prompts)), tools: allTools, prompt: 't', ...run.settings });
    const result = await run.finish();
    expect(prompts).toHaveLength(6);
    expect(result).toMatchObject({ outcome: 'limit', reason: 'stalled' });
    expect(result.report?.attemptedInconclusive[0]).toBe('Stopped as stuck: read a.txt 5× with the same result');
  });
  it('sees the model repeating its text, step after step, with streamText too', async () => {
    const events: ProgressEvent[] = [];
    const run = withHeadway({
      task: 't',
      sinks: [
        (e) => {
          events.push(e);
        },
      ],
      clock: manualClock(),
      maxIterations: 20,
      stallPolicy: 'wind-down',
    });
    const script: Script = (call, options) =>
      userTexts(options).some((t) => t.startsWith('STOP:'))
        ? { text: MODEL_REPORT }
        : { text: 'Let me check  the next file.', calls: [{ tool: 'read', input: { path: `${String(call)}.txt` } }] };
    const result = streamText({ model: scriptedModel(script), tools: allTools, prompt: 't', ...run.settings });
    await result.text;
    const end = await run.finish();
    expect(ofType(events, 'stall.detected').map((e) => [e.kind, e.evidence.repeats, e.since])).toEqual([['repeated-text', 3, 0]]);
    expect(end).toMatchObject({ outcome: 'limit', reason: 'stalled' });
    expect(end.report?.attemptedInconclusive[0]).toMatch(/^Stopped as stuck: the same text 3× in a row: /);
    expect(ofType(events, 'tool.completed')).toHaveLength(3);
  });
});
