// How well each progress source tracks real agent runs. Replays the recorded traces
// (../shared/data/traces and ../shared/data/plan-traces, or HEADWAY_TRACES) and a generated
// set through (a) the naive roundtrip estimate, (c) the tracker without plans, (d) the same
// with history fitted leave-one-group-out, (e) the plan-aware tracker, (f) the same with
// history, all through `replayProgress`, and prints per group: MAE between shown percent and
// the true elapsed fraction, the largest backward jump, time at >= 95% before the end, the
// point ETA's median relative error from the third roundtrip on, and how often the true time
// left falls inside [etaLowMs, etaHighMs] (and the range's median width, relative to the time
// so far plus the point ETA, in the first and last third of the runs). Each run is replayed
// with the cap its trace recorded, else none (see `capOf`).
// Run: pnpm -F @headway/bench bench:estimator
import { basename } from 'node:path';
import { estimateProgress, replayProgress, type ReplayProgressOptions, type ReplayedProgress } from '@headway/estimator';
import { fitEtaCalibration, historyOf, otherGroupsHistory } from './eta-fit.js';
import { verdict } from '../lib/verdict.js';
import { writePlots } from './plots.js';
import { capOf, generateTraces, loadRealTraces, tracesDirs, type Trace, type TraceEvent } from './traces.js';

/** The naive estimate needs a cap: without a recorded one it assumes the runtime's default (every other source is told none). */
const NAIVE_CAP = 30;
const SAMPLES = 400;

/** What a source showed: after each event and at each sample time, in order. */
type Replay = (trace: Trace, at: number[]) => ReplayedProgress[];

/** Reads a replayer that is driven event by event (the naive estimate, the oracle). */
function stepwise(trace: Trace, at: number[], make: (clock: { t: number }) => Stepper): ReplayedProgress[] {
  const clock = { t: trace.startTs };
  const r = make(clock);
  const out: ReplayedProgress[] = [];
  const read = (): void => {
    const eta = r.eta();
    out.push(eta === undefined ? { ts: clock.t, percent: r.percent() } : { ts: clock.t, percent: r.percent(), etaMs: eta });
  };
  let k = 0;
  for (const e of trace.events) {
    for (; k < at.length && at[k]! < e.ts; k++) {
      clock.t = at[k]!;
      r.tick();
      read();
    }
    clock.t = e.ts;
    r.apply(e);
    read();
  }
  for (; k < at.length; k++) {
    clock.t = at[k]!;
    r.tick();
    read();
  }
  return out;
}

interface Stepper {
  apply(event: TraceEvent): void;
  tick(): void;
  percent(): number;
  eta(): number | undefined;
}

function naive(cap: number, clock: { t: number }, startTs: number): Stepper {
  let started = 0;
  let finished = 0;
  let phase: 'idle' | 'llm' | 'tools' = 'idle';
  return {
    apply(e) {
      if (e.kind === 'round') {
        if (phase !== 'idle') finished = started;
        started++;
        phase = 'llm';
      } else if (e.kind === 'tools' && phase !== 'idle') phase = 'tools';
      else if (e.kind === 'round.end') {
        finished = started;
        phase = 'idle';
      }
    },
    tick() {},
    percent: () => (phase === 'idle' ? estimateProgress(finished, cap, 'llm') : estimateProgress(started - 1, cap, phase)),
    // The obvious ETA: mean time per roundtrip so far times the roundtrips left to the cap.
    eta: () => (finished < 2 ? undefined : Math.max(0, ((clock.t - startTs) / finished) * (cap - finished))),
  };
}

/**
 * Not a real source: told the run's true roundtrip count, it shows the roundtrip fraction
 * (interpolated by the clock within a roundtrip) and an ETA from the exponentially weighted
 * roundtrip duration. It bounds what any roundtrip-count estimator can reach on these traces.
 */
