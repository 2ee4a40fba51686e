// Cost of assembling a model call's context (attention + memory synthesizer + window check) for a
// 200-message conversation, against the runtime's own cost of one iteration (the runtime bench's
// marginal per-round cost: 12-round minus 2-round runs, over 10), measured side by side in one
// process. The bar: at most 2 ms per iteration, or 10% of a round, whichever is larger.
// Run: pnpm -F @headway/bench bench:context
import { Learnings, Playbook, createContextPipeline } from '@headway/context';
import { NullReporter } from '@headway/protocol';
import { AgentRuntime, defineTool, type ChatMessage, type ContextAssembly, type ContextPart, type ToolSpec } from '@headway/runtime';
import { ScriptedProvider, type ScriptedStep } from '@headway/runtime/testing';
import { Bench } from 'tinybench';
import { z } from 'zod';
import { verdict } from '../lib/verdict.js';

const noop = defineTool({ name: 'noop', description: 'does nothing', parameters: z.object({}), execute: () => 'ok' });

function headwayRun(rounds: number): () => Promise<void> {
  const script = (_c: unknown, _r: unknown, call: number): ScriptedStep =>
    call + 1 < rounds
      ? { toolCalls: [{ name: 'noop', args: {}, id: `call_${call}` }], usage: { inputTokens: 10, outputTokens: 5 } }
      : { content: 'done', usage: { inputTokens: 10, outputTokens: 5 } };
  return async () => {
    const provider = new ScriptedProvider(script, { record: false });
    const runtime = new AgentRuntime(
      { provider: 'scripted', maxIterations: rounds + 1, systemPrompt: 'You are a helpful agent.', progress: { aiDriven: false } },
      { provider, tools: [noop], progressReporter: new NullReporter() },
    );
    const result = await runtime.run('Do the task');
    if (result.status !== 'completed' || result.iterations !== rounds)
      throw new Error(`headway: ${result.status} after ${result.iterations}`);
  };
}

/** A 200-message conversation of a research run: tool calls, results of a few hundred characters, the verification prompt. */
function conversation(): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are a helpful agent.' },
    { role: 'user', content: 'Research the pricing of our vendors and find the cheapest plan for a team of twenty' },
  ];
  for (let i = 0; messages.length < 200; i++) {
    messages.push({
      role: 'assistant',
      content: `Looking at vendor ${i} next.`,
      toolCalls: [{ id: `c${i}`, name: 'search', args: { query: `vendor ${i} pricing` } }],
    });
    messages.push({
      role: 'tool',
      toolCallId: `c${i}`,
      name: 'search',
      content: `Vendor ${i} pricing: ${'plan seats monthly annual discount team '.repeat(8)}${i * 3} USD per seat.`,
    });
    messages.push({ role: 'user', content: 'Check before you continue: has the task been fully done?' });
  }
  return messages.slice(0, 200);
}

const tools: ToolSpec[] = ['search', 'read_page', 'compare_prices', 'write_report'].map((name) => ({
  name,
  description: `The ${name.replace('_', ' ')} tool`,
  parameters: {},
}));
const playbook = new Playbook();
const learnings = new Learnings();
for (let i = 0; i < 20; i++) {
  await playbook.record({
    task: `Research the pricing of vendor group ${i}`,
    status: 'completed',
    toolCalls: ['search', 'read_page', 'compare_prices'],
    iterations: 5,
    durationMs: 30_000,
  });
  await learnings.add(`Vendor group ${i} bills per seat; annual plans are cheaper by ${i}%.`);
}
const parts = createContextPipeline({ window: { maxTokens: 1_000_000 }, playbook, learnings }).filter((p) =>
  ['attention', 'memory', 'context-window'].includes(p.name),
);
const messages = conversation();
const info = {
  runId: 'bench',
  sessionId: 'bench',
  task: messages[1]!.content,
  provider: 'scripted',
  model: undefined,
  maxIterations: 300,
  signal: new AbortController().signal,
};
for (const p of parts) await p.beforeRun?.(info);
// One iteration's assembly, as the runtime runs it: each part in turn, system text accumulating.
let iteration = 0;
async function assemble(list: readonly ContextPart[]): Promise<void> {
  const system: string[] = [];
  let current: readonly ToolSpec[] = tools;
  for (const p of list) {
    const a: ContextAssembly = {
      ...info,
      iteration,
      showProgress: () => () => undefined,
      conversation: messages,
      system: system.slice(),
      tools: current,
    };
    const r = await p.assembleContext?.(a);
    if (r?.system !== undefined) system.push(r.system);
    if (r?.tools !== undefined) current = r.tools;
  }
  iteration += 1;
}
await assemble(parts);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const variants: { name: string; fn: () => Promise<void> }[] = [
  { name: 'runtime/2', fn: headwayRun(2) },
  { name: 'runtime/12', fn: headwayRun(12) },
  { name: 'assemble/200', fn: () => assemble(parts) },
];
const perRound: Record<string, number[]> = {};
for (let round = 0; round < 7; round++) {
  const bench = new Bench({ time: 300, warmup: true });
  for (const v of round % 2 === 0 ? variants : [...variants].reverse()) bench.add(v.name, v.fn);
  await bench.run();
  for (const task of bench.tasks) {
    if (task.result.state !== 'completed') throw new Error(`${task.name}: ${task.result.state}`);
    (perRound[task.name] ??= []).push(task.result.latency.mean);
  }
}
const roundMs = perRound['runtime/12']!.map((t, i) => (t - perRound['runtime/2']![i]!) / 10);
const assembleMs = perRound['assemble/200']!;
const ratio = median(assembleMs.map((t, i) => t / roundMs[i]!));
const assemble200 = median(assembleMs);
const bar = Math.max(2, 0.1 * median(roundMs));
console.log('\nContext assembly (attention + memory synthesizer + window check), 200-message conversation, median of 7 interleaved rounds');
console.log('| measure | µs |');
console.log('|---|---:|');
console.log(`| runtime, one iteration (marginal) | ${(median(roundMs) * 1000).toFixed(1)} |`);
console.log(`| context assembly, one iteration | ${(assemble200 * 1000).toFixed(1)} |`);
console.log(
  `\nassembly / round: ${ratio.toFixed(2)}×; bar max(2 ms, 10% of a round) = ${(bar * 1000).toFixed(0)} µs: ${assemble200 <= bar ? 'within' : 'OVER'}`,
);
verdict('context: assembly of 200 messages, ms (bar: max(2 ms, 10% of an iteration))', assemble200, '<=', Number(bar.toFixed(2)), ' ms');
