// How narrow can any p10–p90 range of the time left be, on these runs, given only what a tracker
// can observe at that moment? A bound for the range targets of bench:estimator (80 ± 7% coverage
// and a median width at most 4× the true time left, in each third of the run).
//
// Each run of both trace folders (or HEADWAY_TRACES) is sampled as bench:estimator samples it (400
// even times, from the third iteration on; the third of the run is the true elapsed share). At each
// sample it reads every observable feature: elapsed time, iterations started, the mean and the recent
// (last three) iteration time, the time spent in the current iteration, tool calls, the cap, the
// agent's plan (items, share done, updates, plans replaced) and what the tracker itself shows (its
// percent and its raw point ETA over the elapsed time). The range is then fitted IN-SAMPLE by the
// most flexible model at hand: the K nearest samples (standardised features) of all the OTHER runs
// (a run never predicts itself; its neighbours come from every group, its own included), whose
// log(time left) give a distribution. From it, ranges with three choices of quantile levels, each
// chosen on the grid p0–p40 × p60–p100:
// - knowing the third (not a real range: it uses the answer): per third, the narrowest pair that
//   holds the truth at least 80% of the time there. Its width is below what any range built on this
//   distribution can have at 80% in every third.
// - one pair for every sample: the pair whose worst third is closest to 80%.
// - a pair per stage the neighbours predict (early, middle, late: elapsed over elapsed plus their
//   median time left): a range that could really be built, as the levels depend only on what is
//   observed; chosen by coordinate descent so that the worst third is closest to 80%.
// The same tables with neighbours from other groups only (leave-one-group-out, as bench:estimator
// scores the tracker) show how much of the in-sample sharpness a new kind of task keeps.
// Where even the in-sample ranges miss a target, the features at hand do not carry the information
// the target needs on this data (for this model: nearest neighbours over these features).
// Run: pnpm -F @headway/bench bench:estimator:bound
import { basename } from 'node:path';
import { replayProgress, type EtaCalibration } from '@headway/estimator';
import { loadRealTraces, tracesDirs, type Trace } from './traces.js';
import { nearestRows, standardise } from '../lib/nearest.js';

/** As bench:estimator. */
const DEFAULT_CAP = 30;
const SAMPLES = 400;
/** Neighbours per sample, from other runs (in-sample) or other groups (leave-one-group-out, for comparison); a table for each. */
const NEIGHBOURS = [
  { k: 50, apart: 'run' },
  { k: 200, apart: 'run' },
  { k: 50, apart: 'group' },
] as const;
/** Every STRIDE-th sample of a run is a query and a candidate neighbour (cost is quadratic in samples). */
const STRIDE = 4;
const COVERAGE = 0.8;
const IDENTITY: EtaCalibration = {
  plan: [{ belowPercent: 101, low: 0, mid: 0, high: 0 }],
  iterations: [{ belowPercent: 101, low: 0, mid: 0, high: 0 }],
  finishing: [{ belowPercent: 101, low: 0, mid: 0, high: 0 }],
};

interface Sample {
  folder: string;
  run: number;
  group: string;
  third: 0 | 1 | 2;
  /** True time left (ms) and its log. */
  left: number;
  elapsed: number;
  /** The agent has shown a plan by now. */
  planned: boolean;
  features: number[];
}

const log1p = (v: number): number => Math.log(1 + Math.max(0, v));

