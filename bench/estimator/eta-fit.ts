// Fits the ETA calibration (ETA_CALIBRATION in @headway/estimator) from recorded runs: each run
// is replayed with an identity calibration, and per evidence (plan / iterations / history) and
// bin of the percent shown, the 10th/50th/90th percentile of log(true time left / raw point ETA)
// is taken, each run weighing the same. `plan` and `iterations` come from replays without
// history, `history` from replays with the history `historyFor` gives each run.
import { replayProgress, type EtaCalibration, type EtaCalibrationBin, type EtaEvidence, type TaskHistory } from '@headway/estimator';
import { capOf, type Trace } from './traces.js';

const SAMPLES = 400;
/**
 * Upper bounds of the bins of the percent shown, per evidence: tenths where the iterations alone
 * give the ETA (narrower late ranges on runs without a plan, measured), fifths for a plan, whose
 * samples are fewer (tenths there were wider and held the truth less evenly, measured).
 */
const BIN_EDGES: Record<EtaEvidence, number[]> = {
  iterations: [10, 20, 30, 40, 50, 60, 70, 80, 90, 101],
  history: [10, 20, 30, 40, 50, 60, 70, 80, 90, 101],
  plan: [20, 40, 60, 80, 101],
  finishing: [20, 40, 60, 80, 101],
};
/** The quantiles fitted: low, mid, high. */
const QUANTILES = [0.1, 0.5, 0.9] as const;

const identityBins = (): EtaCalibrationBin[] => [{ belowPercent: 101, low: 0, mid: 0, high: 0 }];
const IDENTITY: EtaCalibration = { plan: identityBins(), iterations: identityBins(), history: identityBins(), finishing: identityBins() };

interface Sample {
  evidence: EtaEvidence;
  percent: number;
  residual: number;
  weight: number;
}

/** Samples of log(true time left / raw point ETA) from the third iteration on. */
function etaResiduals(traces: readonly Trace[], plan: boolean, historyFor?: (trace: Trace) => TaskHistory): Sample[] {
  const out: Sample[] = [];
  for (const trace of traces) {
    const duration = Math.max(1, trace.endTs - trace.startTs);
    const at = Array.from({ length: SAMPLES }, (_, k) => trace.startTs + ((k + 0.5) / SAMPLES) * duration);
    const points = replayProgress(trace.raw, {
      plan,
      ...(historyFor === undefined ? {} : { history: historyFor(trace) }),
      maxIterations: capOf(trace),
      etaCalibration: IDENTITY,
      at,
    });
    const third = trace.events.filter((e) => e.kind === 'round')[2]?.ts ?? Number.POSITIVE_INFINITY;
    const mine: Omit<Sample, 'weight'>[] = [];
    let next = 0;
    let current: (typeof points)[number] | undefined;
    for (const t of at) {
      while (next < points.length && points[next]!.ts <= t) current = points[next++];
      if (t < third || current?.etaMs === undefined || current.etaEvidence === undefined || current.etaMs <= 0) continue;
      mine.push({ evidence: current.etaEvidence, percent: current.percent, residual: Math.log((trace.endTs - t) / current.etaMs) });
    }
    for (const s of mine) out.push({ ...s, weight: 1 / mine.length });
  }
  return out;
}

/** The weighted q-quantile of `values`. */
function quantile(values: { v: number; w: number }[], q: number): number {
  const sorted = [...values].sort((a, b) => a.v - b.v);
  const total = sorted.reduce((a, s) => a + s.w, 0);
  let acc = 0;
  for (const s of sorted) {
    acc += s.w;
    if (acc >= q * total) return s.v;
  }
  return sorted[sorted.length - 1]?.v ?? 0;
}

/**
 * Used where the runs fitted on have (almost) no sample of an evidence: for `finishing`, a prior
 * from the meaning of its raw point (half an item at the run's pace): between an eighth of an
 * item and one and a half items are left, with the half item as the median. It is not fitted.
 */
const PRIOR: Partial<Record<EtaEvidence, Omit<EtaCalibrationBin, 'belowPercent'>>> = {
  finishing: { low: Math.round(Math.log(1 / 4) * 1000) / 1000, mid: 0, high: Math.round(Math.log(3) * 1000) / 1000 },
};

function fitBins(samples: readonly Sample[], evidence: EtaEvidence): EtaCalibrationBin[] {
  const all = samples.map((s) => ({ v: s.residual, w: s.weight }));
  const prior = PRIOR[evidence];
  if (prior !== undefined && samples.reduce((a, s) => a + s.weight, 0) < 2) return [{ belowPercent: 101, ...prior }];
  let lower = 0;
  return BIN_EDGES[evidence].map((edge) => {
    const inBin = samples.filter((s) => s.percent >= lower && s.percent < edge).map((s) => ({ v: s.residual, w: s.weight }));
    lower = edge;
    // A bin with less than two runs' worth of samples borrows the whole evidence's spread.
    const use = inBin.reduce((a, s) => a + s.w, 0) >= 2 ? inBin : all;
    if (use.length === 0) return { belowPercent: edge, low: -1.75, mid: 0, high: 1.95 };
    const [low, mid, high] = QUANTILES.map((q) => Math.round(quantile(use, q) * 1000) / 1000) as [number, number, number];
    return { belowPercent: edge, low, mid, high };
  });
}

/**
 * The calibration table for these runs. `plan` says whether the replays read the agent's plan;
 * `historyFor` gives the history each run is replayed with for the `history` bins (never the
 * run's own group, to fit what a new kind of task sees); without it there are no `history` bins.
 */
export function fitEtaCalibration(
  traces: readonly Trace[],
  options: { plan: boolean; historyFor?: (trace: Trace) => TaskHistory },
): EtaCalibration {
  const plain = etaResiduals(traces, options.plan);
  const table: EtaCalibration = {
    plan: fitBins(
      plain.filter((s) => s.evidence === 'plan'),
      'plan',
    ),
    iterations: fitBins(
      plain.filter((s) => s.evidence === 'iterations'),
      'iterations',
    ),
    finishing: fitBins(
      plain.filter((s) => s.evidence === 'finishing'),
      'finishing',
    ),
  };
  if (options.historyFor !== undefined) {
    const withHistory = etaResiduals(traces, options.plan, options.historyFor);
    table.history = fitBins(
      withHistory.filter((s) => s.evidence === 'history'),
      'history',
    );
  }
  return table;
}

/** Earlier runs as the tracker's history: each run's roundtrips and duration. */
export function historyOf(traces: readonly Trace[]): TaskHistory {
  return { runs: traces.map((t) => ({ roundtrips: Math.max(1, t.roundtrips), durationMs: t.endTs - t.startTs })) };
}

/** For each run, the history of the runs of the other groups among `traces`. */
export function otherGroupsHistory(traces: readonly Trace[]): (trace: Trace) => TaskHistory {
  const byGroup = new Map<string, TaskHistory>();
  return (trace) => {
    let history = byGroup.get(trace.group);
    if (history === undefined) {
      history = historyOf(traces.filter((t) => t.group !== trace.group));
      byGroup.set(trace.group, history);
    }
    return history;
  };
}
