import { z } from 'zod';

/**
 * The fitted constants of the cold-start guess: the percent shown when a run has no cap, no
 * trusted plan and no model report. Without a cap nothing says how long a run is (recorded runs
 * of coding agents end anywhere between 3 and 300 iterations), so the guess is a curve in the
 * iterations that rises over the first few and then flattens, never claiming the end is near.
 */
export interface ColdStartTuning {
  /** The most the guess approaches (percent); it is never reached. */
  ceiling: number;
  /** Iterations at which the guess shows half of {@link ColdStartTuning.ceiling}. */
  half: number;
  /** How the guess bends: 1 is a hyperbola in the iterations; below 1 it rises faster at first and flattens sooner. */
  shape: number;
  /**
   * Without a cap, the weight (0–1) of the estimate from history of earlier runs against the
   * guess: history of other kinds of task is a weak guide to how long this one runs. Pass 1 when
   * the history is of runs of the very same kind of task: replayed with the other runs of their
   * own group as history, every group of the recorded runs chooses 1 (plan-traces pooled MAE
   * 14.85 → 13.91, traces 19.25 → 16.73; `bench:estimator:percent-refit --only=history-same-kind`).
   */
  historyWeight: number;
}

/**
 * Fitted by `pnpm -F @headway/bench bench:estimator:percent-refit` (bench/estimator/percent-refit.ts):
 * a grid over `ceiling` (60–90), `half` (1.5–8) and `shape` (0.3–1), each point scored by the MAE
 * of the plan tracker (shown percent against the true elapsed share, 400 samples per run) over the
 * 143 recorded runs of shared/data/traces and shared/data/plan-traces, each replayed with the cap
 * its trace recorded, else none, and chosen leave-one-group-out. The grid holds only curves at most
 * 50% after 15 iterations: a long session must not look half done after 15 of its 95 turns
 * (unconstrained, the runs, mostly 8–30 iterations long, would choose about 60% there).
 * Uncapped scoring: traces pooled MAE 29.00 with the hyperbola this replaces (90 · p / (p + 30))
 * → 20.96 (21.09 leave-one-group-out), plan-traces 18.39 → 15.28 (15.28). `historyWeight` is
 * chosen the same way on replays given the history of the other groups (traces 23.89 with
 * history's estimate alone → 20.79), from 0.25 up: the history a user passes is of the same kind
 * of task, the bench's of other kinds (0 scored within 0.01 points pooled).
 */
export const COLD_START_TUNING: ColdStartTuning = Object.freeze({ ceiling: 75, half: 4, shape: 0.5, historyWeight: 0.25 });

/** Validates a {@link ColdStartTuning} given by a caller. */
export const coldStartTuningSchema: z.ZodType<ColdStartTuning> = z.strictObject({
  ceiling: z.number().min(1).max(99),
  half: z.number().min(0.1).max(10_000),
  shape: z.number().min(0.1).max(4),
  historyWeight: z.number().min(0).max(1),
});

/**
 * The percent guessed after `position` iterations (finished ones plus the share of the current
 * one) when nothing else is known: `ceiling · pᵏ / (pᵏ + halfᵏ)` with k = `shape`.
 */
export function coldStartPercent(position: number, tuning: ColdStartTuning = COLD_START_TUNING): number {
  if (!(position > 0)) return 0;
  const grown = position ** tuning.shape;
  return (tuning.ceiling * grown) / (grown + tuning.half ** tuning.shape);
}