/** The observable features of every STRIDE-th sample of a run from its third iteration on. */
function samplesOf(trace: Trace, folder: string, run: number): Sample[] {
  const duration = Math.max(1, trace.endTs - trace.startTs);
  const at = Array.from({ length: SAMPLES }, (_, k) => trace.startTs + ((k + 0.5) / SAMPLES) * duration);
  const cap = trace.maxIterations ?? DEFAULT_CAP;
  const points = replayProgress(trace.raw, { plan: true, maxIterations: cap, at, etaCalibration: IDENTITY });
  const out: Sample[] = [];
  let next = 0;
  let shown = 0;
  let eta: number | undefined;
  let e = 0;
  const rounds: number[] = [];
  let tools = 0;
  let plan: { total: number; completed: number; inProgress: number } | undefined;
  let planUpdates = 0;
  let replaced = 0;
  for (const [k, t] of at.entries()) {
    while (next < points.length && points[next]!.ts <= t) {
      const p = points[next++]!;
      shown = p.percent;
      eta = p.etaMs;
    }
    for (; e < trace.events.length && trace.events[e]!.ts <= t; e++) {
      const ev = trace.events[e]!;
      if (ev.kind === 'round') rounds.push(ev.ts);
      else if (ev.kind === 'tool.done') tools++;
      else if (ev.kind === 'plan') {
        if (plan !== undefined && plan.completed >= plan.total && ev.completed < ev.total) replaced++;
        plan = ev;
        planUpdates++;
      }
    }
    if (rounds.length < 3 || k % STRIDE !== 0) continue;
    const elapsed = t - trace.startTs;
    const last = rounds[rounds.length - 1]!;
    const recent = (last - rounds[rounds.length - 4 < 0 ? 0 : rounds.length - 4]!) / Math.min(3, rounds.length - 1);
    const mean = (last - trace.startTs) / (rounds.length - 1);
    const features = [
      Math.log(elapsed),
      Math.log(rounds.length),
      log1p(mean),
      log1p(recent),
      log1p(t - last) - log1p(recent),
      log1p(tools),
      Math.log(cap),
      Math.log(Math.max(1, cap - rounds.length)),
      plan === undefined ? 0 : 1,
      plan === undefined ? 0 : (plan.completed + 0.5 * Math.min(1, plan.inProgress)) / Math.max(1, plan.total),
      plan === undefined ? 0 : log1p(plan.total - plan.completed),
      log1p(planUpdates),
      log1p(replaced),
      shown / 100,
      eta === undefined ? 0 : 1,
      eta === undefined || eta <= 0 ? 0 : Math.log(eta / elapsed),
    ];
    out.push({
      folder,
      run,
      group: trace.group,
      third: Math.min(2, Math.floor((3 * k) / SAMPLES)) as 0 | 1 | 2,
      left: trace.endTs - t,
      elapsed,
      planned: plan !== undefined,
      features,
    });
  }
  return out;
}

/** For each sample, the sorted log(time left) of its k nearest samples of other runs. */
function neighbourLogs(samples: Sample[], k: number, apart: 'run' | 'group'): Float64Array[] {
  const width = samples[0]?.features.length ?? 0;
  const flat = new Float64Array(samples.length * width);
  for (const [i, s] of samples.entries()) flat.set(s.features, i * width);
  const logs = samples.map((s) => Math.log(s.left));
  return nearestRows({ flat, width }, k, (i, j) => samples[j]![apart] === samples[i]![apart]).map((near) =>
    Float64Array.from(near, (j) => logs[j]!).sort(),
  );
}

