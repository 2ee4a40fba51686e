// Every string the CLI prints that came from a store or a stream (session ids, tool-call ids,
// run ids, errors, model text) goes through this file: an escape sequence in it could retitle,
// clear or recolour the user's terminal, and a bidi override could make a line read backwards.

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const BREAKS = /\r\n|[\n\r\t\u2028\u2029]/g;
// eslint-disable-next-line no-control-regex -- as above
const ANY_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/;

/**
 * One line of text that is safe to print on a terminal: line breaks and tabs become spaces; every
 * other control character (ESC, BEL, C1 such as CSI and OSC) and every bidirectional control
 * (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C) becomes `�`. Printable text is unchanged.
 */
export function terminalText(text: string): string {
  if (!ANY_UNSAFE.test(text)) return text;
  return text.replace(BREAKS, ' ').replace(UNSAFE, '\uFFFD');
}

/**
 * A copy of `value` with every string in it (keys too) passed through {@link terminalText}, at
 * most `maxDepth` levels deep (deeper values are kept as they are: the view prints no deeper).
 * Used on events before the view gets them.
 */
export function terminalSafe<T>(value: T, maxDepth = 8): T {
  return clean(value, maxDepth) as T;
}

function clean(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return terminalText(value);
  if (typeof value !== 'object' || value === null || depth <= 0) return value;
  if (Array.isArray(value)) return value.map((item) => clean(item, depth - 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[terminalText(key)] = clean(item, depth - 1);
  return out;
}

/** Like {@link terminalText}, line by line: the line breaks (`\n`) of `text` are kept. */
export function terminalLines(text: string): string {
  return text.split('\n').map(terminalText).join('\n');
}

const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/g;

/**
 * `JSON.stringify(value, null, space)` with the characters JSON leaves raw but a terminal acts on
 * (DEL, C1 controls, bidi controls, U+2028/U+2029) written as `\uXXXX` escapes: the same JSON
 * value, safe to print.
 */
export function terminalJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
