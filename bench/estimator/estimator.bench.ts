// How well each progress source tracks real agent runs. Replays the recorded traces
// (../shared/data/traces or HEADWAY_TRACES) and a generated set through (a) the naive
// roundtrip estimate, (b) weighted steps, (c) ProgressTracker, (d) ProgressTracker with
// history fitted leave-one-group-out, and prints per group: MAE between shown percent and
// the true elapsed fraction, the largest backward jump, time at >= 95% before the end, and
// the ETA's median relative error from the third roundtrip on.
// Run: pnpm -F @headway/bench bench:estimator
import { ProgressTracker, estimateProgress, type TaskHistory } from '@headway/estimator';
import { generateTraces, loadRealTraces, tracesDir, type Trace, type TraceEvent } from './traces.js';

/** Without a recorded cap, the naive estimate (and every other source) assumes this one. */
const DEFAULT_CAP = 30;
const SAMPLES = 400;
/** The seed document's fallback steps, laid out by the roundtrip budget. */
const SEED_STEPS = [
  { name: 'Analyzing input', weight: 30 },
  { name: 'Processing data', weight: 50 },
  { name: 'Generating output', weight: 20 },
];

interface Replayer {
  apply(event: TraceEvent): void;
  tick(): void;
  percent(): number;
  eta(): number | undefined;
}

interface Clock {
  t: number;
}

