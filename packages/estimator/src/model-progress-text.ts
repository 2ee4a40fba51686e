import { JsonBraceScanner, MAX_PROGRESS_CANDIDATE, ParseBudget, isJsonFenceInfo } from './json-braces.js';
import { mayBeProgressObject } from './model-progress.js';

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function hasProgress(object: Record<string, unknown> | undefined): object is Record<string, unknown> {
  return object !== undefined && Object.hasOwn(object, '_progress');
}

/** What replaces a JSON object that carried `_progress`: nothing, or the object without it. */
function withoutProgress(object: Record<string, unknown>): string {
  const rest = Object.fromEntries(Object.entries(object).filter(([key]) => key !== '_progress'));
  return Object.keys(rest).length === 0 ? '' : JSON.stringify(rest, null, 2);
}

/** Spaces and tabs before a line end removed, runs of blank lines cut to one, trimmed. Linear. */
function tidy(text: string): string {
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    let end = line.length;
    while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
    if (end !== line.length) lines[i] = line.slice(0, end);
  }
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The text a user should see: the model's reply without the `_progress` JSON it added for
 * the progress bar (a fenced block, an object in prose, or a key of a JSON reply).
 * Other JSON is left exactly as it was. Linear in the text; an object in prose longer than
 * `MAX_PROGRESS_CANDIDATE` characters is left as it is.
 *
 * @example
 * ```ts
 * stripModelProgress('Done with the scan.\n```json\n{"_progress":{"percent":40}}\n```'); // 'Done with the scan.'
 * ```
 */
export function stripModelProgress(text: string): string {
  if (typeof text !== 'string' || !text.includes('_progress')) return text;
  const trimmed = text.trim();
  const whole = mayBeProgressObject(trimmed) ? parseObject(trimmed) : undefined;
  if (hasProgress(whole)) return withoutProgress(whole);
  const filter = new ProgressTextFilter();
  return tidy(filter.push(text) + filter.flush());
}

interface Replacement {
  start: number;
  end: number;
  text: string;
}

const BACKTICK = 0x60;
const NEWLINE = 0x0a;
/** Longest fence info string (`json`, padded) that may still open a `_progress` block. */
const MAX_FENCE_INFO = 16;

/**
 * Streams model text while holding back anything that may turn out to be a `_progress`
 * object, so `text.delta` events never show it: text before a `{` or a code fence goes out
 * at once; a held `{…}` or ```` ```json ```` block is released when it closes (without its
 * `_progress`), when it can no longer be JSON (a character JSON does not allow there), or
 * once it is longer than `MAX_PROGRESS_CANDIDATE` characters. Each character is scanned
 * once, so a whole stream costs time linear in its length, and at most
 * `MAX_PROGRESS_CANDIDATE` characters (plus the delta) are ever held back.
 *
 * @example
 * ```ts
 * const filter = new ProgressTextFilter();
 * filter.push('Reading. {"_prog'); // 'Reading. '
 * filter.push('ress":{"percent":30}} Next'); // 'Next' (the object and the space after it are dropped)
 * filter.flush(); // ''
 * ```
 */
export class ProgressTextFilter {
  /** Text not yet released; `#held[0]` is at position `#base` of the whole stream. */
  #held = '';
  #base = 0;
  #scanner = new JsonBraceScanner();
  #budget = new ParseBudget(0);
  #fence: 'none' | 'info' | 'json' | 'pass' = 'none';
  #fenceStart = 0;
  #bodyStart = 0;
  #info = '';
  /** Backticks in a row just read. */
  #ticks = 0;
  /** Decided `_progress` objects inside the held text, by position, none inside another. */
  #replacements: Replacement[] = [];
  /** Position of a space to drop: an inline object was removed right after a space. */
  #dropSpaceAt = -1;
  #lastOut = '';

  /** Adds a delta; returns the part that is safe to show now. */
  push(delta: string): string {
    if (typeof delta !== 'string' || delta === '') return '';
    const from = this.#base + this.#held.length;
    this.#held += delta;
    for (let i = 0; i < delta.length; i++) this.#step(delta.charCodeAt(i), from + i);
    return this.#release(this.#safeEnd());
  }

  /** The stream ended: returns whatever is left (an unclosed object or block is shown as written). */
  flush(): string {
    const out = this.#release(this.#base + this.#held.length);
    this.#held = '';
    this.#scanner = new JsonBraceScanner();
    this.#fence = 'none';
    this.#ticks = 0;
    this.#replacements = [];
    this.#budget = new ParseBudget(0);
    return out;
  }

