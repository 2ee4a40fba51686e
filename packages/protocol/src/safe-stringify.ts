const UNSERIALIZABLE = '"[unserializable]"';

/**
 * JSON text of any value without throwing: circular references become `"[Circular]"`,
 * bigints strings, Errors `{ name, message }`; `undefined` gives `undefined`. A value that
 * cannot be read (a throwing getter or `toJSON`, a revoked proxy) or is nested too deep for
 * the stack gives the JSON string `"[unserializable]"`: the result is always JSON text.
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
    // Not String(value): that runs the value's own code again, and "[object Object]" is no JSON.
    return UNSERIALIZABLE;
  }
}
