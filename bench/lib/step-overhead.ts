// Per-step overhead of a bridge against the plain framework loop: each variant runs a short and
// a long agent run; the marginal cost of a step is (long − short) / (steps between), and its
// ratio to the plain loop's is compared to a bound. On a shared, noisy machine the load drifts
// within seconds, so the variants are interleaved finely: every round runs each task for a
// short batch (~`batchMs`), in an order that rotates from round to round.
// The table also shows the median, over the rounds, of each round's own ratio (the variant's
// marginal step against the plain loop's, both from that round's batches, measured seconds apart
// under the same load). The verdict stays on the fastest batches: the fastest batch of a variant
// that allocates much can leave its garbage to the batch after it, which the median does not
// forgive; at a load average of 50-90 on 2 cores neither was steady enough to prefer the other.
// Time is wall time by default; `measure: 'cpu'` (or BENCH_MEASURE=cpu) takes the process's CPU
// time (user + system) instead, which other processes on a busy machine disturb far less.
// Opt-in, for a bench whose verdict one run cannot settle on a busy machine: `blocks` repeats the
// rounds in independent blocks and judges on the median of the blocks' fastest-batch ratios, and
// `collectBetweenBatches` collects garbage before every batch, so no batch pays for the garbage of
// the one before it (the reason the verdict is not the median of rounds).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { verdict } from './verdict.js';

/** One way of running an agent for `steps` tool-calling steps. */
export interface StepVariant {
  name: string;
  bound: number;
  run: (steps: number) => () => Promise<void>;
  /** A row that explains the others (a part of a variant's work alone): measured and shown, but no target and no verdict. */
  informational?: boolean;
}

interface Task {
  name: string;
  fn: () => Promise<void>;
  batch: number;
}

/** What a batch is timed with: wall time, or the process's CPU time (user + system), in ms. */
type Measure = 'wall' | 'cpu';

/** How {@link stepOverhead} measures: run lengths, rounds, batch size, the clock, and (opt-in) blocks and collection. */
export interface StepOverheadOptions {
  short?: number;
  long?: number;
  /** Rounds of interleaved batches (per block, with `blocks`). */
  rounds?: number;
  batchMs?: number;
  measure?: Measure;
  /**
   * Independent blocks of `rounds` rounds each (default 1). With more than one, each block
   * yields its own fastest-batch ratio per variant and the verdict is the median over the
   * blocks: one block that a burst of load (or a badly placed collection) skewed cannot decide
   * it. The table is the first block's; a line per variant lists every block's ratio.
   */
  blocks?: number;
  /**
   * Collect garbage before every batch (default false), so a batch never pays for the garbage
   * the batch before it left behind: each pays only for what it allocates itself.
   */
  collectBetweenBatches?: boolean;
}

