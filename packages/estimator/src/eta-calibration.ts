import { z } from 'zod';

/**
 * What the point ETA rests on: the agent's own plan while it is trusted (`plan`), else the
 * iterations seen, against earlier runs of the task when the tracker has `history`
 * (`history`) or against the cap (`iterations`).
 */
export type EtaEvidence = 'plan' | 'iterations' | 'history';

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
});

/**
 * Fitted by `pnpm -F @headway/bench bench:estimator:refit` (bench/estimator/refit.ts) on the
 * 143 recorded runs of shared/data/traces and shared/data/plan-traces: each run replayed
 * through the tracker with an identity calibration, sampled at 400 even times from the third
 * iteration on; per evidence and bin of the percent shown, the 10th/50th/90th percentile of
 * log(true time left / raw point ETA), each run weighing the same. `plan` and `iterations`
 * come from replays without history; `history` from replays whose history is the runs of the
 * other groups (never the run's own kind of task). The bench fits the same tables
 * leave-one-group-out to score them honestly.
 */
export const ETA_CALIBRATION: EtaCalibration = {
  plan: [
    { belowPercent: 20, low: -1.837, mid: -0.301, high: 0.761 },
    { belowPercent: 40, low: -1.569, mid: -0.647, high: 0.194 },
    { belowPercent: 60, low: -2.332, mid: -0.507, high: 0.569 },
    { belowPercent: 80, low: -1.049, mid: -0.072, high: 0.686 },
    { belowPercent: 101, low: -1.828, mid: -0.241, high: 1.295 },
  ],
  iterations: [
    { belowPercent: 20, low: -1.845, mid: -0.083, high: 1.833 },
    { belowPercent: 40, low: -1.772, mid: -0.577, high: 1.708 },
    { belowPercent: 60, low: -1.83, mid: -0.096, high: 1.945 },
    { belowPercent: 80, low: -2.204, mid: -0.222, high: 1.341 },
    { belowPercent: 101, low: -1.295, mid: 0.626, high: 2.338 },
  ],
  history: [
    { belowPercent: 20, low: -2.351, mid: -0.583, high: 1.363 },
    { belowPercent: 40, low: -2.131, mid: -0.735, high: 1.248 },
    { belowPercent: 60, low: -2.642, mid: -0.662, high: 1.365 },
    { belowPercent: 80, low: -2.375, mid: -0.257, high: 1.4 },
    { belowPercent: 101, low: -2.412, mid: 0.032, high: 2.088 },
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
  const bins = (evidence === 'history' ? calibration.history : undefined) ?? calibration[evidence === 'history' ? 'iterations' : evidence];
  const bin = bins.find((b) => percent < b.belowPercent) ?? bins[bins.length - 1];
  if (bin === undefined) return { point, low: point, high: point };
  // With history the median stays the history's own (within the range): the bins were fitted on other kinds of task.
  const mid = evidence === 'history' ? Math.min(bin.high, Math.max(bin.low, 0)) : bin.mid;
  return { point: point * Math.exp(mid), low: point * Math.exp(bin.low), high: point * Math.exp(bin.high) };
}
