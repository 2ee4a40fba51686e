/**
 * Iterations at which the cold-start guess reaches half of {@link COLD_START_CEILING}. Without
 * a cap, history or plan, nothing says how long a run is: recorded runs of coding agents end
 * anywhere between 3 and 300 iterations. The guess follows a log-uniform belief over that
 * span, so it grows slowly and never claims the end is near.
 */
const COLD_START_HALF = 30;
/** The most the guess may show. */
const COLD_START_CEILING = 90;

/** The percent guessed after `position` iterations (finished ones plus the share of the current one) when nothing else is known. */
export function coldStartPercent(position: number): number {
  if (!(position > 0)) return 0;
  return (COLD_START_CEILING * position) / (position + COLD_START_HALF);
}