function naive(cap: number, clock: Clock, startTs: number): Replayer {
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

function tracker(cap: number, clock: Clock, options: { history?: TaskHistory; steps?: boolean }): Replayer {
  const t = new ProgressTracker({
    maxRoundtrips: cap,
    now: () => clock.t,
    ...(options.history === undefined ? {} : { history: options.history }),
    ...(options.steps === true ? { steps: SEED_STEPS } : {}),
  });
  const total = SEED_STEPS.reduce((a, s) => a + s.weight, 0);
  let started = 0;
  let step = -1;
  return {
    apply(e) {
      if (e.kind === 'round') {
        started++;
        t.roundtripStarted();
        if (options.steps === true) {
          // The seed's fallback: each step gets its weight's share of the roundtrip budget.
          let cumulative = 0;
          let index = SEED_STEPS.length - 1;
          for (const [i, s] of SEED_STEPS.entries()) {
            cumulative += s.weight;
            if (started <= (cumulative / total) * cap) {
              index = i;
              break;
            }
          }
          while (step < index) {
            if (step >= 0) t.stepFinished(SEED_STEPS[step]!.name);
            step++;
            t.stepStarted(SEED_STEPS[step]!.name);
          }
        }
      } else if (e.kind === 'tools') t.toolsStarted();
      else if (e.kind === 'tool.done') t.toolCallFinished(e.name, e.ok);
      else t.roundtripFinished();
    },
    tick: () => {
      t.tick();
    },
    percent: () => t.percent,
    eta: () => t.etaMs,
  };
}

/**
 * Not a real source: told the run's true roundtrip count, it shows the roundtrip fraction
 * (interpolated by the clock within a roundtrip) and an ETA from the exponentially weighted
 * roundtrip duration. It bounds what any roundtrip-count estimator can reach on these traces.
 */
function oracle(total: number, clock: Clock, startTs: number): Replayer {
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

interface RunScore {
  mae: number;
  backJump: number;
  secondsAt95: number;
  shareAt95: number;
  etaErrors: number[];
  etaEligible: number;
  /** The run stayed within the cap the sources were told (recorded, or the assumed 30). */
  withinCap: boolean;
}

function score(trace: Trace, make: (clock: Clock) => Replayer): RunScore {
  const clock: Clock = { t: trace.startTs };
  const r = make(clock);
  const duration = Math.max(1, trace.endTs - trace.startTs);
  let last = 0;
  let backJump = 0;
  const observe = (): void => {
    const p = r.percent();
    if (!Number.isInteger(p) || p < 0 || p > 100) throw new Error(`${trace.file}: percent ${p} is not an integer in 0–100`);
    backJump = Math.max(backJump, last - p);
    last = p;
  };
  let next = 0;
  let rounds = 0;
  let absErr = 0;
  let at95 = 0;
  const etaErrors: number[] = [];
  let etaEligible = 0;
  for (let k = 0; k < SAMPLES; k++) {
    const t = trace.startTs + ((k + 0.5) / SAMPLES) * duration;
    while (next < trace.events.length && trace.events[next]!.ts <= t) {
      const e = trace.events[next++]!;
      clock.t = e.ts;
      r.apply(e);
      if (e.kind === 'round') rounds++;
      observe();
    }
    clock.t = t;
    r.tick();
    observe();
    const p = r.percent();
    absErr += Math.abs(p / 100 - (t - trace.startTs) / duration);
    if (p >= 95) at95 += duration / SAMPLES;
    if (rounds >= 3) {
      etaEligible++;
      const eta = r.eta();
      const left = trace.endTs - t;
      if (eta !== undefined) etaErrors.push(Math.abs(eta - left) / left);
    }
  }
  return {
    mae: absErr / SAMPLES,
    backJump,
    secondsAt95: at95 / 1000,
    shareAt95: at95 / duration,
    etaErrors,
    etaEligible,
    withinCap: trace.roundtrips <= (trace.maxIterations ?? DEFAULT_CAP),
  };
}

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const VARIANTS = ['a naive', 'b steps', 'c tracker', 'd tracker+history', 'ref: same-group history', 'bound: exact N'] as const;
type Variant = (typeof VARIANTS)[number];

function historyOf(traces: Trace[]): TaskHistory {
  return { runs: traces.map((t) => ({ roundtrips: Math.max(1, t.roundtrips), durationMs: t.endTs - t.startTs })) };
}

function evaluate(traces: Trace[]): Map<string, Map<Variant, RunScore[]>> {
  const out = new Map<string, Map<Variant, RunScore[]>>();
  const groups = [...new Set(traces.map((t) => t.group))];
  for (const group of groups) {
    const members = traces.filter((t) => t.group === group);
    // Leave one group out: history comes only from the other groups of the same kind (real or generated).
    const history = historyOf(traces.filter((t) => t.group !== group && t.real === members[0]!.real));
    const byVariant = new Map<Variant, RunScore[]>();
    for (const trace of members) {
      const cap = trace.maxIterations ?? DEFAULT_CAP;
      const scores: Record<Variant, RunScore> = {
        'a naive': score(trace, (c) => naive(cap, c, trace.startTs)),
        'b steps': score(trace, (c) => tracker(cap, c, { steps: true })),
        'c tracker': score(trace, (c) => tracker(cap, c, {})),
        'd tracker+history': score(trace, (c) => tracker(cap, c, { history })),
        // For reference only (not leave-one-group-out): history of the other runs of the same group.
        'ref: same-group history': score(trace, (c) => tracker(cap, c, { history: historyOf(members.filter((m) => m !== trace)) })),
        'bound: exact N': score(trace, (c) => oracle(trace.roundtrips, c, trace.startTs)),
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
}

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
  };
}

function printRows(title: string, rows: Row[]): void {
  console.log(`\n${title}`);
  console.log('| group | runs | source | MAE | max back-jump | mean s at >=95% before end (share) | ETA median rel. err (coverage) |');
  console.log('|---|---:|---|---:|---:|---:|---:|');
  for (const r of rows) {
    const eta = Number.isNaN(r.etaMedian) ? 'none' : `${(r.etaMedian * 100).toFixed(0)}% (${(r.etaCoverage * 100).toFixed(0)}%)`;
    console.log(
      `| ${r.group} | ${r.runs} | ${r.variant} | ${r.mae.toFixed(3)} | ${r.backJump} | ${r.secondsAt95.toFixed(1)} (${(r.shareAt95 * 100).toFixed(1)}%) | ${eta} |`,
    );
  }
}

function report(title: string, traces: Trace[]): Row[] {
  const results = evaluate(traces);
  const rows: Row[] = [];
  for (const [group, byVariant] of results) for (const v of VARIANTS) rows.push(summarise(group, v, byVariant.get(v) ?? []));
  const all: Row[] = VARIANTS.map((v) => summarise('ALL', v, [...results.values()].flatMap((m) => m.get(v) ?? [])));
  // The runs that kept to the cap the sources were told: the only kind a loop that enforces its cap produces.
  const kept: Row[] = VARIANTS.map((v) =>
    summarise(
      'ALL within cap',
      v,
      [...results.values()].flatMap((m) => (m.get(v) ?? []).filter((s) => s.withinCap)),
    ),
  );
  printRows(title, [...rows, ...all, ...kept]);
  return [...all, ...kept];
}

const started = performance.now();
const dir = tracesDir();
const real = loadRealTraces(dir);
console.log(`${real.length} real traces from ${dir}; MAE sampled at ${SAMPLES} even points per run; cap ${DEFAULT_CAP} where none recorded`);
const realAll = report('Real traces (history: the other real groups)', real);
console.log(
  '\n"ref: same-group history" uses the other runs of the held-out group (not leave-one-group-out; for reference only). "bound: exact N" is not a real source: it is told the true roundtrip count, and bounds what any roundtrip-count estimator can reach.',
);
report('Generated traces (history: the other generated groups)', generateTraces());

const verdicts: string[] = [];
for (const subset of ['ALL', 'ALL within cap']) {
  const naiveRow = realAll.find((r) => r.group === subset && r.variant === 'a naive')!;
  for (const variant of ['c tracker', 'd tracker+history', 'bound: exact N'] as const) {
    const row = realAll.find((r) => r.group === subset && r.variant === variant)!;
    verdicts.push(
      `${subset} (${row.runs} runs), ${variant}: back-jump ${row.backJump} (target 0), MAE ${row.mae.toFixed(3)} = ${(naiveRow.mae / row.mae).toFixed(2)}x lower than naive (target >= 2x), ETA median ${(row.etaMedian * 100).toFixed(0)}% (target <= 25%)`,
    );
  }
}
console.log(`\nOn the real traces:\n${verdicts.map((v) => `- ${v}`).join('\n')}`);
console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