  #step(code: number, pos: number): void {
    // The parse budget grows per character read, not per delta: whether a candidate is parsed
    // then depends only on the text before its end, never on how the stream was split.
    this.#budget.grow(1);
    const span = this.#scanner.step(code, pos);
    if (span !== undefined) this.#decide(span.start, span.end);
    switch (this.#fence) {
      case 'none':
        // A fence opens only in prose, not inside a `{…}` that may still be JSON.
        if (code === BACKTICK && this.#scanner.oldestOpen === -1) {
          this.#ticks++;
          if (this.#ticks === 3) {
            this.#fence = 'info';
            this.#fenceStart = pos - 2;
            this.#info = '';
            this.#ticks = 0;
          }
        } else this.#ticks = 0;
        return;
      case 'info':
        if (code === NEWLINE) {
          this.#fence = isJsonFenceInfo(this.#info) ? 'json' : 'pass';
          this.#bodyStart = pos + 1;
        } else {
          this.#info += String.fromCharCode(code);
          if (this.#info.length > MAX_FENCE_INFO) this.#fence = 'pass';
        }
        return;
      case 'json':
      case 'pass':
        if (code !== BACKTICK) {
          this.#ticks = 0;
          if (this.#fence === 'json' && pos - this.#fenceStart >= MAX_PROGRESS_CANDIDATE) this.#fence = 'pass';
          return;
        }
        this.#ticks++;
        if (this.#ticks < 3) return;
        if (this.#fence === 'json') this.#decideFence(pos + 1);
        this.#fence = 'none';
        this.#ticks = 0;
        return;
    }
  }

  /** Where the held text must stop: the start of anything that may still be a `_progress` object. */
  #safeEnd(): number {
    let end = this.#base + this.#held.length;
    if (this.#fence === 'info' || this.#fence === 'json') end = Math.min(end, this.#fenceStart);
    const open = this.#scanner.oldestOpen;
    if (open !== -1) end = Math.min(end, open);
    // A trailing backtick or two may be the start of a fence.
    if (this.#fence === 'none') end -= this.#ticks;
    return Math.max(this.#base, end);
  }

  #text(start: number, end: number): string {
    return this.#held.slice(start - this.#base, end - this.#base);
  }

  /** A closed `{…}` with a `"_progress"` key: replaced when it parses as an object carrying it. */
  #decide(start: number, end: number): void {
    if (!this.#budget.spend(end - start)) return;
    const object = parseObject(this.#text(start, end));
    if (hasProgress(object)) this.#replace({ start, end, text: withoutProgress(object) });
  }

  /** A ```` ```json ```` block closed at `end`: replaced when its body is an object carrying `_progress`. */
  #decideFence(end: number): void {
    const body = this.#text(this.#bodyStart, end - 3);
    if (!body.includes('_progress') || !this.#budget.spend(body.length)) return;
    const object = parseObject(body.trim());
    if (!hasProgress(object)) return;
    const rest = withoutProgress(object);
    this.#replace({ start: this.#fenceStart, end, text: rest === '' ? '' : `\`\`\`json\n${rest}\n\`\`\`` });
  }

  #replace(replacement: Replacement): void {
    const list = this.#replacements;
    let last = list[list.length - 1];
    // An outer object replaces the inner ones it holds; one that only overlaps a decided one is left.
    while (last !== undefined && last.start >= replacement.start) {
      list.pop();
      last = list[list.length - 1];
    }
    if (last !== undefined && last.end > replacement.start) return;
    list.push(replacement);
  }

  /** Releases the held text up to position `end`, with decided objects replaced. */
  #release(end: number): string {
    if (end <= this.#base) return '';
    let out = '';
    let at = this.#base;
    let kept = 0;
    for (const r of this.#replacements) {
      if (r.end > end) break;
      kept++;
      out += this.#piece(at, r.start);
      // Removing an inline object must not leave two spaces where it was. What comes before it
      // is read from the output (not the held text), so it is the same whatever was released
      // earlier: a space, or an object just removed after a space.
      const before = out === '' ? this.#lastOut : out[out.length - 1];
      if (r.text === '' && before === ' ') this.#dropSpaceAt = r.end;
      out += r.text;
      at = r.end;
    }
    out += this.#piece(at, end);
    this.#replacements = kept === 0 ? this.#replacements : this.#replacements.slice(kept);
    this.#held = this.#held.slice(end - this.#base);
    this.#base = end;
    if (out !== '') this.#lastOut = out[out.length - 1] ?? '';
    return out;
  }

  #piece(start: number, end: number): string {
    if (start >= end) return '';
    if (start === this.#dropSpaceAt && this.#held[start - this.#base] === ' ') {
      this.#dropSpaceAt = -1;
      return this.#text(start + 1, end);
    }
    return this.#text(start, end);
  }
}
