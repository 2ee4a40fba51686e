import { cutText } from '@headway/protocol/internal';

/** Deepest nesting of a tool input kept in `tool.executing.args`; deeper values become a marker. */
const MAX_ARGS_DEPTH = 20;
/** Most values (objects, arrays, scalars) of one tool input kept; the rest become a marker. */
const MAX_ARGS_NODES = 5000;
/** Longest string of a tool input kept, in characters. */
const MAX_ARGS_STRING = 16 * 1024;

const DEEP = '[nested too deep]';
const MORE = '[more not shown]';

/**
 * A copy of a tool input (model output: anything can be in it) that any writer can serialise and
 * any reader can parse back: at most {@link MAX_ARGS_DEPTH} levels and {@link MAX_ARGS_NODES}
 * values, strings cut to {@link MAX_ARGS_STRING}, only JSON values (numbers that are not finite
 * become null). Cost is linear in what is kept, never in what is cut; recursion is bounded by the depth.
 */
export function boundedValue(value: unknown): unknown {
  try {
    return boundedCopy(value);
  } catch {
    // A value that cannot be read (a revoked proxy, a throwing getter: the fuzz tests hand those in).
    return '[unreadable]';
  }
}

function boundedCopy(value: unknown): unknown {
  let budget = MAX_ARGS_NODES;
  const copy = (v: unknown, depth: number): unknown => {
    budget -= 1;
    if (typeof v === 'string') return v.length > MAX_ARGS_STRING ? cutText(v, MAX_ARGS_STRING) : v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : null;
    if (typeof v === 'boolean' || v === null) return v;
    if (typeof v !== 'object') return null;
    if (depth >= MAX_ARGS_DEPTH) return DEEP;
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      for (const item of v) {
        if (budget <= 0) {
          out.push(MORE);
          break;
        }
        out.push(copy(item, depth + 1));
      }
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(v)) {
      if (budget <= 0) {
        out['…'] = MORE;
        break;
      }
      const descriptor = Object.getOwnPropertyDescriptor(v, key);
      // defineProperty: a "__proto__" key stays a member, never the copy's prototype.
      Object.defineProperty(out, key, {
        value: descriptor !== undefined && 'value' in descriptor ? copy(descriptor.value, depth + 1) : null,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  return copy(value, 0);
}
