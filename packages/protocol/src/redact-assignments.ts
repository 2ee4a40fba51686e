import { isSecretName } from './secret-names.js';

/**
 * Bare values after `key:` that are type names in code, not secrets: `verifyToken(token: string)`,
 * `password: str`, `apiKey: string | undefined` stay readable. Anchored at both ends and tried
 * once per value, so it is linear in the value.
 */
const TYPE_LIKE =
  /^(?:string|number|boolean|bigint|symbol|any|unknown|never|void|object|null|undefined|true|false|str|bytes|int|float|bool|String|Number|Boolean|Optional\[.*|Secret\w*)$/;

const EQUALS = 0x3d;
const COLON = 0x3a;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const NEWLINE = 0x0a;
/**
 * Pieces of the output (kept text, censor) joined into one flat string at a time. Joining in
 * small batches keeps few objects alive during a long scan: a `+=` rope (two string objects per
 * replacement, all alive until the scan ends) was copied by the young-generation collections
 * that ran mid-scan, which made a 1 MB text of many assignments cost up to 15× a 100 KB one.
 */
const PIECES_PER_CHUNK = 64;

/** `[A-Za-z0-9_.-]`: the characters of a name such as `DB_PASSWORD` or `x-api-key`. */
function isNameChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2e || c === 0x2d;
}

const OTHER_SPACE = /\s/;

/** What `\s` matches. */
function isSpace(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) return true;
  return c > 0x7f && OTHER_SPACE.test(text.charAt(i));
}

/** Ends a bare value: whitespace or one of `& , ; " ' } )`. */
function endsBareValue(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c === 0x26 || c === 0x2c || c === 0x3b || c === DOUBLE_QUOTE || c === SINGLE_QUOTE || c === 0x7d || c === 0x29 || isSpace(text, i);
}

/**
 * Replaces the value of every `NAME=value` / `NAME: value` / `"NAME": "value"` whose name
 * holds a secret (see `isSecretName`): `DB_PASSWORD=hunter2` becomes `DB_PASSWORD=[REDACTED]`.
 *
 * Why a scanner and not a regular expression: a name is any run of name characters that
 * contains a fragment, which a backtracking engine can only express super-linearly. This is
 * one pass: every separator looks back over the name before it (which ends at the previous
 * separator) and forward over its value, and scanning resumes after a value it replaced, so
 * no character is looked at more than a constant number of times.
 *
 * A quoted value runs to its closing quote, or, unclosed, to the end of the line. A value
 * that is a type name in code (`token: string`) is kept.
 */
export function redactAssignments(text: string, censor: string): string {
  /** Flat strings of the output so far, each joined from up to {@link PIECES_PER_CHUNK} pieces. */
  const chunks: string[] = [];
  let pieces: string[] = [];
  /** Text before this index is in `chunks` and `pieces` already. */
  let copied = 0;
  /** No scan goes back before this index: the end of the last value looked at. */
  let floor = 0;
  for (let at = 0; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (c !== EQUALS && c !== COLON) continue;
    const next = text.charCodeAt(at + 1);
    // `==`, `=>`, `::` are operators, not assignments.
    if ((c === EQUALS && (next === EQUALS || next === 0x3e)) || (c === COLON && next === COLON)) continue;

    let start = at;
    while (start > floor && isSpace(text, start - 1)) start -= 1;
    const quoted = text.charCodeAt(start - 1);
    if (start > floor && (quoted === DOUBLE_QUOTE || quoted === SINGLE_QUOTE)) start -= 1;
    const nameEnd = start;
    while (start > floor && isNameChar(text.charCodeAt(start - 1))) start -= 1;
    if (start === nameEnd || !isSecretName(text.slice(start, nameEnd))) continue;

    let valueStart = at + 1;
    while (valueStart < text.length && isSpace(text, valueStart)) valueStart += 1;
    if (valueStart >= text.length) continue;
    const quote = text.charCodeAt(valueStart);
    let valueEnd = valueStart;
    if (quote === DOUBLE_QUOTE || quote === SINGLE_QUOTE) {
      valueEnd += 1;
      while (valueEnd < text.length && text.charCodeAt(valueEnd) !== quote && text.charCodeAt(valueEnd) !== NEWLINE) valueEnd += 1;
      if (text.charCodeAt(valueEnd) === quote) valueEnd += 1;
    } else {
      while (valueEnd < text.length && !endsBareValue(text, valueEnd)) valueEnd += 1;
      if (valueEnd === valueStart) continue;
      if (TYPE_LIKE.test(text.slice(valueStart, valueEnd))) {
        // Kept, and not looked at again: separators inside it are part of the type.
        floor = valueEnd;
        at = valueEnd - 1;
        continue;
      }
    }
    pieces.push(text.slice(copied, valueStart), censor);
    if (pieces.length >= PIECES_PER_CHUNK) {
      chunks.push(pieces.join(''));
      pieces = [];
    }
    copied = valueEnd;
    floor = valueEnd;
    at = valueEnd - 1;
  }
  if (copied === 0) return text;
  pieces.push(text.slice(copied));
  chunks.push(pieces.join(''));
  return chunks.join('');
}
