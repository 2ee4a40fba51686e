import { matchingBrace } from './json-braces.js';

const FENCED = /```[ \t]*(?:json|JSON)?[ \t]*\n([\s\S]*?)```/g;

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** What replaces a JSON object that carried `_progress`: nothing, or the object without it. */
function withoutProgress(object: Record<string, unknown>): string {
  const rest = Object.fromEntries(Object.entries(object).filter(([key]) => key !== '_progress'));
  return Object.keys(rest).length === 0 ? '' : JSON.stringify(rest, null, 2);
}

/** End index (exclusive) of the balanced `{…}` starting at `start`; -1 if unbalanced. */
function balancedEnd(text: string, start: number): number {
  const close = matchingBrace(text, start);
  return close === -1 ? -1 : close + 1;
}

/**
 * The text a user should see: the model's reply without the `_progress` JSON it added for
 * the progress bar (a fenced block, an object in prose, or a key of a JSON reply).
 * Other JSON is left exactly as it was.
 *
 * @example
 * ```ts
 * stripModelProgress('Done with the scan.\n```json\n{"_progress":{"percent":40}}\n```'); // 'Done with the scan.'
 * ```
 */
export function stripModelProgress(text: string): string {
  if (!text.includes('_progress')) return text;
  const whole = parseObject(text.trim());
  if (whole !== undefined && '_progress' in whole) return withoutProgress(whole);
  let out = text.replace(FENCED, (block, body: string) => {
    const object = parseObject(body.trim());
    if (object === undefined || !('_progress' in object)) return block;
    const rest = withoutProgress(object);
    return rest === '' ? '' : `\`\`\`json\n${rest}\n\`\`\``;
  });
  for (let from = out.indexOf('{'); from !== -1 && out.includes('_progress', from); from = out.indexOf('{', from + 1)) {
    const end = balancedEnd(out, from);
    if (end === -1) continue;
    const object = parseObject(out.slice(from, end));
    if (object === undefined || !('_progress' in object)) continue;
    const rest = withoutProgress(object);
    // Removing an inline object must not leave two spaces where it was.
    const after = rest === '' && out[from - 1] === ' ' && out[end] === ' ' ? end + 1 : end;
    out = out.slice(0, from) + rest + out.slice(after);
    from += rest.length - 1;
  }
  return out.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
}

/**
 * Streams model text while holding back anything that may turn out to be a `_progress`
 * object, so `text.delta` events never show it: text before a `{` or a code fence goes out
 * at once; a held span is released when it closes without `_progress` in it, and the rest
 * is cleaned with {@link stripModelProgress} at the end.
 */
export class ProgressTextFilter {
  #held = '';

  /** Adds a delta; returns the part that is safe to show now. */
  push(delta: string): string {
    this.#held += delta;
    return this.#release();
  }

  /** The stream ended: returns whatever is left, cleaned. */
  flush(): string {
    const rest = this.#held;
    this.#held = '';
    if (!rest.includes('_progress')) return rest;
    const leading = /^\s*/.exec(rest)?.[0] ?? '';
    const cleaned = stripModelProgress(rest);
    return cleaned === '' ? '' : leading + cleaned;
  }

  #release(): string {
    let out = '';
    for (;;) {
      const brace = this.#held.indexOf('{');
      const fence = this.#held.indexOf('```');
      const start = brace === -1 ? fence : fence === -1 ? brace : Math.min(brace, fence);
      if (start === -1) {
        // A trailing backtick or two may be the start of a fence.
        const tail = /`{1,2}$/.exec(this.#held)?.[0].length ?? 0;
        out += this.#held.slice(0, this.#held.length - tail);
        this.#held = this.#held.slice(this.#held.length - tail);
        return out;
      }
      out += this.#held.slice(0, start);
      this.#held = this.#held.slice(start);
      const end = this.#held.startsWith('```') ? this.#fenceEnd() : balancedEnd(this.#held, 0);
      if (end === -1) return out;
      const span = this.#held.slice(0, end);
      if (span.includes('_progress')) return out; // decided at flush, with the whole text
      out += span;
      this.#held = this.#held.slice(end);
    }
  }

  #fenceEnd(): number {
    const close = this.#held.indexOf('```', 3);
    return close === -1 ? -1 : close + 3;
  }
}
