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
    { belowPercent: 20, low: -1.806, mid: -0.286, high: 0.749 },
    { belowPercent: 40, low: -1.462, mid: -0.408, high: 0.576 },
    { belowPercent: 60, low: -2.389, mid: -0.565, high: 0.482 },
    { belowPercent: 80, low: -1.059, mid: -0.079, high: 0.675 },
    { belowPercent: 101, low: -1.169, mid: 0.701, high: 3.416 },
  ],
  iterations: [
    { belowPercent: 10, low: -1.851, mid: -0.096, high: 1.807 },
    { belowPercent: 20, low: -1.851, mid: -0.096, high: 1.807 },
    { belowPercent: 30, low: -2.077, mid: -1.068, high: 0.462 },
    { belowPercent: 40, low: -1.63, mid: 0.026, high: 1.783 },
    { belowPercent: 50, low: -1.419, mid: 0.206, high: 2.371 },
    { belowPercent: 60, low: -2.493, mid: -0.788, high: 1.206 },
    { belowPercent: 70, low: -2.303, mid: -0.312, high: 1.119 },
    { belowPercent: 80, low: -1.978, mid: 0.009, high: 1.52 },
    { belowPercent: 90, low: -0.257, mid: 0.848, high: 2.324 },
    { belowPercent: 101, low: -1.824, mid: 0.464, high: 2.359 },
  ],
  history: [
    { belowPercent: 10, low: -2.351, mid: -0.583, high: 1.363 },
    { belowPercent: 20, low: -2.351, mid: -0.583, high: 1.363 },
    { belowPercent: 30, low: -2.115, mid: -0.887, high: 1.052 },
    { belowPercent: 40, low: -2.167, mid: -0.544, high: 1.503 },
    { belowPercent: 50, low: -2.449, mid: -0.503, high: 1.596 },
    { belowPercent: 60, low: -3.058, mid: -1.065, high: 0.496 },
    { belowPercent: 70, low: -2.656, mid: -0.549, high: 1.37 },
    { belowPercent: 80, low: -1.028, mid: 0.042, high: 1.447 },
    { belowPercent: 90, low: -2.351, mid: -0.583, high: 1.363 },
    { belowPercent: 101, low: -2.642, mid: 0.178, high: 2.139 },
  ],
  finishing: [
    { belowPercent: 20, low: -1.527, mid: 0.245, high: 1.152 },
    { belowPercent: 40, low: -1.527, mid: 0.245, high: 1.152 },
    { belowPercent: 60, low: -1.527, mid: 0.245, high: 1.152 },
    { belowPercent: 80, low: -1.527, mid: 0.245, high: 1.152 },
    { belowPercent: 101, low: -1.527, mid: 0.245, high: 1.152 },
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
