/**
 * A duration for a person: `850ms`, `1.2s`, `42s`, `4m 05s`, `1h 02m`. Negative or
 * non-finite input reads `0ms`.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '0ms';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 10_000) {
    const tenths = Math.floor(ms / 100) / 10;
    return `${tenths.toFixed(1)}s`;
  }
  const totalSeconds = Math.floor(ms / 1000);
  if (totalSeconds < 60) return `${totalSeconds}s`;
  const totalMinutes = Math.floor(totalSeconds / 60);
  if (totalMinutes < 60) return `${totalMinutes}m ${pad(totalSeconds % 60)}s`;
  return `${Math.floor(totalMinutes / 60)}h ${pad(totalMinutes % 60)}m`;
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/**
 * A range of time left for a person, in the unit of its high end: `20–45s`, `2–5 min`,
 * `1–3 h`; a low end that rounds to nothing reads `<1`.
 */
export function formatEtaRange(lowMs: number, highMs: number): string {
  const low = Math.max(0, Number.isFinite(lowMs) ? lowMs : 0);
  const high = Math.max(low, Number.isFinite(highMs) ? highMs : low);
  const [unitMs, unit] = high < 60_000 ? [1000, 's'] : high < 3_600_000 ? [60_000, ' min'] : [3_600_000, ' h'];
  const lo = Math.floor(low / unitMs);
  const hi = Math.max(1, Math.ceil(high / unitMs));
  if (lo === hi) return `${hi}${unit}`;
  return `${lo === 0 ? '<1' : String(lo)}–${hi}${unit}`;
}
