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
    { belowPercent: 20, low: -1.768, mid: -0.27, high: 0.729 },
    { belowPercent: 40, low: -1.406, mid: -0.559, high: 0.361 },
    { belowPercent: 60, low: -2.343, mid: -0.509, high: 0.509 },
    { belowPercent: 80, low: -1.228, mid: -0.072, high: 0.718 },
    { belowPercent: 101, low: -0.741, mid: 0.456, high: 2.688 },
  ],
  iterations: [
    { belowPercent: 10, low: -1.851, mid: -0.096, high: 1.807 },
    { belowPercent: 20, low: -1.851, mid: -0.096, high: 1.807 },
    { belowPercent: 30, low: -2.077, mid: -1.068, high: 0.462 },
    { belowPercent: 40, low: -1.629, mid: 0.057, high: 1.793 },
    { belowPercent: 50, low: -1.417, mid: -0.041, high: 1.737 },
    { belowPercent: 60, low: -2.244, mid: -0.267, high: 1.999 },
    { belowPercent: 70, low: -2.305, mid: -0.321, high: 1.085 },
    { belowPercent: 80, low: -1.974, mid: 0.01, high: 1.541 },
    { belowPercent: 90, low: -0.226, mid: 0.858, high: 2.313 },
    { belowPercent: 101, low: -1.891, mid: 0.43, high: 2.4 },
  ],
  history: [
    { belowPercent: 10, low: -2.351, mid: -0.583, high: 1.363 },
    { belowPercent: 20, low: -2.351, mid: -0.583, high: 1.363 },
    { belowPercent: 30, low: -2.115, mid: -0.887, high: 1.052 },
    { belowPercent: 40, low: -2.166, mid: -0.537, high: 1.554 },
    { belowPercent: 50, low: -2.648, mid: -0.823, high: 1.043 },
    { belowPercent: 60, low: -2.631, mid: -0.558, high: 1.653 },
    { belowPercent: 70, low: -2.658, mid: -0.567, high: 1.297 },
    { belowPercent: 80, low: -1.025, mid: 0.047, high: 1.469 },
    { belowPercent: 90, low: -2.351, mid: -0.583, high: 1.363 },
    { belowPercent: 101, low: -2.685, mid: 0.102, high: 2.16 },
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