function oracle(total: number, clock: { t: number }, startTs: number): Stepper {
  const n = Math.max(1, total);
  let started = 0;
  let finished = 0;
  let roundStart = startTs;
  let meanMs: number | undefined;
  let observed = 0;
  let shown = 0;
  const close = (): void => {
    observed++;
    const d = clock.t - roundStart;
    meanMs = meanMs === undefined ? d : meanMs + Math.max(0.2, 1 / observed) * (d - meanMs);
    finished = started;
  };
  const position = (): number => {
    if (finished === started) return finished;
    const share = meanMs === undefined || meanMs <= 0 ? 0 : Math.min(0.9, (clock.t - roundStart) / meanMs);
    return started - 1 + share;
  };
  return {
    apply(e) {
      if (e.kind === 'round') {
        if (finished !== started) close();
        started++;
        roundStart = clock.t;
      } else if (e.kind === 'round.end' && finished !== started) close();
      shown = Math.max(shown, Math.min(99, Math.floor((100 * position()) / n)));
    },
    tick() {
      shown = Math.max(shown, Math.min(99, Math.floor((100 * position()) / n)));
    },
    percent: () => shown,
    eta: () => (observed < 2 || meanMs === undefined ? undefined : Math.max(0, (n - position()) * meanMs)),
  };
}

/** The range is an 80% interval (p10–p90): the interval score's penalty is 2 / (1 - 0.8). */
const WINKLER_PENALTY = 2 / 0.2;

interface RunScore {
  mae: number;
  backJump: number;
  secondsAt95: number;
  shareAt95: number;
  etaErrors: number[];
  etaEligible: number;
  /** Per third of the run: samples (from the third iteration) with a range, and how many held the true time left. */
  ranged: [number, number, number];
  covered: [number, number, number];
  /** Per third: (etaHigh - etaLow) / the true time left. */
  leftWidth: [number[], number[], number[]];
  /** Per third: the summed interval (Winkler) score of the range, over the run's duration. */
  winkler: [number, number, number];
  /** Samples with a range: the true time left over the p10, p50 and p90 it was given (for the calibration plot). */
  quantileHits: [number, number, number];
  /** Shown percent at each sample, and the true percent. */
  curve: { truth: number; shown: number }[];
  /** The run stayed within the cap its trace recorded (a run without one always does). */
  withinCap: boolean;
}

function score(trace: Trace, replay: Replay): RunScore {
  const duration = Math.max(1, trace.endTs - trace.startTs);
  const at = Array.from({ length: SAMPLES }, (_, k) => trace.startTs + ((k + 0.5) / SAMPLES) * duration);
  const points = replay(trace, at);
  let last = 0;
  let backJump = 0;
  for (const p of points) {
    if (!Number.isInteger(p.percent) || p.percent < 0 || p.percent > 100)
      throw new Error(`${trace.file}: percent ${p.percent} is not an integer in 0–100`);
    backJump = Math.max(backJump, last - p.percent);
    last = p.percent;
  }
  const rounds = trace.events.filter((e) => e.kind === 'round').map((e) => e.ts);
  let next = 0;
  let roundsSeen = 0;
  let absErr = 0;
  let at95 = 0;
  const s: RunScore = {
    mae: 0,
    backJump,
    secondsAt95: 0,
    shareAt95: 0,
    etaErrors: [],
    etaEligible: 0,
    ranged: [0, 0, 0],
    covered: [0, 0, 0],
    leftWidth: [[], [], []],
    winkler: [0, 0, 0],
    quantileHits: [0, 0, 0],
    curve: [],
    withinCap: trace.roundtrips <= capOf(trace),
  };
  let current: ReplayedProgress = { ts: trace.startTs, percent: 0 };
  for (const [k, t] of at.entries()) {
    while (next < points.length && points[next]!.ts <= t) current = points[next++]!;
    while (roundsSeen < rounds.length && rounds[roundsSeen]! <= t) roundsSeen++;
    const p = current.percent;
    const truth = (t - trace.startTs) / duration;
    absErr += Math.abs(p / 100 - truth);
    s.curve.push({ truth: truth * 100, shown: p });
    if (p >= 95) at95 += duration / SAMPLES;
    if (roundsSeen >= 3) {
      s.etaEligible++;
      const left = trace.endTs - t;
      if (current.etaMs !== undefined) s.etaErrors.push(Math.abs(current.etaMs - left) / left);
      if (current.etaLowMs !== undefined && current.etaHighMs !== undefined) {
        const third = Math.min(2, Math.floor((3 * k) / SAMPLES)) as 0 | 1 | 2;
        const low = current.etaLowMs;
        const high = current.etaHighMs;
        s.ranged[third]++;
        if (low <= left && left <= high) s.covered[third]++;
        s.leftWidth[third].push((high - low) / left);
        const miss = left < low ? low - left : left > high ? left - high : 0;
        s.winkler[third] += (high - low + WINKLER_PENALTY * miss) / duration;
        if (left <= low) s.quantileHits[0]++;
        if (current.etaMs !== undefined && left <= current.etaMs) s.quantileHits[1]++;
        if (left <= high) s.quantileHits[2]++;
      }
    }
  }
  s.mae = absErr / SAMPLES;
  s.secondsAt95 = at95 / 1000;
  s.shareAt95 = at95 / duration;
  return s;
}

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const VARIANTS = [
  'a naive',
  'b plan baseline',
  'c tracker',
  'd tracker+history',
  'e plan tracker',
  'f plan tracker+history',
  'bound: exact N',
] as const;
type Variant = (typeof VARIANTS)[number];

