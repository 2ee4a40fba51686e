import { invalidArgument, shown } from './estimator-error.js';

/** Which half of a roundtrip a run is in: waiting for the model, or running its tool calls. */
export type RoundtripPhase = 'llm' | 'tools';

/**
 * The naive roundtrip estimate: how far a run is after `roundtrip` of at most
 * `maxIterations` model calls, with half a roundtrip credited once its tools run.
 *
 * It is the baseline every other source improves on; the exact formula is relied on by
 * other packages: `min(99, round(roundtrip / maxIterations * 100 + (phase === 'tools' ? 50 / maxIterations : 0)))`.
 *
 * @throws {EstimatorError} `ESTIMATOR_INVALID_ARGUMENT` naming the argument, for non-finite or negative input or `maxIterations <= 0`.
 * @example
 * ```ts
 * estimateProgress(2, 10, 'tools'); // 25
 * ```
 */
export function estimateProgress(roundtrip: number, maxIterations: number, phase: RoundtripPhase): number {
  if (!Number.isFinite(roundtrip) || roundtrip < 0) {
    throw invalidArgument('estimateProgress: roundtrip', `must be a finite number >= 0, got ${shown(roundtrip)}`);
  }
  if (!Number.isFinite(maxIterations) || maxIterations <= 0) {
    throw invalidArgument('estimateProgress: maxIterations', `must be a finite number > 0, got ${shown(maxIterations)}`);
  }
  // Callers from plain JavaScript can pass anything.
  const given: unknown = phase;
  if (given !== 'llm' && given !== 'tools') {
    throw invalidArgument('estimateProgress: phase', `must be 'llm' or 'tools', got ${shown(given)}`);
  }
  const half = phase === 'tools' ? 50 / maxIterations : 0;
  return Math.min(99, Math.round((roundtrip / maxIterations) * 100 + half));
}
