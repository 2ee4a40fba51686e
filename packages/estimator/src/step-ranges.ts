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
 * weights: `stepStart = start + cumulativeWeight / totalWeight * (end - start)`.
 *
 * @throws {RangeError} naming the step whose weight is zero, negative or not finite, or
 * naming the bound when `start`/`end` are not finite with `start <= end`.
 * @example
 * ```ts
 * computeStepRanges([{ name: 'a', weight: 20 }, { name: 'b', weight: 60 }, { name: 'c', weight: 20 }]);
 * // a: 10–26, b: 26–74, c: 74–90
 * ```
 */
export function computeStepRanges(steps: readonly WeightedStep[], options: StepRangeOptions = {}): StepRange[] {
  const start = options.start ?? 10;
  const end = options.end ?? 90;
  if (!Number.isFinite(start)) throw new RangeError(`computeStepRanges: start must be finite, got ${String(start)}`);
  if (!Number.isFinite(end) || end < start) throw new RangeError(`computeStepRanges: end must be finite and >= start, got ${String(end)}`);
  let total = 0;
  for (const [i, step] of steps.entries()) {
    if (!Number.isFinite(step.weight) || step.weight <= 0) {
      throw new RangeError(`computeStepRanges: step ${i} ("${step.name}") has weight ${String(step.weight)}; expected a positive finite number`);
    }
    total += step.weight;
  }
  const span = end - start;
  let cumulative = 0;
  return steps.map((step) => {
    const stepStart = start + (cumulative / total) * span;
    const stepEnd = stepStart + (step.weight / total) * span;
    cumulative += step.weight;
    return { name: step.name, weight: step.weight, start: stepStart, end: stepEnd };
  });
}
