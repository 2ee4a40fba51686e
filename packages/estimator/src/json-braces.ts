/**
 * Longest `{…}` object, or fenced block, in model text that is still read as a possible
 * `_progress` object: 16,384 characters. A model's `_progress` object is a few dozen
 * characters; a larger span is released (streamed) or left as it is (stripped), so a stray
 * `{` never holds text back or costs more than linear time. A reply that is JSON as a whole
 * is read without this cap.
 */
export const MAX_PROGRESS_CANDIDATE = 16_384;

/** A `{…}` span `[start, end)` that holds a `"_progress"` key of its own. */
export interface KeyedSpan {
  start: number;
  end: number;
}

const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const KEY = '_progress';

/** Characters that may appear outside strings in JSON (the letters spell true, false and null). */
const JSON_OUTSIDE_STRINGS = new Set(Array.from('{}[]:,-+.0123456789eEtrufalsn \t\n\r', (c) => c.charCodeAt(0)));

/**
 * Finds, in one pass, the balanced `{…}` spans of model text that may be JSON objects
 * carrying `_progress`. Each character is looked at once, so every caller is linear in the
 * text, whatever it holds (unclosed braces, a reply cut off by `max_tokens`).
 *
 * Outside any brace the text is prose: quotes there mean nothing. Inside one, strings are
 * tracked as JSON strings. A candidate is dropped as soon as it cannot be a JSON object: a
 * raw control character inside a string, a character JSON does not allow outside strings,
 * or more than {@link MAX_PROGRESS_CANDIDATE} characters since its `{`.
 */
export class JsonBraceScanner {
  /** Positions of the open `{`s that may still start an object; `#bottom` is the oldest live one. */
  readonly #opens: number[] = [];
  /** Whether each open object has a `"_progress"` key directly inside it. */
  readonly #keyed: boolean[] = [];
  #bottom = 0;
  #inString = false;
  #escaped = false;
  /** How much of `_progress` the current string has matched so far; -1 once it cannot. */
  #keyAt = -1;

  /** Position of the oldest `{` that may still start a candidate, or -1 when there is none. */
  get oldestOpen(): number {
    return this.#bottom < this.#opens.length ? (this.#opens[this.#bottom] ?? -1) : -1;
  }

