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

/** An array property (a bounded prefix of it), or an empty array. */
export function list(value: unknown, key: string, max = 1000): unknown[] {
  const v = field(value, key);
  return Array.isArray(v) ? v.slice(0, max) : [];
}

/** Epoch ms of an ISO timestamp property, or undefined. */
export function isoTime(value: unknown, key: string): number | undefined {
  const text = str(value, key);
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}
