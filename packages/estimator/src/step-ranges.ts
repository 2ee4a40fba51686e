import { invalidArgument, shown } from './estimator-error.js';

/** A named step and its relative weight (weights need not sum to 100). */
export interface WeightedStep {
  name: string;
  weight: number;
}

/** A weighted step with the slice of the 0–100 scale it covers. */
export interface StepRange extends WeightedStep {
  start: number;
  end: number;
}

/** Where weighted steps are laid out; 0–10 is left for initialisation and 90–100 for finalisation. */
export interface StepRangeOptions {
  start?: number;
  end?: number;
}

/**
 * Lays weighted steps out over `start`–`end` (default 10–90) in proportion to their
 * weights: `stepStart = start + cumulativeWeight / totalWeight * (end - start)`. Weights are
 * divided by the largest first, so any finite positive weights (1e308 included) lay out
 * without overflow.
 *
 * @throws {EstimatorError} `ESTIMATOR_INVALID_ARGUMENT` naming the step whose weight is
 * zero, negative or not finite, or naming the bound when `start`/`end` are not finite with
 * `start <= end`.
 * @example
 * ```ts
 * computeStepRanges([{ name: 'a', weight: 20 }, { name: 'b', weight: 60 }, { name: 'c', weight: 20 }]);
 * // a: 10–26, b: 26–74, c: 74–90
 * ```
 */
export function computeStepRanges(steps: readonly WeightedStep[], options: StepRangeOptions = {}): StepRange[] {
  const start = options.start ?? 10;
  const end = options.end ?? 90;
  if (typeof start !== 'number' || !Number.isFinite(start))
    throw invalidArgument('computeStepRanges: start', `must be finite, got ${shown(start)}`);
  if (typeof end !== 'number' || !Number.isFinite(end) || end < start) {
    throw invalidArgument('computeStepRanges: end', `must be finite and >= start, got ${shown(end)}`);
  }
  // Callers from plain JavaScript can pass anything.
  const given: unknown = steps;
  if (!Array.isArray(given))
    throw invalidArgument('computeStepRanges: steps', `expected an array of { name, weight }, got ${shown(given)}`);
  const read: WeightedStep[] = steps.map((step, i) => {
    const { name, weight } = step as { name: string; weight: unknown };
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight <= 0) {
      throw invalidArgument(
        `computeStepRanges: steps[${i}].weight`,
        `is ${shown(weight)} (step "${shown(name)}"); expected a positive finite number`,
      );
    }
    return { name, weight };
  });
  let largest = 0;
  for (const step of read) largest = Math.max(largest, step.weight);
  let total = 0;
  for (const step of read) total += step.weight / largest;
  const span = end - start;
  let cumulative = 0;
  return read.map((step) => {
    const share = step.weight / largest;
    const stepStart = start + (cumulative / total) * span;
    cumulative += share;
    const stepEnd = Math.min(end, start + (cumulative / total) * span);
    return { name: step.name, weight: step.weight, start: stepStart, end: stepEnd };
  });
}