/** The q-quantile of sorted values (nearest rank). */
const at = (sorted: Float64Array, q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? Number.NaN : sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Coverage and median width / true time left of the ranges [q_low, q_high] of the neighbours. */
function judge(indices: number[], samples: Sample[], logs: Float64Array[], low: number, high: number): { coverage: number; width: number } {
  let held = 0;
  const widths: number[] = [];
  for (const i of indices) {
    const lo = Math.exp(at(logs[i]!, low));
    const hi = Math.exp(at(logs[i]!, high));
    const left = samples[i]!.left;
    if (lo <= left && left <= hi) held++;
    widths.push((hi - lo) / left);
  }
  return { coverage: held / indices.length, width: medianOf(widths) };
}

/** The narrowest (median width) pair of levels that holds the truth at least COVERAGE of the time (width Infinity: no pair does). */
function best(indices: number[], samples: Sample[], logs: Float64Array[]): { coverage: number; width: number; low: number; high: number } {
  let found = { coverage: Number.NaN, width: Number.POSITIVE_INFINITY, low: 0, high: 1 };
  for (let low = 0; low <= 0.4001; low += 0.02)
    for (let high = 0.6; high <= 1.0001; high += 0.02) {
      const r = judge(indices, samples, logs, low, high);
      if (r.coverage >= COVERAGE && r.width < found.width) found = { ...r, low, high: Math.min(1, high) };
    }
  return found;
}

/**
 * One pair of levels for all three thirds (what a range that does not know the third must use):
 * the pair whose worst third is closest to 80%, and that worst distance.
 */
function onePair(thirds: number[][], samples: Sample[], logs: Float64Array[]): { low: number; high: number; coverage: number[] } {
  let found = { low: 0.1, high: 0.9, coverage: [] as number[], off: Number.POSITIVE_INFINITY };
  for (let low = 0; low <= 0.4001; low += 0.02)
    for (let high = 0.6; high <= 1.0001; high += 0.02) {
      const coverage = thirds.map((indices) => judge(indices, samples, logs, low, high).coverage);
      const off = Math.max(...coverage.map((c) => Math.abs(c - COVERAGE)));
      if (off < found.off) found = { low, high: Math.min(1, high), coverage, off };
    }
  return found;
}

/**
 * Levels that depend on what is observable: the samples are split by the stage the neighbours
 * predict (elapsed / (elapsed + their median time left): below a third, below two thirds, the
 * rest) and each stage gets its own pair, chosen in-sample by coordinate descent so that the
 * worst TRUE third is closest to 80%.
 */
function stagePairs(
  thirds: number[][],
  samples: Sample[],
  logs: Float64Array[],
): { pairs: [number, number][]; coverage: number[]; width: number[] } {
  const stage = (i: number): number => {
    const s = samples[i]!.elapsed / (samples[i]!.elapsed + Math.exp(at(logs[i]!, 0.5)));
    return s < 1 / 3 ? 0 : s < 2 / 3 ? 1 : 2;
  };
  const stages = thirds.map((indices) => indices.map(stage));
  const pairs: [number, number][] = [
    [0.1, 0.9],
    [0.1, 0.9],
    [0.1, 0.9],
  ];
  const coverageOf = (): number[] =>
    thirds.map((indices, b) => {
      let held = 0;
      for (const [n, i] of indices.entries()) {
        const [low, high] = pairs[stages[b]![n]!]!;
        const left = Math.log(samples[i]!.left);
        if (at(logs[i]!, low) <= left && left <= at(logs[i]!, high)) held++;
      }
      return held / indices.length;
    });
  const off = (coverage: number[]): number => Math.max(...coverage.map((c) => Math.abs(c - COVERAGE)));
  for (let round = 0; round < 4; round++)
    for (let s = 0; s < 3; s++) {
      let bestPair = pairs[s]!;
      let bestOff = off(coverageOf());
      for (let low = 0; low <= 0.4001; low += 0.02)
        for (let high = 0.6; high <= 1.0001; high += 0.02) {
          pairs[s] = [low, Math.min(1, high)];
          const o = off(coverageOf());
          if (o < bestOff - 1e-9) {
            bestOff = o;
            bestPair = [low, Math.min(1, high)];
          }
        }
      pairs[s] = bestPair;
    }
  const width = thirds.map((indices, b) =>
    medianOf(
      indices.map((i, n) => {
        const [low, high] = pairs[stages[b]![n]!]!;
        return (Math.exp(at(logs[i]!, high)) - Math.exp(at(logs[i]!, low))) / samples[i]!.left;
      }),
    ),
  );
  return { pairs, coverage: coverageOf(), width };
}

const started = performance.now();
const folders = tracesDirs().map((dir) => ({ name: basename(dir), traces: loadRealTraces(dir) }));
let run = 0;
const samples = folders.flatMap(({ name, traces }) => traces.flatMap((trace) => samplesOf(trace, name, run++)));
standardise(samples);
const pct = (v: number): string => (Number.isNaN(v) ? '–' : `${(100 * v).toFixed(0)}%`);
console.log(
  `${run} runs, ${samples.length} samples (every ${STRIDE}th of ${SAMPLES} per run, from the third iteration on); ranges fitted in-sample on the other runs' nearest samples`,
);
for (const { k, apart } of NEIGHBOURS) {
  const logs = neighbourLogs(samples, k, apart);
  console.log(
    `\nK = ${k} nearest samples of other ${apart === 'run' ? "runs (in-sample: the run's own group included)" : 'groups (leave-one-group-out)'}\n`,
  );
  console.log(
    '| samples | p10–p90 of the neighbours: holds, width by third | levels knowing the third (≥ 80% each) | their width by third | one pair, closest to 80% in the worst third | holds, width by third | a pair per predicted stage | holds, width by third |',
  );
  console.log('|---|---:|---|---:|---|---:|---|---:|');
  for (const { name } of folders) {
    const thirds = ([0, 1, 2] as const).map((third) => samples.flatMap((s, i) => (s.folder === name && s.third === third ? [i] : [])));
    const plain = thirds.map((indices) => judge(indices, samples, logs, 0.1, 0.9));
    const knowing = thirds.map((indices) => best(indices, samples, logs));
    const pair = onePair(thirds, samples, logs);
    const pairWidth = thirds.map((indices) => judge(indices, samples, logs, pair.low, pair.high).width);
    const staged = stagePairs(thirds, samples, logs);
    const levels = (list: readonly (readonly [number, number])[]): string =>
      list.map(([low, high]) => `p${Math.round(100 * low)}–p${Math.round(100 * high)}`).join(', ');
    const holds = (coverage: number[], width: number[]): string =>
      `${coverage.map(pct).join(' / ')}; ${width.map((w) => w.toFixed(2)).join(' / ')}`;
    console.log(
      `| ${name} | ${holds(
        plain.map((r) => r.coverage),
        plain.map((r) => r.width),
      )} | ${knowing.map((r) => (Number.isFinite(r.width) ? levels([[r.low, r.high]]) : 'none')).join(', ')} | ${knowing.map((r) => (Number.isFinite(r.width) ? r.width.toFixed(2) : '–')).join(' / ')} | ${levels(
        [[pair.low, pair.high]],
      )} | ${holds(pair.coverage, pairWidth)} | ${levels(staged.pairs)} | ${holds(staged.coverage, staged.width)} |`,
    );
  }
}
console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
