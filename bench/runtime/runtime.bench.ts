// Per-round overhead of the headway agent loop vs the AI SDK's generateText multi-step
// loop, both driving a scripted model and a no-op tool for the same rounds in the same
// process. Run: pnpm -F @headway/bench bench:runtime
import { NullReporter } from '@headway/protocol';
import { CLIReporter } from '@headway/reporter-cli';
import { JSONReporter } from '@headway/reporter-json';
import { AgentRuntime, defineTool } from '@headway/runtime';
import { ScriptedProvider, type ScriptedStep } from '@headway/runtime/testing';
import { generateText, stepCountIs } from 'ai';
import { Bench } from 'tinybench';
import { z } from 'zod';
import { noopAiTools, toolCallingModel } from '../lib/ai-sdk-mock.js';
import { discardStream as sink } from '../lib/discard-stream.js';
import { stepCounts } from '../lib/step-counts.js';

/** The AI SDK: generateText with a mock model that calls `noop` until the last iteration, then answers. */
function aiSdkRun(rounds: number): () => Promise<void> {
  return async () => {
    const result = await generateText({
      model: toolCallingModel(rounds),
      system: 'You are a helpful agent.',
      prompt: 'Do the task',
      tools: noopAiTools,
      stopWhen: stepCountIs(rounds + 1),
    });
    if (result.steps.length !== rounds) throw new Error(`ai: expected ${rounds} steps, got ${result.steps.length}`);
  };
}

const noop = defineTool({ name: 'noop', description: 'does nothing', parameters: z.object({}), execute: () => 'ok' });

/** headway: AgentRuntime with a ScriptedProvider doing the same rounds. */
function headwayRun(rounds: number, reporters: 'null' | 'cli+json', counter?: (event: unknown) => void): () => Promise<void> {
  const script = (_c: unknown, _r: unknown, call: number): ScriptedStep =>
    call + 1 < rounds
      ? { toolCalls: [{ name: 'noop', args: {}, id: `call_${call}` }], usage: { inputTokens: 10, outputTokens: 5 } }
      : { content: 'done', usage: { inputTokens: 10, outputTokens: 5 } };
  return async () => {
    const provider = new ScriptedProvider(script, { record: false });
    const deps =
      reporters === 'null'
        ? { provider, tools: [noop], progressReporter: new NullReporter() }
        : {
            provider,
            tools: [noop],
            progressReporter: new CLIReporter({ stream: sink(), mode: 'plain' }),
            sinks: [new JSONReporter({ stream: sink() }), ...(counter ? [counter] : [])],
          };
    const runtime = new AgentRuntime(
      { provider: 'scripted', maxIterations: rounds + 1, systemPrompt: 'You are a helpful agent.', progress: { aiDriven: false } },
      deps,
    );
    const result = await runtime.run('Do the task');
    if (result.status !== 'completed' || result.iterations !== rounds)
      throw new Error(`headway: ${result.status} after ${result.iterations}`);
  };
}

const RESULT_2K = 'x'.repeat(2048);
const readFile = defineTool({
  name: 'read_file',
  description: 'reads',
  parameters: z.object({ path: z.string() }),
  execute: () => RESULT_2K,
});
const readFilePoll = defineTool({ ...readFile, poll: true, execute: () => RESULT_2K });

/**
 * headway with a tool returning 2 KB for a new path each iteration: with stall detection
 * (`watched`), or with the tool marked `poll` so detection skips its calls (the baseline).
 */
function stallRun(rounds: number, watched: boolean): () => Promise<void> {
  const script = (_c: unknown, _r: unknown, call: number): ScriptedStep =>
    call + 1 < rounds
      ? {
          toolCalls: [{ name: 'read_file', args: { path: `src/f${call}.ts` }, id: `call_${call}` }],
          usage: { inputTokens: 10, outputTokens: 5 },
        }
      : { content: 'done', usage: { inputTokens: 10, outputTokens: 5 } };
  return async () => {
    const runtime = new AgentRuntime(
      { provider: 'scripted', maxIterations: rounds + 1, systemPrompt: 'You are a helpful agent.', progress: { aiDriven: false } },
      {
        provider: new ScriptedProvider(script, { record: false }),
        tools: [watched ? readFile : readFilePoll],
        progressReporter: new NullReporter(),
      },
    );
    const result = await runtime.run('Do the task');
    if (result.status !== 'completed' || result.iterations !== rounds)
      throw new Error(`headway: ${result.status} after ${result.iterations}`);
  };
}