  /**
   * Reads the character `code` at position `pos` (positions must increase by one per call).
   * Returns the span it closes when that span has a `"_progress"` key of its own.
   */
  step(code: number, pos: number): KeyedSpan | undefined {
    if (this.#bottom < this.#opens.length && pos - (this.#opens[this.#bottom] ?? pos) >= MAX_PROGRESS_CANDIDATE) {
      // Drop every candidate past half the cap at once, so held text is released in large
      // chunks rather than a character at a time.
      while (this.#bottom < this.#opens.length && pos - (this.#opens[this.#bottom] ?? pos) >= MAX_PROGRESS_CANDIDATE / 2) this.#bottom++;
      // Forget the dropped ones, so memory stays within the cap whatever the text.
      this.#opens.splice(0, this.#bottom);
      this.#keyed.splice(0, this.#bottom);
      this.#bottom = 0;
    }
    if (this.#bottom >= this.#opens.length) {
      if (this.#opens.length > 0) this.#clear();
      // Prose: only a `{` can start a candidate.
      if (code === OPEN) this.#open(pos);
      return undefined;
    }
    if (this.#inString) {
      this.#stringChar(code);
      return undefined;
    }
    if (code === QUOTE) {
      this.#inString = true;
      this.#keyAt = 0;
      return undefined;
    }
    if (code === OPEN) {
      this.#open(pos);
      return undefined;
    }
    if (code === CLOSE) {
      const start = this.#opens.pop() ?? pos;
      const keyed = this.#keyed.pop() ?? false;
      if (this.#opens.length <= this.#bottom) this.#clear();
      return keyed ? { start, end: pos + 1 } : undefined;
    }
    if (!JSON_OUTSIDE_STRINGS.has(code)) this.#clear();
    return undefined;
  }

  #stringChar(code: number): void {
    if (this.#escaped) {
      this.#escaped = false;
      this.#keyAt = -1;
    } else if (code === BACKSLASH) {
      this.#escaped = true;
      this.#keyAt = -1;
    } else if (code === QUOTE) {
      this.#inString = false;
      if (this.#keyAt === KEY.length) this.#keyed[this.#keyed.length - 1] = true;
    } else if (code < 0x20) {
      // JSON strings hold no raw control characters: no open `{` is the start of an object.
      this.#clear();
    } else if (this.#keyAt >= 0) {
      this.#keyAt = this.#keyAt < KEY.length && KEY.charCodeAt(this.#keyAt) === code ? this.#keyAt + 1 : -1;
    }
  }

  #open(pos: number): void {
    this.#opens.push(pos);
    this.#keyed.push(false);
  }

  #clear(): void {
    this.#opens.length = 0;
    this.#keyed.length = 0;
    this.#bottom = 0;
    this.#inString = false;
    this.#escaped = false;
  }
}

/**
 * The balanced `{…}` spans of `text` (at most {@link MAX_PROGRESS_CANDIDATE} long) that hold
 * a `"_progress"` key of their own, innermost first. Linear in the length of `text`.
 */
export function keyedSpans(text: string): KeyedSpan[] {
  if (!text.includes(`"${KEY}"`)) return [];
  const scanner = new JsonBraceScanner();
  const spans: KeyedSpan[] = [];
  for (let i = 0; i < text.length; i++) {
    const span = scanner.step(text.charCodeAt(i), i);
    if (span !== undefined) spans.push(span);
  }
  return spans;
}

/**
 * A budget for `JSON.parse` over candidate spans: nested candidates overlap, so without one
 * a crafted text could make their total length grow faster than the text.
 */
export class ParseBudget {
  #left: number;

  constructor(textLength: number) {
    this.#left = 4 * textLength + 2 * MAX_PROGRESS_CANDIDATE;
  }

  /** Adds room for more text (a streamed delta). */
  grow(length: number): void {
    this.#left += 4 * length;
  }

  /** Spends `length`; false when the budget is gone (the candidate is then not parsed). */
  spend(length: number): boolean {
    if (length > this.#left) return false;
    this.#left -= length;
    return true;
  }
}

/** The bodies of ```` ```json ```` (or unlabelled) fenced blocks in `text`, in order. Linear. */
export function jsonFenceBodies(text: string): string[] {
  const bodies: string[] = [];
  let from = text.indexOf('```');
  while (from !== -1) {
    const bodyStart = jsonFenceBodyStart(text, from + 3);
    if (bodyStart === -1) {
      from = text.indexOf('```', from + 1);
      continue;
    }
    const close = text.indexOf('```', bodyStart);
    if (close === -1) break;
    bodies.push(text.slice(bodyStart, close));
    from = text.indexOf('```', close + 3);
  }
  return bodies;
}

/** Where the body starts when `info` (after the opening ```) reads `[ \t]*(json|JSON)?[ \t]*\n`; -1 otherwise. */
function jsonFenceBodyStart(text: string, info: number): number {
  let i = info;
  while (text[i] === ' ' || text[i] === '\t') i++;
  if (text.startsWith('json', i) || text.startsWith('JSON', i)) i += 4;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return text[i] === '\n' ? i + 1 : -1;
}

/** Whether the info string of a fence (what follows ``` on its line) marks a block that may hold `_progress`. */
export function isJsonFenceInfo(info: string): boolean {
  let start = 0;
  let end = info.length;
  while (info[start] === ' ' || info[start] === '\t') start++;
  while (end > start && (info[end - 1] === ' ' || info[end - 1] === '\t')) end--;
  const trimmed = info.slice(start, end);
  return trimmed === '' || trimmed === 'json' || trimmed === 'JSON';
}
