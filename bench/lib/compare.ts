// Runs variants of the same work side by side, interleaved over several rounds, and
// reports each as a ratio of a baseline. Ratios within one process survive a noisy,
// shared machine far better than absolute times.
import { Bench } from 'tinybench';

export interface Variant {
  name: string;
  fn: () => void;
}

export interface Comparison {
  name: string;
  opsPerSec: number;
  /** Median over rounds of (this variant's time per op / the baseline's). */
  ratio: number;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function compare(
  baseline: string,
  variants: Variant[],
  options: { rounds?: number; timeMs?: number } = {},
): Promise<Comparison[]> {
  const rounds = options.rounds ?? 5;
  const perRound: Record<string, number[]> = {};
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time: options.timeMs ?? 300, warmup: true });
    // Alternate the order each round so neither side always runs on a warmer or cooler machine.
    const ordered = round % 2 === 0 ? variants : [...variants].reverse();
    for (const v of ordered) bench.add(v.name, v.fn);
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
      (perRound[task.name] ??= []).push(result.latency.mean);
    }
  }
  const base = perRound[baseline];
  if (base === undefined) throw new Error(`no baseline named ${baseline}`);
  return variants.map((v) => {
    const times = perRound[v.name]!;
    return {
      name: v.name,
      opsPerSec: 1000 / median(times),
      ratio: median(times.map((t, i) => t / base[i]!)),
    };
  });
}

export function printTable(title: string, rows: Comparison[]): void {
  console.log(`\n${title}`);
  console.log('| variant | ops/s | × baseline |');
  console.log('|---|---:|---:|');
  for (const r of rows) console.log(`| ${r.name} | ${Math.round(r.opsPerSec).toLocaleString('en-US')} | ${r.ratio.toFixed(2)} |`);
}
