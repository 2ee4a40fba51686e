// Per-step overhead of a bridge against the plain framework loop: each variant runs a short and
// a long agent run, interleaved over rounds (order alternating); the marginal cost of a step is
// (long − short) / (steps between), and its ratio to the plain loop's is compared to a bound.
import { Bench } from 'tinybench';
import { median } from './compare.js';
import { verdict } from './verdict.js';

/** One way of running an agent for `steps` tool-calling steps. */
export interface StepVariant {
  name: string;
  bound: number;
  run: (steps: number) => () => Promise<void>;
}

/** Measures every variant against the first (the plain loop) and prints a table and a verdict per variant (a miss sets the exit code). */
export async function stepOverhead(
  title: string,
  variants: StepVariant[],
  options: { short?: number; long?: number; rounds?: number; timeMs?: number } = {},
): Promise<void> {
  const short = options.short ?? 2;
  const long = options.long ?? 12;
  const rounds = options.rounds ?? 7;
  const perRound: Record<string, number[]> = {};
  const tasks = variants.flatMap((v) => [short, long].map((n) => ({ name: `${v.name}/${String(n)}`, fn: v.run(n) })));
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time: options.timeMs ?? 400, warmup: true });
    for (const t of round % 2 === 0 ? tasks : [...tasks].reverse()) bench.add(t.name, t.fn);
    await bench.run();
    for (const task of bench.tasks) {
      if (task.result.state !== 'completed') throw new Error(`${task.name}: ${task.result.state}`);
      (perRound[task.name] ??= []).push(task.result.latency.mean);
    }
  }
  const base = variants[0]!.name;
  const baseShort = perRound[`${base}/${String(short)}`]!;
  const baseLong = perRound[`${base}/${String(long)}`]!;
  const baseMarginal = baseLong.map((t, i) => (t - baseShort[i]!) / (long - short));
  const ratios: number[] = [];
  console.log(`\n${title}: ${String(long)}-step runs, median of ${String(rounds)} interleaved rounds`);
  console.log('| variant | µs per run | µs per step (marginal) | × plain per run | × plain per step | bound |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const v of variants) {
    const s = perRound[`${v.name}/${String(short)}`]!;
    const l = perRound[`${v.name}/${String(long)}`]!;
    const marginal = l.map((t, i) => (t - s[i]!) / (long - short));
    const ratioStep = median(marginal.map((m, i) => m / baseMarginal[i]!));
    ratios.push(ratioStep);
    console.log(
      `| ${v.name} | ${(median(l) * 1000).toFixed(0)} | ${(median(marginal) * 1000).toFixed(1)} | ${median(l.map((t, i) => t / baseLong[i]!)).toFixed(2)} | ${ratioStep.toFixed(2)} | ≤ ${v.bound.toFixed(1)} |`,
    );
  }
  variants.forEach((v, i) => {
    if (i > 0) verdict(`${title}: ${v.name} per step vs ${base}`, ratios[i]!, '<=', v.bound);
  });
}
