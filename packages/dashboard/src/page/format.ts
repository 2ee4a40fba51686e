// How numbers read on the page.
import type { PageRun } from './frames.js';

/** Dollars to four places: `$0.0100`. */
export function usd(n: number): string {
  return `$${n.toFixed(4)}`;
}

/** A duration in the largest whole unit that fits: `42s`, `3m`, `2h`. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${String(s)}s`;
  const m = Math.round(s / 60);
  return m < 60 ? `${String(m)}m` : `${String(Math.round(m / 60))}h`;
}

/** The ETA range (`2s–31s`), or nothing when the estimator gave none. */
export function eta(run: Pick<PageRun, 'etaLowMs' | 'etaHighMs'>): string {
  if (run.etaLowMs === undefined || run.etaHighMs === undefined) return '';
  return `${duration(run.etaLowMs)}–${duration(run.etaHighMs)}`;
}
