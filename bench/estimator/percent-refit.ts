// Refits the percent's constants: COLD_START_TUNING (packages/estimator/src/cold-start.ts) and
// PLAN_TUNING (packages/estimator/src/plan-progress.ts). Replays every recorded run of both trace
// folders (or HEADWAY_TRACES) through the plan tracker, each with the cap its trace recorded
// (else none, as bench:estimator does), for each point of a grid, scores the MAE between the
// shown percent and the true elapsed share (400 even samples per run) and chooses
// leave-one-group-out: each group is scored with the point that is best on all the other groups,
// so no group helps choose its own constants. Three stages, each at the points the earlier ones
// chose: the cold-start curve (only curves at most 50% after 15 iterations: a long session must
// not look half done after 15 of its 95 turns), the plan constants, then the cold start's
// `historyWeight` on replays with the history of the other groups (and, not shipped, with the history
// of the other runs of the same group: what a caller with history of the same kind of task has). `--only=<stage>`
// runs one stage with the shipped constants for the others. Prints, per stage, the
// per-group table, the pooled leave-one-group-out MAE per folder and the point best on all
// groups (the one to ship).
// Run: pnpm -F @headway/bench bench:estimator:percent-refit
import {
  COLD_START_TUNING,
  PLAN_TUNING,
  replayProgress,
  type ColdStartTuning,
  type PlanTuning,
  type ReplayProgressOptions,
  type TaskHistory,
} from '@headway/estimator';
import { historyOf } from './eta-fit.js';
import { capOf, loadRealTraces, tracesDirs, type Trace } from './traces.js';

const SAMPLES = 400;

const COLD_GRID = {
  ceiling: [60, 65, 70, 75, 80, 90],
  half: [1.5, 2, 3, 4, 6, 8],
  shape: [0.3, 0.4, 0.5, 0.6, 0.8, 1],
};
const PLAN_GRID = {
  staleAfter: [12, 20, 30],
  phasePrior: [0.25, 0.5, 1],
  leadItems: [1, 2, 3],
};
// Not below 0.25: a user's history is of the same kind of task, while the history these replays get
// is of the other groups' tasks (a lower bound on its worth); 0 scored within 0.01 points of 0.25 pooled.
const HISTORY_WEIGHTS = [0.25, 0.5, 0.75, 1];

/** The guess after `iterations` whole iterations under `tuning` (the curve of cold-start.ts). */
const guessAt = (tuning: ColdStartTuning, iterations: number): number =>
  (tuning.ceiling * iterations ** tuning.shape) / (iterations ** tuning.shape + tuning.half ** tuning.shape);

