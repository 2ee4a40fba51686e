// Refits PLAN_TUNING (packages/estimator/src/plan-progress.ts): replays every recorded run of
// both trace folders (or HEADWAY_TRACES) through the plan tracker for each point of a grid over
// the three constants, scores the MAE between the shown percent and the true elapsed share
// (400 even samples per run, as bench:estimator does) and chooses leave-one-group-out: each
// group is scored with the point that is best on all the other groups, so no group helps
// choose its own constants. Prints the per-group table, the pooled leave-one-group-out MAE per
// folder, and the point best on all groups (the one to ship).
// Run: pnpm -F @headway/bench bench:estimator:percent-refit
import { PLAN_TUNING, replayProgress, type PlanTuning } from '@headway/estimator';
import { loadRealTraces, tracesDirs, type Trace } from './traces.js';

/** Without a recorded cap, every source assumes this one (as bench:estimator does). */
const DEFAULT_CAP = 30;
const SAMPLES = 400;

const GRID = {
  staleAfter: [12, 16, 20, 30],
  phasePrior: [0.5, 1, 1.5, 2],
  leadItems: [0, 0.5, 1, 1.5, 2],
};

function maeOf(trace: Trace, planTuning: PlanTuning): number {
  const duration = Math.max(1, trace.endTs - trace.startTs);
  const at = Array.from({ length: SAMPLES }, (_, k) => trace.startTs + ((k + 0.5) / SAMPLES) * duration);
  const points = replayProgress(trace.raw, { plan: true, maxIterations: trace.maxIterations ?? DEFAULT_CAP, at, planTuning });
  let next = 0;
  let shown = 0;
  let sum = 0;
  for (const t of at) {
    while (next < points.length && points[next]!.ts <= t) shown = points[next++]!.percent;
    sum += Math.abs(shown - (100 * (t - trace.startTs)) / duration);
  }
  return sum / SAMPLES;
}

const folders = tracesDirs().map((dir) => ({ dir, traces: loadRealTraces(dir) }));
const traces = folders.flatMap((f) => f.traces);
const groups = [...new Set(traces.map((t) => t.group))];
const points: PlanTuning[] = GRID.staleAfter.flatMap((staleAfter) =>
  GRID.phasePrior.flatMap((phasePrior) => GRID.leadItems.map((leadItems) => ({ staleAfter, phasePrior, leadItems }))),
);
// Summed MAE per point and group (each run weighs the same).
const sums = points.map((p) => {
  const byGroup = new Map<string, number>();
  for (const t of traces) byGroup.set(t.group, (byGroup.get(t.group) ?? 0) + maeOf(t, p));
  return byGroup;
});
const runs = new Map(groups.map((g) => [g, traces.filter((t) => t.group === g).length]));
const bestExcept = (left: string | undefined): number => {
  let best = 0;
  let bestSum = Number.POSITIVE_INFINITY;
  sums.forEach((byGroup, i) => {
    let sum = 0;
    for (const [g, s] of byGroup) if (g !== left) sum += s;
    if (sum < bestSum - 1e-9) {
      best = i;
      bestSum = sum;
    }
  });
  return best;
};
const shipped = points.findIndex(
  (p) => p.staleAfter === PLAN_TUNING.staleAfter && p.phasePrior === PLAN_TUNING.phasePrior && p.leadItems === PLAN_TUNING.leadItems,
);
const describe = (p: PlanTuning): string => `staleAfter ${p.staleAfter}, phasePrior ${p.phasePrior}, leadItems ${p.leadItems}`;
console.log(`${traces.length} runs, ${points.length} grid points\n`);
console.log('| group | runs | chosen on the other groups | MAE (leave-one-group-out) | MAE (shipped) |');
console.log('|---|---:|---|---:|---:|');
const logo = new Map<string, number>();
for (const g of groups) {
  const i = bestExcept(g);
  const n = runs.get(g)!;
  logo.set(g, sums[i]!.get(g)! / n);
  const atShipped = shipped < 0 ? '–' : (sums[shipped]!.get(g)! / n).toFixed(2);
  console.log(`| ${g} | ${n} | ${describe(points[i]!)} | ${(sums[i]!.get(g)! / n).toFixed(2)} | ${atShipped} |`);
}
for (const { dir, traces: list } of folders) {
  const inFolder = [...new Set(list.map((t) => t.group))];
  const pooled = inFolder.reduce((a, g) => a + logo.get(g)! * runs.get(g)!, 0) / list.length;
  console.log(`\n${dir}: pooled MAE leave-one-group-out ${pooled.toFixed(2)}`);
}
console.log(`\nbest on all groups (ship this): ${describe(points[bestExcept(undefined)]!)}`);