/**
 * The simplest plan reading: the latest plan's completed items plus half of the one in
 * progress, over its total (a replaced plan starts over, so it can go backwards); before the
 * first plan, what the tracker without plans shows.
 */
function planBaseline(trace: Trace, at: number[], cap: number): ReplayedProgress[] {
  const before = replayProgress(trace.raw, { plan: false, maxIterations: cap, at });
  const plans = trace.events.filter((e) => e.kind === 'plan');
  let k = 0;
  let fraction: number | undefined;
  return before.map((p) => {
    for (; k < plans.length && plans[k]!.ts <= p.ts; k++) {
      const e = plans[k]!;
      fraction = e.total > 0 ? (e.completed + 0.5 * Math.min(1, e.inProgress)) / e.total : fraction;
    }
    if (p.percent === 100 || fraction === undefined) return { ts: p.ts, percent: p.percent };
    return { ts: p.ts, percent: Math.min(99, Math.round(100 * fraction)) };
  });
}

type Scores = Map<string, Map<Variant, RunScore[]>>;

function evaluate(traces: Trace[], pool: Trace[]): Scores {
  const out: Scores = new Map();
  const groups = [...new Set(traces.map((t) => t.group))];
  for (const group of groups) {
    const members = traces.filter((t) => t.group === group);
    // Leave one group out: history and the ETA calibration come only from the other groups of the same kind (real or generated).
    const others = pool.filter((t) => t.group !== group && t.real === members[0]!.real);
    const history = historyOf(others);
    // The history bins are fitted on the other groups too, each replayed with the history of the groups other than itself and this one.
    const historyFor = otherGroupsHistory(others);
    const calibration = {
      plain: fitEtaCalibration(others, { plan: false, historyFor }),
      plan: fitEtaCalibration(others, { plan: true, historyFor }),
    };
    const byVariant = new Map<Variant, RunScore[]>();
    for (const trace of members) {
      const cap = capOf(trace);
      const replay =
        (options: ReplayProgressOptions): Replay =>
        (t, at) =>
          replayProgress(t.raw, { ...options, maxIterations: cap, at });
      const scores: Record<Variant, RunScore> = {
        'a naive': score(trace, (t, at) => stepwise(t, at, (c) => naive(t.maxIterations ?? NAIVE_CAP, c, t.startTs))),
        'b plan baseline': score(trace, (t, at) => planBaseline(t, at, cap)),
        // Today's tracker: the same replay with the plan events left out.
        'c tracker': score(trace, replay({ plan: false, etaCalibration: calibration.plain })),
        'd tracker+history': score(trace, replay({ plan: false, history, etaCalibration: calibration.plain })),
        'e plan tracker': score(trace, replay({ plan: true, etaCalibration: calibration.plan })),
        'f plan tracker+history': score(trace, replay({ plan: true, history, etaCalibration: calibration.plan })),
        'bound: exact N': score(trace, (t, at) => stepwise(t, at, (c) => oracle(t.roundtrips, c, t.startTs))),
      };
      for (const v of VARIANTS) {
        const list = byVariant.get(v) ?? [];
        list.push(scores[v]);
        byVariant.set(v, list);
      }
    }
    out.set(group, byVariant);
  }
  return out;
}

interface Row {
  group: string;
  runs: number;
  variant: Variant;
  mae: number;
  backJump: number;
  secondsAt95: number;
  shareAt95: number;
  etaMedian: number;
  etaCoverage: number;
  coverage: [number, number, number];
  leftWidth: [number, number, number];
  winkler: [number, number, number];
}

