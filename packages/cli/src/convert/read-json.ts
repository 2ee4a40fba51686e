// Small readers for values parsed from an untrusted line: each returns undefined instead of
// throwing, and never calls a getter (JSON.parse output has none, but converters are also
// handed arbitrary values by the fuzz tests).

/** A plain object's own property, or undefined. */
export function field(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(value, key);
  return descriptor !== undefined && 'value' in descriptor ? (descriptor.value as unknown) : undefined;
}

/** A string property, or undefined. */
export function str(value: unknown, key: string): string | undefined {
  const v = field(value, key);
  return typeof v === 'string' ? v : undefined;
}

/** A finite number property, or undefined. */
export function num(value: unknown, key: string): number | undefined {
  const v = field(value, key);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A token or item count property: a finite number ≥ 0, rounded, at most `Number.MAX_SAFE_INTEGER`; else undefined. */
export function count(value: unknown, key: string): number | undefined {
  const v = num(value, key);
  if (v === undefined || v < 0) return undefined;
  const n = Math.round(v);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The sum of counts, or undefined when it is not a safe integer. */
export function sumCounts(...counts: number[]): number | undefined {
  const total = counts.reduce((a, b) => a + b, 0);
  return Number.isSafeInteger(total) ? total : undefined;
}

/** An array property (a bounded prefix of it), or an empty array. */
export function list(value: unknown, key: string, max = 1000): unknown[] {
  const v = field(value, key);
  return Array.isArray(v) ? v.slice(0, max) : [];
}

/** Epoch ms of an ISO timestamp property, or undefined (also for a time before 1970: event times are ≥ 0). */
export function isoTime(value: unknown, key: string): number | undefined {
  const text = str(value, key);
  if (text === undefined || text.length > 64) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}
