// Per-step overhead of @headway/ai-sdk: generateText with withHeadway (NullReporter; a sink that
// does nothing; CLI and JSON reporters) vs plain generateText, the same scripted model and no-op tool, side by side
// in one process; and, to tell the AI SDK's share from the bridge's, generateText with hooks that
// do nothing. Run: pnpm -F @headway/bench bench:ai-sdk
import { withHeadway } from '@headway/ai-sdk';
import { NullReporter } from '@headway/protocol';
import { CLIReporter } from '@headway/reporter-cli';
import { JSONReporter } from '@headway/reporter-json';
import { generateText, stepCountIs } from 'ai';
import { noopAiTools as tools, toolCallingModel as model } from '../lib/ai-sdk-mock.js';
import { discardStream as devNull } from '../lib/discard-stream.js';
import { stepCounts } from '../lib/step-counts.js';
import { stepOverhead } from '../lib/step-overhead.js';

/**
 * `events`: the bridge with one sink that does nothing, so the estimator, stall detection and the
 * hub run and every event is built, but no reporter writes (the null row builds no event at all).
 * cli+json − events is what the reporters themselves add, comparable with bench:runtime's
 * headway-cli+json − headway-null.
 * `stringify`: the `events` row plus one sink that does nothing but `JSON.stringify` each event
 * and keep the text: the least any reporter that writes events as JSON must do, with no redaction,
 * no line handling and no write. It shows how much of the 1.3× bound is left for the reporters.
 */
type Who = 'plain' | 'callbacks' | 'null' | 'events' | 'stringify' | 'cli+json';

/**
 * `callbacks`: plain generateText with the six settings withHeadway passes (prepareStep, stopWhen,
 * the step and tool hooks) as functions that do nothing. What it adds to plain is what the AI SDK
 * itself spends on calling hooks (each step or tool hook it awaits costs 2 promises a step: 8 of the
 * 110 in the work table), which no bridge that listens to those hooks can save; events − callbacks
 * is the bridge's own work.
 */
function doNothingSettings(steps: number): Record<string, unknown> {
  const nothing = (): undefined => undefined;
  return {
    prepareStep: nothing,
    stopWhen: stepCountIs(steps + 1),
    experimental_onStepStart: nothing,
    experimental_onToolCallStart: nothing,
    experimental_onToolCallFinish: nothing,
    onStepFinish: nothing,
  };
}

/** A sink that serialises each event and keeps the last text, so the work cannot be skipped. */
function stringifySink(): (event: unknown) => void {
  let text = '';
  return (event) => {
    text = JSON.stringify(event);
    if (text.length === 0) throw new Error('stringify: empty event');
  };
}

/** A run of `steps` steps; `counter` (the counting pass only) is one more sink, counting the events. */
function run(steps: number, who: Who, counter?: (event: unknown) => void): () => Promise<void> {
  return async () => {
    if (who === 'plain') {
      const result = await generateText({
        model: model(steps),
        system: 'You are a helpful agent.',
        prompt: 'Do the task',
        tools,
        stopWhen: stepCountIs(steps + 1),
      });
      if (result.steps.length !== steps) throw new Error(`plain: ${result.steps.length} steps`);
      return;
    }
    if (who === 'callbacks') {
      const result = await generateText({
        model: model(steps),
        system: 'You are a helpful agent.',
        prompt: 'Do the task',
        tools,
        ...doNothingSettings(steps),
      });
      if (result.steps.length !== steps) throw new Error(`callbacks: ${result.steps.length} steps`);
      return;
    }
    const sinks =
      who === 'null'
        ? [new NullReporter()]
        : who === 'events'
          ? [(_event: unknown): void => undefined]
          : who === 'stringify'
            ? [stringifySink()]
            : [
                new CLIReporter({ stream: devNull(), mode: 'plain' }),
                new JSONReporter({ stream: devNull() }),
                ...(counter ? [counter] : []),
              ];
    const headway = withHeadway({ task: 'Do the task', sinks, maxIterations: steps + 1 });
    const result = await generateText({
      model: model(steps),
      system: 'You are a helpful agent.',
      prompt: 'Do the task',
      tools,
      ...headway.settings,
    });
    const end = await headway.finish();
    if (result.steps.length !== steps || end.outcome !== 'completed')
      throw new Error(`${who}: ${result.steps.length} steps, ${end.outcome}`);
  };
}

/** Events of a run of `steps` steps, by type (a counting sink: what every reporter is handed). */
async function eventsOf(steps: number): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const headway = withHeadway({
    task: 'Do the task',
    sinks: [(event: { type: string }) => void counts.set(event.type, (counts.get(event.type) ?? 0) + 1)],
    maxIterations: steps + 1,
  });
  await generateText({ model: model(steps), system: 'You are a helpful agent.', prompt: 'Do the task', tools, ...headway.settings });
  await headway.finish();
  return counts;
}

// What a step costs the reporters starts with how many events it hands them: the marginal
// count per step ((12-step run − 2-step run) / 10), by type.
const [few, many] = [await eventsOf(2), await eventsOf(12)];
const perStep = [...many].map(([type, n]) => [type, (n - (few.get(type) ?? 0)) / 10] as const).filter(([, n]) => n !== 0);
console.log(
  `events per step: ${perStep.reduce((sum, [, n]) => sum + n, 0).toFixed(1)} (${perStep.map(([type, n]) => `${type} ${n.toFixed(1)}`).join(', ')})`,
);

// The work behind the times, which load does not move: a change to the hot path is judged by these first.
let counted = 0;
const countEvent = (): void => void (counted += 1);
await stepCounts('@headway/ai-sdk work per step', [
  { name: 'plain', run: (steps) => run(steps, 'plain') },
  { name: 'callbacks', run: (steps) => run(steps, 'callbacks') },
  // The null row emits nothing: with only NullReporters no event is built.
  { name: 'null', run: (steps) => run(steps, 'null') },
  { name: 'events', run: (steps) => run(steps, 'events') },
  { name: 'cli+json', run: (steps) => run(steps, 'cli+json', countEvent), events: () => counted },
]);

await stepOverhead(
  '@headway/ai-sdk overhead: generateText runs (mock model, no-op tool)',
  (['plain', 'callbacks', 'null', 'events', 'stringify', 'cli+json'] as const).map((who) => ({
    name: who,
    bound: { plain: 1, callbacks: 1.1, null: 1.1, events: 1.3, stringify: 1.3, 'cli+json': 1.3 }[who],
    informational: who === 'callbacks' || who === 'events' || who === 'stringify',
    run: (steps: number) => run(steps, who),
  })),
  // As bench:langgraph and bench:openai-agents: the median of 7 blocks' fastest-batch ratios. On a
  // loaded machine one block's null row ranged from 0.62× to 1.37× for the same code; quiet, the
  // cli+json row's three blocks read 1.87, 1.76 and 1.05 in one run and 1.24, 1.16 and 1.06 in the
  // next: with 3 blocks one burst of load moved the verdict. No collection before each batch here:
  // an AI SDK step is short enough (≈ 80 µs) that a batch after a full collection ran at about half
  // speed in every row (plain 140 µs per step), which measures a cold heap instead of a run.
  { blocks: 7, rounds: 25, collectBetweenBatches: false },
);
