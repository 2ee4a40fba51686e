/**
 * Natural log of the p10 and p90 of (true time left / point ETA), measured on 143 recorded
 * agent runs of two folders (from the third roundtrip on). The spread did not shrink with
 * the roundtrips seen or with the percent shown, so the band is constant in log terms: it
 * narrows in time as the point ETA shrinks, not relative to it.
 */
const LOG_LOW = -1.75;
const LOG_HIGH = 1.95;

/** The p10–p90 range of the time left around a point estimate. */
export function etaRange(point: number): { low: number; high: number } {
  return { low: point * Math.exp(LOG_LOW), high: point * Math.exp(LOG_HIGH) };
}
