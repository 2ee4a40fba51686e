const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Where JSON text first nests deeper than `max` arrays and objects: the index of the `{` or `[`
 * that opens level `max + 1`, or `undefined` when no bracket outside a string does.
 *
 * Why before `JSON.parse`: V8 parses any depth, but a line nested 166,000 deep (1 MB) costs it
 * 15 times what 100 KB does, and everything after it would walk what it built. This reads each
 * character at most twice and stops at the first bracket past the bound. Strings are skipped as
 * JSON reads them (a `"` ends one unless an odd run of backslashes comes before it), so on any
 * text the depth found here is the depth `JSON.parse` reaches before it either finishes or
 * refuses the text: a line this passes is never deeper for the parser.
 */
export function tooDeepAt(text: string, max: number): number | undefined {
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (c === QUOTE) {
      at = stringEnd(text, at);
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth += 1;
      if (depth > max) return at;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return undefined;
}

/**
 * The index of the quote that closes the string opened at `open`, or the text's length when it
 * is not closed. `indexOf` finds each quote; the backslashes before one are counted back to the
 * quote before it, so each character is read at most once more.
 */
function stringEnd(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return at;
  }
}
