/**
 * JSON text of any value without throwing: circular references become `"[Circular]"`,
 * bigints strings, Errors `{ name, message }`; `undefined` gives `undefined`.
 */
export function safeStringify(value: unknown, space?: number): string | undefined {
  const seen = new WeakSet<object>();
  try {
    return JSON.stringify(
      value,
      function replacer(this: unknown, _key: string, v: unknown): unknown {
        if (typeof v === 'bigint') return v.toString();
        if (v instanceof Error) return { name: v.name, message: v.message };
        if (typeof v === 'object' && v !== null) {
          if (seen.has(v)) return '[Circular]';
          seen.add(v);
        }
        return v;
      },
      space,
    );
  } catch {
    try {
      return String(value);
    } catch {
      return '[unserializable]';
    }
  }
}
