// The tool-call log's text of a call's redacted arguments, written directly when they are plain
// data: `JSON.stringify` with safeStringify's replacer calls back into JavaScript for every value,
// about 0.3 µs for `{}` and more per key, on every tool call of a run.
import { safeStringify } from '@headway/protocol';
import { cutText } from '@headway/protocol/internal';

/** Deeper than this the plain path gives up (the reference path decides, stack and all). */
const MAX_DEPTH = 64;

/** Thrown where the plain path does not apply: the reference path writes the whole value. */
class NotPlain extends Error {}
const NOT_PLAIN = new NotPlain();

/**
 * `cutText(safeStringify(args) ?? '', max)`, for `args` a redactor made (protocol's
 * `createRedactor`): the same text, without the replacer's cost, and writing no further than
 * the cut (the rest is still walked: anything past it that JSON cannot write makes the whole
 * text `"[unserializable]"`, as it always did). Objects and arrays of strings, numbers, booleans, `null` and `undefined` are
 * written here; anything else (a Map, a Date, a typed array, a bigint, a function, a `toJSON`,
 * another prototype) goes to `safeStringify` as a whole.
 *
 * Exact because a redactor's output is its own fresh copy: plain objects with data properties
 * only (no getters, no proxies), no object reached twice (a cycle is already `"[Circular]"`),
 * so the replacer would change nothing on these values.
 */
export function argsText(args: unknown, max: number): string {
  const out: string[] = [];
  const budget = { left: max + 1 };
  try {
    write(args, out, budget, 0);
  } catch (error) {
    if (!(error instanceof NotPlain)) throw error;
    return cutText(safeStringify(args) ?? '', max);
  }
  return cutText(out.join(''), max);
}

/** Appends `text` and counts it against the cut; past the cut nothing more is kept. */
function push(text: string, out: string[], budget: { left: number }): void {
  if (budget.left <= 0) return;
  out.push(text);
  budget.left -= text.length;
}

/** Writes `value` as JSON.stringify would; `false` when it writes nothing (undefined at the top or in an object). */
function write(value: unknown, out: string[], budget: { left: number }, depth: number): boolean {
  switch (typeof value) {
    case 'string':
      if (budget.left > 0) push(JSON.stringify(value), out, budget);
      return true;
    case 'number':
      push(Number.isFinite(value) ? String(value) : 'null', out, budget);
      return true;
    case 'boolean':
      push(value ? 'true' : 'false', out, budget);
      return true;
    case 'undefined':
      return false;
    case 'object':
      break;
    default:
      throw NOT_PLAIN;
  }
  if (value === null) {
    push('null', out, budget);
    return true;
  }
  if (depth >= MAX_DEPTH) throw NOT_PLAIN;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype || 'toJSON' in value) throw NOT_PLAIN;
    const items = value as unknown[];
    push('[', out, budget);
    for (let i = 0; i < items.length; i++) {
      if (i > 0) push(',', out, budget);
      if (!write(items[i], out, budget, depth + 1)) push('null', out, budget);
    }
    push(']', out, budget);
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype || 'toJSON' in value) throw NOT_PLAIN;
  const record = value as Record<string, unknown>;
  push('{', out, budget);
  let first = true;
  for (const key of Object.keys(record)) {
    const v = record[key];
    if (v === undefined) continue;
    if (budget.left > 0) push(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`, out, budget);
    first = false;
    write(v, out, budget, depth + 1);
  }
  push('}', out, budget);
  return true;
}