function maeOf(trace: Trace, options: ReplayProgressOptions): number {
  const duration = Math.max(1, trace.endTs - trace.startTs);
  const at = Array.from({ length: SAMPLES }, (_, k) => trace.startTs + ((k + 0.5) / SAMPLES) * duration);
  const points = replayProgress(trace.raw, { plan: true, maxIterations: capOf(trace), at, ...options });
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
const runs = new Map(groups.map((g) => [g, traces.filter((t) => t.group === g).length]));
// History of the other groups, for the stage that weighs it (as bench:estimator gives it).
const historyFor = new Map(groups.map((g) => [g, historyOf(traces.filter((t) => t.group !== g))]));
// History of the same kind of task: the other runs of the run's own group.
const sameKindHistory = new Map(
  traces.flatMap((t) => {
    const others = traces.filter((o) => o.group === t.group && o !== t);
    return others.length === 0 ? [] : [[t, historyOf(others)] as const];
  }),
);
/** `--only=<stage>` runs one stage (cold, plan, history, history-same-kind) with the shipped constants for the others. */
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const runsStage = (stage: string): boolean => only === undefined || only === stage;

/**
 * Scores every point on every group and prints the leave-one-group-out table; returns the point
 * best on all groups. `historyOfRun` gives the history each run is replayed with (default none).
 */
function fit<P>(
  title: string,
  points: P[],
  options: (p: P) => ReplayProgressOptions,
  describe: (p: P) => string,
  shipped: P,
  historyOfRun: (trace: Trace) => TaskHistory | undefined = () => undefined,
): P {
  // Summed MAE per point and group (each run weighs the same).
  const sums = points.map((p) => {
    const byGroup = new Map<string, number>();
    for (const t of traces) {
      const history = historyOfRun(t);
      byGroup.set(t.group, (byGroup.get(t.group) ?? 0) + maeOf(t, { ...options(p), ...(history === undefined ? {} : { history }) }));
    }
    return byGroup;
  });
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
  const atShipped = points.findIndex((p) => describe(p) === describe(shipped));
  console.log(`\n## ${title}: ${points.length} grid points over ${traces.length} runs\n`);
  console.log('| group | runs | chosen on the other groups | MAE (leave-one-group-out) | MAE (shipped) |');
  console.log('|---|---:|---|---:|---:|');
  const logo = new Map<string, number>();
  for (const g of groups) {
    const i = bestExcept(g);
    const n = runs.get(g)!;
    logo.set(g, sums[i]!.get(g)! / n);
    const shippedMae = atShipped < 0 ? '–' : (sums[atShipped]!.get(g)! / n).toFixed(2);
    console.log(`| ${g} | ${n} | ${describe(points[i]!)} | ${(sums[i]!.get(g)! / n).toFixed(2)} | ${shippedMae} |`);
  }
  for (const { dir, traces: list } of folders) {
    const inFolder = [...new Set(list.map((t) => t.group))];
    const pooled = inFolder.reduce((a, g) => a + logo.get(g)! * runs.get(g)!, 0) / list.length;
    const shippedPooled = atShipped < 0 ? '–' : (inFolder.reduce((a, g) => a + sums[atShipped]!.get(g)!, 0) / list.length).toFixed(2);
    console.log(`\n${dir}: pooled MAE leave-one-group-out ${pooled.toFixed(2)} (shipped point ${shippedPooled})`);
  }
  const best = points[bestExcept(undefined)]!;
  console.log(`\nbest on all groups (ship this): ${describe(best)}`);
  return best;
}

const coldPoints: ColdStartTuning[] = COLD_GRID.ceiling
  .flatMap((ceiling) =>
    COLD_GRID.half.flatMap((half) =>
      COLD_GRID.shape.map((shape) => ({ ceiling, half, shape, historyWeight: COLD_START_TUNING.historyWeight })),
    ),
  )
  .filter((p) => guessAt(p, 15) <= 50);
const describeCold = (p: ColdStartTuning): string => `ceiling ${p.ceiling}, half ${p.half}, shape ${p.shape}`;
const cold = runsStage('cold')
  ? fit('cold start', coldPoints, (coldStart) => ({ coldStart, planTuning: PLAN_TUNING }), describeCold, COLD_START_TUNING)
  : COLD_START_TUNING;

const planPoints: PlanTuning[] = PLAN_GRID.staleAfter.flatMap((staleAfter) =>
  PLAN_GRID.phasePrior.flatMap((phasePrior) => PLAN_GRID.leadItems.map((leadItems) => ({ staleAfter, phasePrior, leadItems }))),
);
const describePlan = (p: PlanTuning): string => `staleAfter ${p.staleAfter}, phasePrior ${p.phasePrior}, leadItems ${p.leadItems}`;
const plan = runsStage('plan')
  ? fit('plan', planPoints, (planTuning) => ({ planTuning, coldStart: cold }), describePlan, PLAN_TUNING)
  : PLAN_TUNING;

const weightPoints = HISTORY_WEIGHTS.map((historyWeight) => ({ ...cold, historyWeight }));
if (runsStage('history'))
  fit(
    'history weight without a cap',
    weightPoints,
    (coldStart) => ({ coldStart, planTuning: plan }),
    (p) => `historyWeight ${p.historyWeight}`,
    COLD_START_TUNING,
    (t) => historyFor.get(t.group),
  );
// What a user who records runs of one kind of task has: history of the SAME kind, here the other runs
// of the run's own group (leave one run out; a group of one run gets none). Not shipped: the weight
// chosen here is for a caller who knows its history is of the same kind (`coldStart.historyWeight`).
if (runsStage('history-same-kind'))
  fit(
    'history weight without a cap, history of the same kind of task (the other runs of the group)',
    weightPoints,
    (coldStart) => ({ coldStart, planTuning: plan }),
    (p) => `historyWeight ${p.historyWeight}`,
    COLD_START_TUNING,
    (t) => sameKindHistory.get(t),
  );
if (runsStage('history-same-kind'))
  console.log(
    '(this stage is not shipped: its weight is for a caller whose history is of the same kind of task, passed as coldStart.historyWeight)',
  );