const perThird = <T>(f: (i: 0 | 1 | 2) => T): [T, T, T] => [f(0), f(1), f(2)];

function summarise(group: string, variant: Variant, scores: RunScore[]): Row {
  const eligible = scores.reduce((a, s) => a + s.etaEligible, 0);
  const errors = scores.flatMap((s) => s.etaErrors);
  return {
    group,
    runs: scores.length,
    variant,
    mae: scores.reduce((a, s) => a + s.mae, 0) / scores.length,
    backJump: Math.max(...scores.map((s) => s.backJump)),
    secondsAt95: scores.reduce((a, s) => a + s.secondsAt95, 0) / scores.length,
    shareAt95: scores.reduce((a, s) => a + s.shareAt95, 0) / scores.length,
    etaMedian: median(errors),
    etaCoverage: eligible === 0 ? 0 : errors.length / eligible,
    coverage: perThird((i) => {
      const ranged = scores.reduce((a, s) => a + s.ranged[i], 0);
      return ranged === 0 ? Number.NaN : scores.reduce((a, s) => a + s.covered[i], 0) / ranged;
    }),
    leftWidth: perThird((i) => median(scores.flatMap((s) => s.leftWidth[i]))),
    winkler: perThird((i) => {
      const ranged = scores.reduce((a, s) => a + s.ranged[i], 0);
      return ranged === 0 ? Number.NaN : scores.reduce((a, s) => a + s.winkler[i], 0) / ranged;
    }),
  };
}

const pct = (v: number): string => (Number.isNaN(v) ? '–' : `${(v * 100).toFixed(0)}%`);
const thirds = (values: [number, number, number], show: (v: number) => string): string =>
  values.every((v) => Number.isNaN(v)) ? '–' : values.map(show).join(' / ');

function printRows(title: string, rows: Row[]): void {
  console.log(`\n${title}`);
  console.log(
    '| group | runs | source | MAE | max back-jump | mean s at >=95% before end (share) | ETA median rel. err (given) | range holds the time left, by third | range width / true time left (median), by third | interval score / duration, by third |',
  );
  console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const eta = Number.isNaN(r.etaMedian) ? 'none' : `${pct(r.etaMedian)} (${pct(r.etaCoverage)})`;
    console.log(
      `| ${r.group} | ${r.runs} | ${r.variant} | ${(r.mae * 100).toFixed(1)} | ${r.backJump} | ${r.secondsAt95.toFixed(1)} (${(r.shareAt95 * 100).toFixed(1)}%) | ${eta} | ${thirds(r.coverage, pct)} | ${thirds(r.leftWidth, (v) => v.toFixed(2))} | ${thirds(r.winkler, (v) => v.toFixed(2))} |`,
    );
  }
}

function report(title: string, traces: Trace[], pool: Trace[]): { rows: Row[]; results: Scores } {
  const results = evaluate(traces, pool);
  const rows: Row[] = [];
  for (const [group, byVariant] of results) for (const v of VARIANTS) rows.push(summarise(group, v, byVariant.get(v) ?? []));
  const all: Row[] = VARIANTS.map((v) =>
    summarise(
      'ALL',
      v,
      [...results.values()].flatMap((m) => m.get(v) ?? []),
    ),
  );
  // The runs that kept to the cap their trace recorded (a run without one always does): the only kind a loop that enforces its cap produces.
  const kept: Row[] = VARIANTS.map((v) =>
    summarise(
      'ALL within cap',
      v,
      [...results.values()].flatMap((m) => (m.get(v) ?? []).filter((s) => s.withinCap)),
    ),
  );
  printRows(title, [...rows, ...all, ...kept]);
  return { rows: [...rows, ...all, ...kept], results };
}

