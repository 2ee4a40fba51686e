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
 *
 * Everything is hashed where it lies (a prefix of a string, a string with its whitespace
 * normalised, a count's digits): no piece of text is built only to be hashed.
 */
class Hasher {
  #h = 0x811c9dc5;
  #n = 0;

  /** Adds `text`'s first `end` characters (all of them by default). */
  add(text: string, end = text.length): void {
    let h = this.#h;
    for (let i = 0; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    this.#h = h;
    this.#n += end;
  }

  /** Adds one character by its code. */
  addCode(code: number): void {
    this.#h = Math.imul(this.#h ^ code, 0x01000193);
    this.#n += 1;
  }

  /**
   * Adds `text`'s first `end` characters as `text.slice(0, end).replace(/\s+/g, ' ').trim()`
   * would read: whitespace runs as one space, none at either end.
   */
  addNormalized(text: string, end: number): void {
    let h = this.#h;
    let n = this.#n;
    let started = false;
    let space = false;
    for (let i = 0; i < end; i++) {
      const code = text.charCodeAt(i);
      if (isSpace(code)) {
        space = started;
        continue;
      }
      if (space) {
        h = Math.imul(h ^ 0x20, 0x01000193);
        n += 1;
        space = false;
      }
      h = Math.imul(h ^ code, 0x01000193);
      n += 1;
      started = true;
    }
    this.#h = h;
    this.#n = n;
  }

  /** Adds a count's decimal digits, as `String(value)` writes them. */
  addCount(value: number): void {
    // Up to 2^32, where every division below is exact enough to give the right digit.
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
      this.add(String(value));
      return;
    }
    let unit = 1;
    while (unit * 10 <= value) unit *= 10;
    for (; unit >= 1; unit /= 10) this.addCode(0x30 + (Math.floor(value / unit) % 10));
  }

  digest(): string {
    return `${(this.#h >>> 0).toString(36)}.${this.#n.toString(36)}`;
  }

  /** The same two numbers as {@link digest}, in decimal: equal exactly when the digests are, and cheaper to write. */
  key(): string {
    return `${this.#h >>> 0}.${this.#n}`;
  }
}

/**
 * Whether a character is one `\s` matches (and `trim` removes): ECMAScript's WhiteSpace and
 * LineTerminator, the BOM and every Unicode space separator included.
 */
function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Strings up to this length are normalised (whitespace); longer ones, mostly results, are hashed as they are. */
const MAX_NORMALIZED = 1024;

function walk(value: unknown, depth: number, budget: Budget, out: Hasher): void {
  budget.nodes -= 1;
  if (budget.nodes < 0) {
    out.add('…');
    return;
  }
  switch (typeof value) {
    case 'string': {
      const room = Math.max(0, budget.chars);
      const read = Math.min(value.length, room);
      budget.chars -= read;
      out.addCode(0x73); // 's'
      if (read <= MAX_NORMALIZED) out.addNormalized(value, read);
      else out.add(value, read);
      if (read < value.length) {
        out.add('…');
        out.addCount(value.length);
      }
      out.addCode(0);
      return;
    }
    case 'number':
    case 'boolean':
    case 'bigint':
      out.add(typeof value);
      out.addCode(0x3a); // ':'
      out.add(String(value));
      out.addCode(0);
      return;
    case 'undefined':
      out.add('u\u0000');
      return;
    case 'symbol':
    case 'function':
      out.add(typeof value);
      out.addCode(0);
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
      out.addCode(0x5b); // '['
      out.addCount(items.length);
      const n = Math.min(items.length, Math.max(0, budget.nodes));
      for (let i = 0; i < n; i++) walk(items[i], depth + 1, budget, out);
      out.addCode(0x5d); // ']'
      return;
    }
    // Sorted keys: the same arguments in another order are the same call.
    const keys = Object.keys(value as object);
    if (keys.length > 1) keys.sort();
    out.addCode(0x7b); // '{'
    out.addCount(keys.length);
    for (const key of keys) {
      if (budget.nodes <= 0) break;
      out.add(key, Math.min(key.length, 200));
      out.addCode(0x3d); // '='
      walk((value as Record<string, unknown>)[key], depth + 1, budget, out);
    }
    out.addCode(0x7d); // '}'
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
  return hashed(value).digest();
}

/**
 * The detector's own form of {@link stallFingerprint}: the same hash and count written in
 * decimal (`toString(36)` was most of a fingerprint's cost). Two values have equal keys exactly
 * when they have equal fingerprints; the key never leaves the detector.
 */
export function stallFingerprintKey(value: unknown): string {
  return hashed(value).key();
}

function hashed(value: unknown): Hasher {
  const out = new Hasher();
  try {
    walk(value, 0, { nodes: MAX_NODES, chars: MAX_CHARS }, out);
  } catch {
    out.add('unreadable\u0000');
  }
  return out;
}
