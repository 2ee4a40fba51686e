import { NullReporter, isTerminalEvent, progressEventSchema, type ProgressEvent } from '@headway/protocol';
import { errorMessage } from '@headway/protocol/internal';
import { generateText, streamText } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manualClock, scriptedModel, tools, userTexts, type ScriptStep } from './scripted-model.test-util.js';
import { withHeadway } from './with-headway.js';

const step: fc.Arbitrary<ScriptStep> = fc.oneof(
  fc
    .record({
      calls: fc.array(fc.record({ tool: fc.constantFrom('read', 'fail'), input: fc.constant({ path: 'x' }) }), {
        minLength: 1,
        maxLength: 3,
      }),
    })
    .map((s) => ({
      calls: s.calls.map((c) => (c.tool === 'fail' ? { tool: 'fail', input: {} } : c)),
    })),
  fc.string({ maxLength: 40 }).map((text) => ({ text })),
);

const scenario = fc.record({
  steps: fc.array(step, { maxLength: 8 }),
  maxIterations: fc.integer({ min: 1, max: 6 }),
  stepMs: fc.integer({ min: 0, max: 5_000 }),
  timeBudgetMs: fc.option(fc.integer({ min: 1, max: 20_000 }), { nil: undefined }),
  maxSpendUsd: fc.option(fc.double({ min: 0.001, max: 0.1, noNaN: true }), { nil: undefined }),
  abortAt: fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
  report: fc.constantFrom('good', 'garbage', 'tools'),
  stream: fc.boolean(),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;

/** The scenario's scripted step `call`; asked for the report (a `STOP:` prompt), the reply its `report` names. */
function reply(s: Scenario, call: number, options: Parameters<typeof userTexts>[0]): ScriptStep {
  if (userTexts(options).some((t) => t.startsWith('STOP:'))) {
    if (s.report === 'good') return { text: '## Completed Work\n- something\n## Suggested Next Steps\n- more' };
    if (s.report === 'tools') return { calls: [{ tool: 'read', input: { path: 'y' } }] };
    return { text: '}{garbage' };
  }
  return s.steps[call] ?? { text: 'done' };
}

describe('withHeadway over random step scripts', () => {
  it('seq and percent never go back, and there is exactly one terminal event, last', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const clock = manualClock();
        const controller = new AbortController();
        const events: ProgressEvent[] = [];
        const run = withHeadway({
          task: 'random',
          sinks: [(e) => void events.push(e)],
          maxIterations: s.maxIterations,
          clock,
          abortSignal: controller.signal,
          hardStopAfterMs: 1_000,
          ...(s.timeBudgetMs === undefined ? {} : { timeBudgetMs: s.timeBudgetMs }),
          ...(s.maxSpendUsd === undefined ? {} : { maxSpendUsd: s.maxSpendUsd, costOf: () => 0.01 }),
        });
        const model = scriptedModel((call, options) => {
          clock.advanceSync(s.stepMs);
          if (s.abortAt === call) controller.abort('stop');
          if (options.abortSignal?.aborted === true) return Promise.reject(options.abortSignal.reason as Error);
          return reply(s, call, options);
        });
        const args = { model, tools, prompt: 'random', maxRetries: 0, ...run.settings };
        const end = await run.track<unknown>(s.stream ? streamText({ ...args, onError: () => undefined }).text : generateText(args));

        events.forEach((e, i) => {
          expect(e.seq).toBe(i + 1);
          expect(progressEventSchema.safeParse(e).success).toBe(true);
        });
        const terminals = events.filter(isTerminalEvent);
        expect(terminals).toHaveLength(1);
        expect(events.at(-1)).toBe(terminals[0]);
        const percents = events.flatMap((e) => (e.type === 'progress' ? [e.percent] : []));
        expect(percents).toEqual([...percents].sort((a, b) => a - b));
        if (end.outcome === 'completed') {
          expect(end.report).toBeUndefined();
          expect(percents.at(-1)).toBe(100);
        } else {
          expect(end.report).toBeDefined();
          expect(events.at(-2)?.type).toBe('report.generated');
          expect(percents.every((p) => p < 100)).toBe(true);
        }
        expect(model.doGenerateCalls.length + model.doStreamCalls.length).toBeLessThanOrEqual(s.maxIterations);
      }),
      { numRuns: 60, timeout: 5_000 },
    );
  });
});

describe('a quiet run (only NullReporters: no event is built) over random step scripts', () => {
  it('ends with the same outcome, report, warnings and model calls as a run whose events go somewhere', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const once = async (quiet: boolean) => {
          const clock = manualClock();
          const events: ProgressEvent[] = [];
          const run = withHeadway({
            task: 'random',
            sinks: quiet ? [new NullReporter()] : [(e) => void events.push(e)],
            maxIterations: s.maxIterations,
            clock,
            hardStopAfterMs: 1_000,
            // Priced, so a quiet step still reads its usage; `nudge`, so a quiet run still watches for stalls.
            costOf: () => 0.01,
            stallPolicy: 'nudge',
            stall: { repeatedCall: 2 },
            ...(s.timeBudgetMs === undefined ? {} : { timeBudgetMs: s.timeBudgetMs }),
            ...(s.maxSpendUsd === undefined ? {} : { maxSpendUsd: s.maxSpendUsd }),
          });
          const model = scriptedModel((call, options) => {
            clock.advanceSync(s.stepMs);
            return reply(s, call, options);
          });
          const args = { model, tools, prompt: 'random', maxRetries: 0, ...run.settings };
          const end = await run.track<unknown>(s.stream ? streamText({ ...args, onError: () => undefined }).text : generateText(args));
          const prompts = [...model.doGenerateCalls, ...model.doStreamCalls].map((c) => userTexts(c));
          // The AI SDK's own result carries response ids and dates of its own: the run's side is compared.
          const { result: _result, error, ...ended } = end;
          return {
            end: { ...ended, error: error === undefined ? undefined : errorMessage(error) },
            prompts,
            seq: run.hub.lastSeq,
            events: events.length,
          };
        };
        const [quiet, loud] = [await once(true), await once(false)];
        expect(quiet.seq).toBe(0);
        expect(loud.seq).toBe(loud.events);
        expect({ end: quiet.end, prompts: quiet.prompts }).toEqual({ end: loud.end, prompts: loud.prompts });
      }),
      { numRuns: 60, timeout: 5_000 },
    );
  });
});
