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
