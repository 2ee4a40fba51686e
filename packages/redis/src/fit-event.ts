import { isTerminalEvent, parseProgressEvent, type ProgressEvent } from '@headway/protocol';
import { cutText, formatCount } from '@headway/protocol/internal';

/** What {@link fitEventJson} made of an event's JSON. */
export type FittedEvent =
  | { readonly kind: 'whole'; readonly json: string }
  /** Long strings were cut, each ending in a visible marker; the event still validates. */
  | { readonly kind: 'truncated'; readonly json: string; readonly from: number }
  /** A non-terminal event that cannot be made to fit without losing what makes it valid. */
  | { readonly kind: 'oversized'; readonly from: number };

/** Rounds of cutting before the fallback: each round at least halves what is over (JSON escapes can make a cut fall short). */
const MAX_ROUNDS = 8;
/** Values kept as they are by the fallback: the envelope and every small field. */
const SMALL_FIELD_CHARS = 1024;
const ENVELOPE = new Set(['type', 'runId', 'seq', 'ts']);

/** The marker that ends a cut string, e.g. `… [truncated: 2,000,000 characters]`. */
function marker(length: number): string {
  return ` [truncated: ${formatCount(length)} characters]`;
}

interface Leaf {
  readonly holder: Record<string, unknown> | unknown[];
  readonly key: string | number;
  readonly length: number;
}

/** Every string in `root` (found without recursion: the value may be nested deep), longest first. */
function stringLeaves(root: unknown): Leaf[] {
  const leaves: Leaf[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    const holder = value as Record<string, unknown> | unknown[];
    for (const [key, child] of Object.entries(holder)) {
      const k = Array.isArray(holder) ? Number(key) : key;
      if (typeof child === 'string') leaves.push({ holder, key: k, length: child.length });
      else if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return leaves.sort((a, b) => b.length - a.length);
}

function setLeaf(leaf: Leaf, value: string): void {
  (leaf.holder as Record<string | number, unknown>)[leaf.key] = value;
}

function fits(value: unknown, maxLength: number): string | undefined {
  const json = JSON.stringify(value);
  return json.length <= maxLength ? json : undefined;
}

/**
 * Cuts the longest strings of `value` (read from `json`) until its JSON is at most `maxLength`
 * characters; each cut string ends in `… [truncated: N characters]`.
 */
function cutStrings(value: unknown, maxLength: number): string | undefined {
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const json = JSON.stringify(value);
    if (json.length <= maxLength) return json;
    let over = json.length - maxLength;
    // Longest first: one huge summary is cut, the small fields around it stay whole.
    for (const leaf of stringLeaves(value)) {
      if (over <= 0) break;
      const text = (leaf.holder as Record<string | number, string>)[leaf.key] ?? '';
      const tail = marker(text.length);
      // A string no longer than its marker would only grow.
      if (text.length <= tail.length + 1) continue;
      // The room `over` asks for, and twice that from the second round on (escapes take more than a character).
      const keep = Math.max(0, text.length - over * (round + 1) - tail.length - 1);
      if (keep >= text.length) continue;
      setLeaf(leaf, `${cutText(text, keep + 1)}${tail}`);
      over -= text.length - keep - tail.length - 1;
    }
  }
  const json = JSON.stringify(value);
  return json.length <= maxLength ? json : undefined;
}

/** The envelope, the type and every small field; a large string becomes its marker, a large value is left out. */
function skeleton(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (ENVELOPE.has(key)) out[key] = field;
    else if (typeof field === 'string') out[key] = field.length <= SMALL_FIELD_CHARS ? field : `…${marker(field.length)}`;
    else if (((JSON.stringify(field) as string | undefined)?.length ?? 0) <= SMALL_FIELD_CHARS) out[key] = field;
  }
  return out;
}

function isValid(json: string): boolean {
  try {
    parseProgressEvent(JSON.parse(json));
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes an event's JSON fit `maxLength` characters (the replay log's `maxEventBytes`), so a
 * reader never skips what a writer wrote: the longest strings (a `run.finished` summary, a tool
 * preview) are cut with a visible marker; when that is not enough, a terminal event keeps only
 * its envelope and small fields (a run's end is never lost), and any other event is reported
 * `oversized`. Linear in the JSON's length.
 */
export function fitEventJson(event: ProgressEvent, json: string, maxLength: number): FittedEvent {
  if (json.length <= maxLength) return { kind: 'whole', json };
  const from = json.length;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    value = undefined;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const cut = cutStrings(value, maxLength);
    if (cut !== undefined && isValid(cut)) return { kind: 'truncated', json: cut, from };
    if (isTerminalEvent(event)) {
      const small = fits(skeleton(JSON.parse(json) as Record<string, unknown>), maxLength);
      if (small !== undefined && isValid(small)) return { kind: 'truncated', json: small, from };
    }
  }
  if (isTerminalEvent(event)) {
    // Neither cut nor skeleton was a valid event (a hostile body): the run still ends, as the error it is.
    const error = `the run's last event (${event.type}, ${formatCount(from)} characters of JSON) was too large to store and not valid once cut`;
    const ended = { type: 'run.error', runId: event.runId, seq: event.seq, ts: event.ts, error };
    return { kind: 'truncated', json: JSON.stringify(ended), from };
  }
  return { kind: 'oversized', from };
}

/**
 * The JSON of an event moved to `seq` (a resumed run's event, written past the abandoned
 * attempt's marker), fitted to `maxLength` as {@link fitEventJson} does. `json` is what was
 * first fitted for the event (so a cut event stays cut, and nothing is serialised twice from
 * the caller's object). Linear in the JSON's length.
 */
export function fitEventJsonAtSeq(event: ProgressEvent, json: string, seq: number, maxLength: number): FittedEvent {
  let base: ProgressEvent = event;
  try {
    const value: unknown = JSON.parse(json);
    parseProgressEvent(value);
    base = value as ProgressEvent;
  } catch {
    // Not an event's JSON as this package writes it: the event itself is moved instead.
  }
  const moved = { ...base, seq };
  return fitEventJson(moved, JSON.stringify(moved), maxLength);
}
