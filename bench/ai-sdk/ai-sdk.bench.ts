// Per-step overhead of @headway/ai-sdk: generateText with withHeadway (NullReporter; CLI and
// JSON reporters) vs plain generateText, the same scripted model and no-op tool, side by side
// in one process. Run: pnpm -F @headway/bench bench:ai-sdk
import { withHeadway } from '@headway/ai-sdk';
import { NullReporter } from '@headway/protocol';
import { CLIReporter } from '@headway/reporter-cli';
import { JSONReporter } from '@headway/reporter-json';
import { generateText, stepCountIs } from 'ai';
import { Bench } from 'tinybench';
import { noopAiTools as tools, toolCallingModel as model } from '../lib/ai-sdk-mock.js';
import { discardStream as devNull } from '../lib/discard-stream.js';
import { verdict } from '../lib/verdict.js';

type Who = 'plain' | 'null' | 'cli+json';

function run(steps: number, who: Who): () => Promise<void> {
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
    const sinks =
      who === 'null'
        ? [new NullReporter()]
        : [new CLIReporter({ stream: devNull(), mode: 'plain' }), new JSONReporter({ stream: devNull() })];
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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Mean ms per run of each variant, interleaved over rounds (order alternating). */
async function measure(variants: { name: string; fn: () => Promise<void> }[], rounds = 7, timeMs = 400): Promise<Record<string, number[]>> {
  const perRound: Record<string, number[]> = {};
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time: timeMs, warmup: true });
    for (const v of round % 2 === 0 ? variants : [...variants].reverse()) bench.add(v.name, v.fn);
    await bench.run();
    for (const task of bench.tasks) {
      if (task.result.state !== 'completed') throw new Error(`${task.name}: ${task.result.state}`);
      (perRound[task.name] ??= []).push(task.result.latency.mean);
    }
  }
  return perRound;
}

const SHORT = 2;
const LONG = 12;
const WHO: Who[] = ['plain', 'null', 'cli+json'];
const times = await measure(WHO.flatMap((who) => [SHORT, LONG].map((n) => ({ name: `${who}/${n}`, fn: run(n, who) }))));

const bounds: Record<Who, number> = { plain: 1, null: 1.1, 'cli+json': 1.3 };
const ratios: Partial<Record<Who, number>> = {};
console.log(`\n@headway/ai-sdk overhead: ${LONG}-step generateText runs (mock model, no-op tool), median of 7 interleaved rounds`);
console.log('| variant | µs per run | µs per step (marginal) | × plain per run | × plain per step | bound |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const who of WHO) {
  const short = times[`${who}/${SHORT}`]!;
  const long = times[`${who}/${LONG}`]!;
  const baseShort = times[`plain/${SHORT}`]!;
  const baseLong = times[`plain/${LONG}`]!;
  // Marginal cost of a step: (12-step run − 2-step run) / 10, per measurement round.
  const marginal = long.map((t, i) => (t - short[i]!) / (LONG - SHORT));
  const baseMarginal = baseLong.map((t, i) => (t - baseShort[i]!) / (LONG - SHORT));
  const ratioStep = median(marginal.map((m, i) => m / baseMarginal[i]!));
  ratios[who] = ratioStep;
  console.log(
    `| ${who} | ${(median(long) * 1000).toFixed(0)} | ${(median(marginal) * 1000).toFixed(1)} | ${median(long.map((t, i) => t / baseLong[i]!)).toFixed(2)} | ${ratioStep.toFixed(2)} | ≤ ${bounds[who].toFixed(1)} |`,
  );
}
verdict('ai-sdk: NullReporter per step vs plain generateText', ratios.null ?? Number.NaN, '<=', bounds.null);
verdict('ai-sdk: CLI + JSON reporters per step vs plain generateText', ratios['cli+json'] ?? Number.NaN, '<=', bounds['cli+json']);
