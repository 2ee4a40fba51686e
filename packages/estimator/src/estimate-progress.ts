import { invalidArgument, shown } from './estimator-error.js';

/** Which half of a roundtrip a run is in: waiting for the model, or running its tool calls. */
export type RoundtripPhase = 'llm' | 'tools';

/**
 * The naive roundtrip estimate: how far a run is after `roundtrip` of at most
 * `maxRoundtrips` model calls, with half a roundtrip credited once its tools run.
 *
 * It is the baseline every other source improves on; the exact formula is relied on by
 * other packages: `min(99, round(roundtrip / maxRoundtrips * 100 + (phase === 'tools' ? 50 / maxRoundtrips : 0)))`.
 *
 * @throws {EstimatorError} `ESTIMATOR_INVALID_ARGUMENT` naming the argument, for non-finite or negative input or `maxRoundtrips <= 0`.
 * @example
 * ```ts
 * estimateProgress(2, 10, 'tools'); // 25
 * ```
 */
export function estimateProgress(roundtrip: number, maxRoundtrips: number, phase: RoundtripPhase): number {
  if (!Number.isFinite(roundtrip) || roundtrip < 0) {
    throw invalidArgument('estimateProgress: roundtrip', `must be a finite number >= 0, got ${shown(roundtrip)}`);
  }
  if (!Number.isFinite(maxRoundtrips) || maxRoundtrips <= 0) {
    throw invalidArgument('estimateProgress: maxRoundtrips', `must be a finite number > 0, got ${shown(maxRoundtrips)}`);
  }
  // Callers from plain JavaScript can pass anything.
  const given: unknown = phase;
  if (given !== 'llm' && given !== 'tools') {
    throw invalidArgument('estimateProgress: phase', `must be 'llm' or 'tools', got ${shown(given)}`);
  }
  const half = phase === 'tools' ? 50 / maxRoundtrips : 0;
  return Math.min(99, Math.round((roundtrip / maxRoundtrips) * 100 + half));
}