interface Variant {
  name: string;
  fn: () => Promise<void>;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Mean ms per run of each variant, interleaved over rounds (order alternating). */
async function measure(variants: Variant[], rounds = 7, timeMs = 400): Promise<Record<string, number[]>> {
  const perRound: Record<string, number[]> = {};
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time: timeMs, warmup: true });
    const ordered = round % 2 === 0 ? variants : [...variants].reverse();
    for (const v of ordered) bench.add(v.name, v.fn);
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
      (perRound[task.name] ??= []).push(result.latency.mean);
    }
  }
  return perRound;
}

const SHORT = 2;
const LONG = 12;

// The work behind the times, line by line comparable with bench:ai-sdk's per-step table.
let counted = 0;
const countEvent = (): void => void (counted += 1);
await stepCounts('Agent loop work per iteration', [
  { name: 'ai-sdk', run: aiSdkRun },
  { name: 'headway-null', run: (n) => headwayRun(n, 'null') },
  { name: 'headway-cli+json', run: (n) => headwayRun(n, 'cli+json', countEvent), events: () => counted },
]);

const variants: Variant[] = [];
for (const n of [SHORT, LONG]) {
  variants.push({ name: `ai-sdk/${n}`, fn: aiSdkRun(n) });
  variants.push({ name: `headway-null/${n}`, fn: headwayRun(n, 'null') });
  variants.push({ name: `headway-cli+json/${n}`, fn: headwayRun(n, 'cli+json') });
  variants.push({ name: `stall-off/${n}`, fn: stallRun(n, false) });
  variants.push({ name: `stall-on/${n}`, fn: stallRun(n, true) });
}
const times = await measure(variants);

const rows: { name: string; perRun: number; perRound: number; ratioRun: number; ratioRound: number }[] = [];
for (const who of ['ai-sdk', 'headway-null', 'headway-cli+json']) {
  const short = times[`${who}/${SHORT}`]!;
  const long = times[`${who}/${LONG}`]!;
  const baseShort = times[`ai-sdk/${SHORT}`]!;
  const baseLong = times[`ai-sdk/${LONG}`]!;
  // Marginal cost of a round: (time of a 12-round run − time of a 2-round run) / 10, per measurement round.
  const marginal = long.map((t, i) => (t - short[i]!) / (LONG - SHORT));
  const baseMarginal = baseLong.map((t, i) => (t - baseShort[i]!) / (LONG - SHORT));
  rows.push({
    name: who,
    perRun: median(long),
    perRound: median(marginal),
    ratioRun: median(long.map((t, i) => t / baseLong[i]!)),
    ratioRound: median(marginal.map((m, i) => m / baseMarginal[i]!)),
  });
}

console.log(`\nAgent loop overhead: ${LONG}-round runs (scripted model, no-op tool), median of 7 interleaved rounds`);
console.log('| variant | µs per run | µs per iteration (marginal) | × AI SDK per run | × AI SDK per iteration |');
console.log('|---|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.name} | ${(r.perRun * 1000).toFixed(0)} | ${(r.perRound * 1000).toFixed(1)} | ${r.ratioRun.toFixed(2)} | ${r.ratioRound.toFixed(2)} |`,
  );
}

{
  // Stall detection's cost per iteration: the same runs with it watching the tool calls and with
  // the tool marked `poll` (detection skips it), side by side.
  const on = (n: number) => times[`stall-on/${n}`]!;
  const off = (n: number) => times[`stall-off/${n}`]!;
  const marginal = (t: (n: number) => number[]) => t(LONG).map((v, i) => (v - t(SHORT)[i]!) / (LONG - SHORT));
  const onM = marginal(on);
  const offM = marginal(off);
  console.log(`\nStall detection (a 2 KB result per iteration, a new path each time), ${LONG}-round runs`);
  console.log('| variant | µs per iteration (marginal) | × detection off per run | × detection off per iteration |');
  console.log('|---|---:|---:|---:|');
  console.log(`| stall-off (tool marked poll) | ${(median(offM) * 1000).toFixed(1)} | 1.00 | 1.00 |`);
  console.log(
    `| stall-on (default) | ${(median(onM) * 1000).toFixed(1)} | ${median(on(LONG).map((t, i) => t / off(LONG)[i]!)).toFixed(3)} | ${median(onM.map((m, i) => m / offM[i]!)).toFixed(3)} |`,
  );
}