function verdicts(rows: Row[]): string[] {
  const row = (group: string, variant: Variant): Row => rows.find((r) => r.group === group && r.variant === variant)!;
  const groups = [...new Set(rows.map((r) => r.group))].filter((g) => !g.startsWith('ALL'));
  const out: string[] = [];
  for (const [before, after] of [
    ['c tracker', 'e plan tracker'],
    ['d tracker+history', 'f plan tracker+history'],
    ['b plan baseline', 'e plan tracker'],
    ['b plan baseline', 'f plan tracker+history'],
  ] as const) {
    const b = row('ALL', before);
    const a = row('ALL', after);
    const worst = Math.max(...groups.map((g) => row(g, after).mae - row(g, before).mae));
    out.push(
      `${after} vs ${before}: MAE ${(a.mae * 100).toFixed(1)} vs ${(b.mae * 100).toFixed(1)}, worst group ${(worst * 100).toFixed(1)} points ${worst > 0 ? 'worse' : 'better'}, ` +
        `back-jump ${a.backJump}, range holds ${thirds(a.coverage, pct)}, width / true time left ${thirds(a.leftWidth, (v) => v.toFixed(2))} (by third)`,
    );
  }
  return out;
}

/** The targets of the estimator (issue #32), judged on the shipped sources: the plan tracker, without and with history. */
const TARGET = {
  /** Pooled MAE on runs whose agent keeps a plan. */
  planMae: 12,
  /** Pooled MAE on runs without a plan: no worse than before plans were read. */
  plainMae: 21.2,
  /** The range holds the true time left 80 ± 7% of the time, in each third of the run. */
  coverage: 80,
  coverageSlack: 7,
  /** Median range width over the true time left, in each third of the run. */
  width: 4,
} as const;

/** One verdict line per target for one traces folder (a folder with plan updates is judged on the plan targets). */
function judge(name: string, rows: Row[], hasPlans: boolean): void {
  const row = (group: string, variant: Variant): Row => rows.find((r) => r.group === group && r.variant === variant)!;
  const groups = [...new Set(rows.map((r) => r.group))].filter((g) => !g.startsWith('ALL'));
  for (const variant of ['e plan tracker', 'f plan tracker+history'] as const) {
    const all = row('ALL', variant);
    const what = `estimator ${name} ${variant}`;
    if (hasPlans) {
      verdict(`${what}: pooled MAE`, all.mae * 100, '<=', TARGET.planMae, ' points');
      const worst = Math.max(...groups.map((g) => row(g, variant).mae - row(g, 'b plan baseline').mae));
      verdict(`${what}: worst group's MAE minus the plan baseline's`, worst * 100, '<=', 0, ' points');
    } else {
      verdict(`${what}: pooled MAE`, all.mae * 100, '<=', TARGET.plainMae, ' points');
    }
    verdict(`${what}: largest backward jump`, all.backJump, '<=', 0, ' points');
    // NaN (a third without any range) never meets a target.
    const offBy = Math.max(...all.coverage.map((c) => Math.abs(100 * c - TARGET.coverage)));
    verdict(`${what}: range coverage's largest distance from 80% over the thirds`, offBy, '<=', TARGET.coverageSlack, ' points');
    verdict(`${what}: largest median range width / true time left over the thirds`, Math.max(...all.leftWidth), '<=', TARGET.width);
  }
}

const svg = process.argv.includes('--svg');
const started = performance.now();
const dirs = tracesDirs();
const loaded = dirs.map((dir) => ({ dir, traces: loadRealTraces(dir) }));
const pool = loaded.flatMap((l) => l.traces);
const plots: { name: string; results: Scores }[] = [];
for (const { dir, traces } of loaded) {
  console.log(
    `\n## ${dir}\n\n${traces.length} real traces; MAE in percentage points, sampled at ${SAMPLES} even points per run; runs replayed with the cap their trace recorded, else none (the naive estimate assumes ${NAIVE_CAP})`,
  );
  const { rows, results } = report('Real traces (history and ETA calibration: the other real groups)', traces, pool);
  plots.push({ name: basename(dir), results });
  judge(
    basename(dir),
    rows,
    traces.some((t) => t.planUpdates > 0),
  );
  console.log(
    `\nVerdict on ${dir}:\n${verdicts(rows)
      .map((v) => `- ${v}`)
      .join('\n')}`,
  );
}
console.log(
  '\n"bound: exact N" is not a real source: it is told the true iteration count, and bounds what any iteration-count estimator can reach.',
);
if (process.env.HEADWAY_BENCH_GENERATED !== '0') {
  const generated = generateTraces();
  report('Generated traces (history and ETA calibration: the other generated groups)', generated, generated);
}
if (svg) for (const written of writePlots(plots)) console.log(`wrote ${written}`);
console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
