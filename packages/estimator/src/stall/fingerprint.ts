// Untrusted values (tool arguments and results, model text) become a short fingerprint in
// bounded time: the walk visits at most MAX_NODES values and reads at most MAX_CHARS characters,
// whatever the input's size or depth, and a getter that throws or a revoked proxy becomes a token
// instead of an exception.

/** Most values (objects, arrays, scalars) one fingerprint walks; the rest count only by number. */
const MAX_NODES = 4_096;
/** Most characters of strings one fingerprint reads; longer strings add their length. */
const MAX_CHARS = 64 * 1024;
/** Deepest nesting walked; deeper values count as one token. */
const MAX_DEPTH = 32;

interface Budget {
  nodes: number;
  chars: number;
}

/**
 * A 32-bit FNV-1a hash over everything added, plus the count of characters added. One hash is
 * enough here: fingerprints are compared with the few calls just before them, where a collision
 * has a chance of one in four billion, and a per-character loop is the detector's main cost.
 */
class Hasher {
  #h = 0x811c9dc5;
  #n = 0;

  add(text: string): void {
    let h = this.#h;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    this.#h = h;
    this.#n += text.length;
  }

  digest(): string {
    return `${(this.#h >>> 0).toString(36)}.${this.#n.toString(36)}`;
  }
}

/** Strings up to this length are normalised (whitespace); longer ones, mostly results, are hashed as they are. */
const MAX_NORMALIZED = 1024;

/** Whitespace runs collapsed to one space, ends trimmed: `ls  src/work\n` and `ls src/work` are the same call. */
function normalizeText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function walk(value: unknown, depth: number, budget: Budget, out: Hasher): void {
  budget.nodes -= 1;
  if (budget.nodes < 0) {
    out.add('…');
    return;
  }
  switch (typeof value) {
    case 'string': {
      const room = Math.max(0, budget.chars);
      const read = value.length > room ? value.slice(0, room) : value;
      budget.chars -= read.length;
      out.add('s');
      out.add(read.length <= MAX_NORMALIZED ? normalizeText(read) : read);
      if (read.length < value.length) out.add(`…${value.length}`);
      out.add('\u0000');
      return;
    }
    case 'number':
    case 'boolean':
    case 'bigint':
      out.add(`${typeof value}:${String(value)}\u0000`);
      return;
    case 'undefined':
      out.add('u\u0000');
      return;
    case 'symbol':
    case 'function':
      out.add(`${typeof value}\u0000`);
      return;
    default:
      break;
  }
  if (value === null) {
    out.add('n\u0000');
    return;
  }
  if (depth >= MAX_DEPTH) {
    out.add('deep\u0000');
    return;
  }
  try {
    if (Array.isArray(value)) {
      const items = value as unknown[];
      out.add(`[${items.length}`);
      const n = Math.min(items.length, Math.max(0, budget.nodes));
      for (let i = 0; i < n; i++) walk(items[i], depth + 1, budget, out);
      out.add(']');
      return;
    }
    // Sorted keys: the same arguments in another order are the same call.
    const keys = Object.keys(value as object).sort();
    out.add(`{${keys.length}`);
    for (const key of keys) {
      if (budget.nodes <= 0) break;
      out.add(key.length > 200 ? key.slice(0, 200) : key);
      out.add('=');
      walk((value as Record<string, unknown>)[key], depth + 1, budget, out);
    }
    out.add('}');
  } catch {
    // A throwing getter, a revoked proxy, a trap that lies: the value is opaque, not fatal.
    out.add('unreadable\u0000');
  }
}

/**
 * A short fingerprint of any value, for telling "the same call with the same result" apart
 * from a new one: object keys are sorted, whitespace runs in strings (up to 1,024 characters) collapsed, and the cost is
 * bounded (at most 4,096 values and 64 KiB of text are read). Never throws.
 *
 * @example
 * ```ts
 * stallFingerprint({ path: 'src', depth: 1 }) === stallFingerprint({ depth: 1, path: ' src ' }); // true
 * ```
 */
export function stallFingerprint(value: unknown): string {
  const out = new Hasher();
  try {
    walk(value, 0, { nodes: MAX_NODES, chars: MAX_CHARS }, out);
  } catch {
    out.add('unreadable\u0000');
  }
  return out.digest();
}