/** `gc()`, exposed at run time when the process was not started with `--expose-gc`. */
function exposedGc(): () => void {
  const given = (globalThis as { gc?: () => void }).gc;
  if (given !== undefined) return given;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const nowIn = (measure: Measure): number => {
  if (measure === 'wall') return performance.now();
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Runs `fn` `count` times and returns the mean time per run in ms. */
async function timeBatch(fn: () => Promise<void>, count: number, measure: Measure): Promise<number> {
  const start = nowIn(measure);
  for (let i = 0; i < count; i++) await fn();
  return (nowIn(measure) - start) / count;
}

/** The median of `values` (the mean of the middle two for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Measures every variant against the first (the plain loop) and prints a table and a verdict per variant (a miss sets the exit code). */
export async function stepOverhead(title: string, variants: StepVariant[], options: StepOverheadOptions = {}): Promise<void> {
  const measure = options.measure ?? (process.env.BENCH_MEASURE === 'cpu' ? 'cpu' : 'wall');
  const short = options.short ?? 2;
  const long = options.long ?? 12;
  const rounds = options.rounds ?? 41;
  const batchMs = options.batchMs ?? 40;
  const tasks: Task[] = variants.flatMap((v) => [short, long].map((n) => ({ name: `${v.name}/${String(n)}`, fn: v.run(n), batch: 1 })));
  // Warm up (JIT, lazy imports) and size each batch to about batchMs.
  for (const t of tasks) {
    await timeBatch(t.fn, 5, measure);
    const one = await timeBatch(t.fn, 5, measure);
    t.batch = Math.max(1, Math.round(batchMs / Math.max(one, 0.001)));
  }
  const blocks = Math.max(1, Math.floor(options.blocks ?? 1));
  const collect = options.collectBetweenBatches === true ? exposedGc() : undefined;
  const timed = async (t: Task): Promise<number> => {
    collect?.();
    return timeBatch(t.fn, t.batch, measure);
  };
  // perBlock[block][task]: the time per run of each of the block's batches, round by round.
  const perBlock: Record<string, number[]>[] = [];
  for (let block = 0; block < blocks; block++) {
    const times: Record<string, number[]> = {};
    for (let round = 0; round < rounds; round++) {
      const shift = round % tasks.length;
      const order = [...tasks.slice(shift), ...tasks.slice(0, shift)];
      for (const t of round % 2 === 0 ? order : order.reverse()) (times[t.name] ??= []).push(await timed(t));
    }
    perBlock.push(times);
  }
  // The table pools every block's batches.
  const perRound: Record<string, number[]> = {};
  for (const times of perBlock) for (const [name, list] of Object.entries(times)) (perRound[name] ??= []).push(...list);
  const allRounds = rounds * blocks;
  // Each task's time is its fastest batch: load from other processes only ever adds time, so
  // the minimum over many short batches is the estimate a busy machine disturbs least.
  const bestIn = (times: Record<string, number[]>, name: string): number => Math.min(...times[name]!);
  const best = (name: string): number => bestIn(perRound, name);
  const base = variants[0]!.name;
  const marginalIn = (times: Record<string, number[]>, name: string): number =>
    (bestIn(times, `${name}/${String(long)}`) - bestIn(times, `${name}/${String(short)}`)) / (long - short);
  const marginalOf = (name: string): number => marginalIn(perRound, name);
  const baseMarginal = marginalOf(base);
  const baseLong = best(`${base}/${String(long)}`);
  const roundMarginal = (name: string, round: number): number =>
    (perRound[`${name}/${String(long)}`]![round]! - perRound[`${name}/${String(short)}`]![round]!) / (long - short);
  const pairedRatio = (name: string): number =>
    median(Array.from({ length: allRounds }, (_, round) => roundMarginal(name, round) / roundMarginal(base, round)));
  const ratios: number[] = [];
  const how = [
    `${measure} time`,
    ...(blocks > 1 ? [`${String(blocks)} blocks`] : []),
    ...(collect === undefined ? [] : ['garbage collected before every batch']),
  ];
  console.log(`\n${title}: ${String(long)}-step runs, ${String(allRounds)} rounds of finely interleaved batches (${how.join(', ')})`);
  console.log(
    `| variant | µs per run (${measure}, fastest) | µs per step (marginal, fastest) | × plain per run (fastest) | × plain per step (fastest) | × plain per step (median of rounds) | bound |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const v of variants) {
    const l = best(`${v.name}/${String(long)}`);
    const marginal = marginalOf(v.name);
    const ratioStep = marginal / baseMarginal;
    ratios.push(ratioStep);
    console.log(
      `| ${v.name} | ${(l * 1000).toFixed(0)} | ${(marginal * 1000).toFixed(1)} | ${(l / baseLong).toFixed(2)} | ${ratioStep.toFixed(2)} | ${pairedRatio(v.name).toFixed(2)} | ${v.informational === true ? '–' : `≤ ${v.bound.toFixed(1)}`} |`,
    );
  }
  // With blocks, the verdict is the median of each block's own fastest-batch ratio.
  if (blocks > 1)
    variants.forEach((v, i) => {
      if (i === 0) return;
      const each = perBlock.map((times) => marginalIn(times, v.name) / marginalIn(times, base));
      const mid = median(each);
      ratios[i] = mid;
      console.log(
        `${v.name} per step vs ${base}, fastest batches of each block: ${each.map((r) => r.toFixed(2)).join(' ')} (median ${mid.toFixed(2)})`,
      );
    });
  variants.forEach((v, i) => {
    if (i > 0 && v.informational !== true) verdict(`${title}: ${v.name} per step vs ${base}`, ratios[i]!, '<=', v.bound);
  });
}
