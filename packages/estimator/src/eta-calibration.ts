import { z } from 'zod';

/**
 * What the point ETA rests on: the agent's own plan while it is trusted (`plan`), else the
 * iterations seen, against earlier runs of the task when the tracker has `history`
 * (`history`) or against the cap (`iterations`). `finishing`: the agent's one plan (no queue
 * of tasks, never replaced) is on its last item or done, so the run is wrapping up; the raw
 * point is then half an item at the run's pace per item (time so far / items / 2).
 */
export type EtaEvidence = 'plan' | 'iterations' | 'history' | 'finishing';

/** One bin of an {@link EtaCalibration}: natural logs of (true time left / raw point ETA). */
export interface EtaCalibrationBin {
  /**
   * Bins are chosen by the percent the bar shows: this bin holds percents below this bound
   * (the last bin: 101).
   */
  belowPercent: number;
  /** About the 10th, 50th and 90th percentile of log(true time left / raw point ETA). */
  low: number;
  mid: number;
  high: number;
}

/**
 * How the tracker turns its raw point ETA into a calibrated median and a p10–p90 range: per
 * kind of evidence, bins by the percent shown (ascending `belowPercent`). The shipped
 * {@link ETA_CALIBRATION} was fitted on recorded runs; pass your own (e.g. fitted on your
 * own runs with the bench's refit script) as `etaCalibration`.
 */
export interface EtaCalibration {
  plan: EtaCalibrationBin[];
  iterations: EtaCalibrationBin[];
  /** For `history` evidence (fitted on runs replayed with history); absent, the `iterations` bins are used. */
  history?: EtaCalibrationBin[] | undefined;
  /**
   * For `finishing` evidence (the raw point is half an item at the run's pace). Absent, the shipped
   * {@link ETA_CALIBRATION}'s are used (another kind's bins are on another scale).
   */
  finishing?: EtaCalibrationBin[] | undefined;
}

const logFactor = z.number().min(-20).max(20);
const binsSchema = z
  .array(z.strictObject({ belowPercent: z.number().min(0).max(101), low: logFactor, mid: logFactor, high: logFactor }))
  .min(1)
  .max(100)
  .refine((bins) => bins.every((b, i) => i === 0 || b.belowPercent > (bins[i - 1]?.belowPercent ?? 0)), {
    error: 'belowPercent must ascend',
  })
  .refine((bins) => bins.every((b) => b.low <= b.mid && b.mid <= b.high), { error: 'each bin needs low <= mid <= high' });

/** Validates an {@link EtaCalibration} read from a file or given by a caller. */
export const etaCalibrationSchema: z.ZodType<EtaCalibration> = z.strictObject({
  plan: binsSchema,
  iterations: binsSchema,
  history: binsSchema.optional(),
  finishing: binsSchema.optional(),
});

/**
 * Fitted by `pnpm -F @headway/bench bench:estimator:refit` (bench/estimator/refit.ts) on the
 * 143 recorded runs of shared/data/traces and shared/data/plan-traces: each run replayed
 * through the tracker with an identity calibration, sampled at 400 even times from the third
 * iteration on; per evidence and bin of the percent shown (tenths for `iterations` and `history`,
 * fifths for `plan` and `finishing`, whose samples are fewer), the 10th/50th/90th
 * percentile of log(true time left / raw point ETA), each run weighing the same (a bin with
 * less than two runs' worth of samples takes the whole evidence's). `plan`, `iterations` and
 * `finishing` come from replays without history; `history` from replays whose history is the
 * runs of the other groups (never the run's own kind of task). The bench fits the same tables
 * leave-one-group-out to score them honestly (where the other groups show no `finishing`, it
 * uses a prior: an eighth of an item to one and a half items left).
 */
export const ETA_CALIBRATION: EtaCalibration = {
  plan: [
    { belowPercent: 20, low: -1.796, mid: -0.2, high: 0.836 },
    { belowPercent: 40, low: -2.235, mid: -0.552, high: 0.587 },
    { belowPercent: 60, low: -2.097, mid: -0.519, high: 0.461 },
    { belowPercent: 80, low: -1.023, mid: 0.034, high: 0.919 },
    { belowPercent: 101, low: -0.985, mid: 0.617, high: 2.978 },
  ],
  iterations: [
    { belowPercent: 10, low: -2.326, mid: -0.322, high: 1.272 },
    { belowPercent: 20, low: -2.326, mid: -0.322, high: 1.272 },
    { belowPercent: 30, low: -2.326, mid: -0.322, high: 1.272 },
    { belowPercent: 40, low: -3.165, mid: -0.208, high: 1.627 },
    { belowPercent: 50, low: -1.283, mid: 0.037, high: 1.389 },
    { belowPercent: 60, low: -2.843, mid: -1.281, high: 0.715 },
    { belowPercent: 70, low: -2.326, mid: -0.322, high: 1.272 },
    { belowPercent: 80, low: -2.326, mid: -0.322, high: 1.272 },
    { belowPercent: 90, low: -2.326, mid: -0.322, high: 1.272 },
    { belowPercent: 101, low: -2.326, mid: -0.322, high: 1.272 },
  ],
  history: [
    { belowPercent: 10, low: -2.988, mid: -1.231, high: 0.793 },
    { belowPercent: 20, low: -2.988, mid: -1.231, high: 0.793 },
    { belowPercent: 30, low: -2.643, mid: -1.738, high: 1.579 },
    { belowPercent: 40, low: -2.595, mid: -0.984, high: 1.117 },
    { belowPercent: 50, low: -3.423, mid: -1.379, high: 0.433 },
    { belowPercent: 60, low: -3.638, mid: -1.784, high: 0.843 },
    { belowPercent: 70, low: -1.467, mid: -0.082, high: 0.779 },
    { belowPercent: 80, low: -2.988, mid: -1.231, high: 0.793 },
    { belowPercent: 90, low: -2.988, mid: -1.231, high: 0.793 },
    { belowPercent: 101, low: -2.988, mid: -1.231, high: 0.793 },
  ],
  finishing: [
    { belowPercent: 20, low: -1.534, mid: 0.214, high: 1.106 },
    { belowPercent: 40, low: -1.534, mid: 0.214, high: 1.106 },
    { belowPercent: 60, low: -1.534, mid: 0.214, high: 1.106 },
    { belowPercent: 80, low: -1.534, mid: 0.214, high: 1.106 },
    { belowPercent: 101, low: -1.534, mid: 0.214, high: 1.106 },
  ],
};

/**
 * The calibrated median and p10–p90 range of the time left, given the raw point ETA and the
 * percent (0–100) the bar shows. `history` evidence uses the `iterations` bins when the table
 * has none, and keeps the raw median (the history's own) when the bin's range holds it.
 */
export function calibrateEta(
  calibration: EtaCalibration,
  evidence: EtaEvidence,
  percent: number,
  point: number,
): { point: number; low: number; high: number } {
  const bins =
    evidence === 'finishing'
      ? (calibration.finishing ?? ETA_CALIBRATION.finishing ?? calibration.plan)
      : ((evidence === 'history' ? calibration.history : undefined) ?? calibration[evidence === 'history' ? 'iterations' : evidence]);
  const bin = bins.find((b) => percent < b.belowPercent) ?? bins[bins.length - 1];
  if (bin === undefined) return { point, low: point, high: point };
  // With history the median stays the history's own (within the range): the bins were fitted on other kinds of task.
  const mid = evidence === 'history' ? Math.min(bin.high, Math.max(bin.low, 0)) : bin.mid;
  return { point: point * Math.exp(mid), low: point * Math.exp(bin.low), high: point * Math.exp(bin.high) };
}
