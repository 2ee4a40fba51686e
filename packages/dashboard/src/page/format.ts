// How numbers read on the page.
import type { PageRun } from './frames.js';

/** Dollars to four places: `$0.0100`. */
export function usd(n: number): string {
  return `$${n.toFixed(4)}`;
}

/** What a run spent, saying when calls of an unpriced model are not in it: `$0.0100 (excludes 2 unpriced calls)`. */
export function spent(run: Pick<PageRun, 'spentUsd' | 'unpricedCalls'>): string {
  const unpriced = run.unpricedCalls ?? 0;
  return unpriced > 0 ? `${usd(run.spentUsd)} (excludes ${String(unpriced)} unpriced call${unpriced === 1 ? '' : 's'})` : usd(run.spentUsd);
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
