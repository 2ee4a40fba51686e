import { invalidArgument, shown } from './estimator-error.js';

/** A slice of a parent's 0–100 scale. */
export interface ProgressRange {
  start: number;
  end: number;
}

/**
 * Maps a local 0–100 percent into a parent's slice, so a worker's 50% inside a 30–60
 * step shows as 45% overall. Local values outside 0–100 are clamped first.
 *
 * @throws {EstimatorError} `ESTIMATOR_INVALID_ARGUMENT` when `local` or either bound is not a finite number.
 * @example
 * ```ts
 * mapProgressToRange(50, { start: 30, end: 60 }); // 45
 * ```
 */
export function mapProgressToRange(local: number, range: ProgressRange): number {
  if (typeof local !== 'number' || Number.isNaN(local))
    throw invalidArgument('mapProgressToRange: local', `must be a number, got ${shown(local)}`);
  if (!Number.isFinite(range.start)) throw invalidArgument('mapProgressToRange: range.start', `must be finite, got ${shown(range.start)}`);
  if (!Number.isFinite(range.end)) throw invalidArgument('mapProgressToRange: range.end', `must be finite, got ${shown(range.end)}`);
  const clamped = Math.min(100, Math.max(0, local));
  return Math.round(range.start + (clamped / 100) * (range.end - range.start));
}
