import { createRedactor, redactString, safeStringify, type ProgressEvent, type RedactOptions, type Redactor } from '@headway/protocol';
import { numberText, stringText } from './json-text.js';

/**
 * Turns reporter calls and events into JSON lines (without the trailing newline).
 *
 * Every line is exactly `JSON.stringify` of the redacted value, where a value JSON cannot
 * encode (a bigint, a cycle) is written the way protocol's `safeStringify` writes it. The
 * common shapes take a fast path that builds the text directly; line-encoder.test.ts
 * checks that it never differs from that reference. `undefined` stands for a value whose
 * text is no JSON object (from an untyped caller, or an unreadable value the redactor
 * replaced whole): no line. Saying so here, rather than letting the writer look at the
 * line's first character, keeps a line built piece by piece from being copied into one
 * flat string only to be looked at: it is copied once, into the chunk written.
 */
export interface LineEncoder {
  start(task: string): string | undefined;
  progress(pct: number, label: string): string | undefined;
  toolStart(name: string): string | undefined;
  toolDone(name: string, summary: string): string | undefined;
  iteration(current: number, max: number): string | undefined;
  complete(summary: string): string | undefined;
  error(error: string): string | undefined;
  event(event: ProgressEvent): string | undefined;
}

/**
 * Top-level keys of every event type. None names a secret, so with no key paths
 * configured the redactor would only scan their string values — which the fast path does.
 */
const EVENT_KEYS: ReadonlySet<string> = new Set([
  'type',
  'runId',
  'seq',
  'ts',
  'agentName',
  'task',
  'step',
  'description',
  'durationMs',
  'content',
  'toolName',
  'toolCallId',
  'args',
  'ok',
  'preview',
  'text',
  'percent',
  'message',
  'etaMs',
  'tokenCount',
  'outcome',
  'summary',
  'error',
  'reason',
  'index',
  'max',
  'limit',
  'used',
  'graceIterations',
  'byMs',
  'totalBudgetMs',
  'checkpointId',
  'iteration',
  'report',
  'sessionId',
  'limits',
  'provider',
  'model',
  'usage',
  'finishReason',
  'costUsd',
  'etaLowMs',
  'etaHighMs',
  'findings',
  'failures',
  'items',
  'guess',
  'plan',
  'kind',
  'evidence',
  'since',
  'parentRunId',
  'stopReason',
]);

/** The top-level keys the fast path knows (line-encoder.test.ts checks them against the protocol's schema). */
export const FAST_EVENT_KEYS: ReadonlySet<string> = EVENT_KEYS;

/** Top-level keys whose values repeat across a run's events: their encoded text is cached. */
const REPEATING_KEYS: ReadonlySet<string> = new Set([
  'type',
  'runId',
  'agentName',
  'toolName',
  'outcome',
  'limit',
  // Every step of a model-driven run repeats these (step.started / step.finished).
  'description',
  'provider',
  'model',
  'finishReason',
]);

/** How a top-level key is written, and whether its text values repeat across a run's events. */
interface EventKey {
  /** `{"key":`, for the first key. */
  readonly first: string;
  /** `,"key":`, after another. */
  readonly rest: string;
  readonly repeating: boolean;
}

/**
 * Every key the fast path knows, with its text made once (building it per key and event was
 * most of what encoding an event allocated): one lookup per key.
 */
const EVENT_KEY_TEXT: ReadonlyMap<string, EventKey> = new Map(
  [...EVENT_KEYS].map((key) => [key, { first: `{"${key}":`, rest: `,"${key}":`, repeating: REPEATING_KEYS.has(key) }]),
);

// eslint-disable-next-line @typescript-eslint/unbound-method -- always called with .call
const hasOwn = Object.prototype.hasOwnProperty;

/** Nesting beyond this (or a cycle) leaves the fast path. */
const MAX_DEPTH = 64;

/** How a nested key is written: `{"key":` when first, `,"key":` after another; `censored` is the value's text for a secret-named key. */
interface KeyPrefix {
  readonly first: string;
  readonly rest: string;
  readonly censored: string | undefined;
}

/** Thrown for a value the fast path does not handle: the whole event takes the reference path. */
class NotFast extends Error {}

/** `JSON.stringify`, falling back to protocol's `safeStringify` for what it cannot encode. */
function stringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return safeStringify(value);
  }
}

/**
 * Builds the encoder for one reporter. `redact: false` writes values as they are;
 * otherwise protocol's redaction (key paths, secret-named keys, secret-shaped text) is
 * applied to every value before it is written.
 */
export function createLineEncoder(redact: RedactOptions | false): LineEncoder {
  const redactValue = redact === false ? undefined : createRedactor(redact);
  const censor = redact === false ? '' : (redact.censor ?? '[REDACTED]');
  // Key paths may name any key, including ours: then every line takes the reference path.
  const fast = redact === false || (redact.paths ?? []).length === 0;

  const reference = (value: object): string | undefined => {
    const line = stringify(redactValue === undefined ? value : redactValue(value));
    // JSON.stringify's own (flat) result: looking at its first character copies nothing.
    return line?.startsWith('{') === true ? line : undefined;
  };
  const str = redactValue === undefined ? stringText : (s: string): string => stringText(redactString(s, censor));
  // Throws where the whole event must take the reference path (see createNestedEncoder).
  const nested =
    redactValue === undefined
      ? (v: unknown): string | undefined => JSON.stringify(v)
      : createNestedEncoder(redactValue, str, JSON.stringify(censor));
  const cached = new Map<string, string>();
  const strRepeating = (s: string): string => {
    let text = cached.get(s);
    if (text === undefined) {
      text = str(s);
      if (cached.size >= 256) cached.clear();
      cached.set(s, text);
    }
    return text;
  };
  /**
   * A repeating key's whole piece (`,"runId":"run-1"`; `{"type":"progress"` when first) per
   * value: one string joins the line instead of two. Per encoder, since the value's text
   * depends on its redaction; bounded like `cached`.
   */
  const pieces = new Map<EventKey, { first: Map<string, string>; rest: Map<string, string> }>();
  const repeatingPiece = (known: EventKey, value: string, first: boolean): string => {
    let byValue = pieces.get(known);
    if (byValue === undefined) {
      byValue = { first: new Map(), rest: new Map() };
      pieces.set(known, byValue);
    }
    const map = first ? byValue.first : byValue.rest;
    let piece = map.get(value);
    if (piece === undefined) {
      piece = (first ? known.first : known.rest) + strRepeating(value);
      if (map.size >= 256) map.clear();
      map.set(value, piece);
    }
    return piece;
  };

  function event(e: ProgressEvent): string | undefined {
    if (!fast) return reference(e);
    try {
      return fastEvent(e);
    } catch {
      // Unreadable or unencodable parts (a throwing getter, a bigint deep in args):
      // the reference path decides, for the event as a whole.
      return reference(e);
    }
  }

  function fastEvent(e: ProgressEvent): string | undefined {
    const record = e as unknown as Record<string, unknown> | null | undefined;
    // No event: null, a primitive, a function, an array (for…in would find no keys in a number or
    // in [] and write `{}`). The reference path writes no line for them.
    if (typeof record !== 'object' || record === null || Array.isArray(record)) return reference(e);
    let out = '';
    let first = true;
    // for…in reads each value through the object's own key cache (no keys array, no lookup by
    // name); keys it finds up the prototype chain are no own keys: Object.keys leaves them out.
    for (const key in record) {
      if (!hasOwn.call(record, key)) continue;
      const known = EVENT_KEY_TEXT.get(key);
      if (known === undefined) return reference(e);
      const v = record[key];
      let text: string | undefined;
      switch (typeof v) {
        case 'string':
          if (known.repeating) {
            out += repeatingPiece(known, v, first);
            first = false;
            continue;
          }
          text = str(v);
          break;
        case 'number':
          text = numberText(v);
          break;
        case 'boolean':
          text = v ? 'true' : 'false';
          break;
        case 'object':
          text = v === null ? 'null' : nested(v);
          break;
        case 'bigint':
          return reference(e);
        default:
          // undefined, functions and symbols: JSON leaves the key out.
          continue;
      }
      if (text === undefined) continue;
      out += (first ? known.first : known.rest) + text;
      first = false;
    }
    return first ? '{}' : `${out}}`;
  }

  if (!fast) {
    return {
      start: (task) => reference({ event: 'start', task }),
      progress: (pct, label) => reference({ event: 'progress', pct, label }),
      toolStart: (tool) => reference({ event: 'tool_start', tool }),
      toolDone: (tool, summary) => reference({ event: 'tool_done', tool, summary }),
      iteration: (current, max) => reference({ event: 'iteration', current, max }),
      complete: (summary) => reference({ event: 'complete', summary }),
      error: (error) => reference({ event: 'error', error }),
      event,
    };
  }

  // Arguments of the wrong type (from untyped callers) take the reference path, so the
  // output is still exactly what JSON.stringify would write.
  return {
    start: (task) => (typeof task === 'string' ? `{"event":"start","task":${str(task)}}` : reference({ event: 'start', task })),
    progress: (pct, label) =>
      typeof pct === 'number' && typeof label === 'string'
        ? `{"event":"progress","pct":${numberText(pct)},"label":${str(label)}}`
        : reference({ event: 'progress', pct, label }),
    // Tool names and tool summaries (`ok`, `error`) repeat through a run: their text is cached.
    toolStart: (tool) =>
      typeof tool === 'string' ? `{"event":"tool_start","tool":${strRepeating(tool)}}` : reference({ event: 'tool_start', tool }),
    toolDone: (tool, summary) =>
      typeof tool === 'string' && typeof summary === 'string'
        ? `{"event":"tool_done","tool":${strRepeating(tool)},"summary":${strRepeating(summary)}}`
        : reference({ event: 'tool_done', tool, summary }),
    iteration: (current, max) =>
      typeof current === 'number' && typeof max === 'number'
        ? `{"event":"iteration","current":${numberText(current)},"max":${numberText(max)}}`
        : reference({ event: 'iteration', current, max }),
    complete: (summary) =>
      typeof summary === 'string' ? `{"event":"complete","summary":${str(summary)}}` : reference({ event: 'complete', summary }),
    error: (error) => (typeof error === 'string' ? `{"event":"error","error":${str(error)}}` : reference({ event: 'error', error })),
    event,
  };
}

/**
 * Encodes a nested value (tool `args`, a `report`) redacted, in one pass: plain objects,
 * arrays and primitives are written directly, as `JSON.stringify(redactor(value))`
 * would. For anything else (a Map, a Date, an Error, a class instance, an own `toJSON`, a
 * bigint, a cycle, a throwing getter) it throws, and the caller encodes the whole event
 * with the redactor instead. Which keys name a secret is asked of the redactor itself,
 * once per key.
 */
function createNestedEncoder(
  redactValue: Redactor,
  str: (s: string) => string,
  censorJson: string,
): (value: unknown) => string | undefined {
  /** How each key seen so far is written; `censored` is set for secret-named ones. */
  const keys = new Map<string, KeyPrefix>();
  const keyPrefix = (key: string): KeyPrefix => {
    let prefix = keys.get(key);
    if (prefix === undefined) {
      const probe = redactValue({ [key]: 1 }) as Record<string, unknown>;
      const name = JSON.stringify(key);
      prefix = { first: `{${name}:`, rest: `,${name}:`, censored: probe[key] === 1 ? undefined : censorJson };
      if (keys.size >= 4096) keys.clear();
      keys.set(key, prefix);
    }
    return prefix;
  };

  function walk(value: unknown, depth: number): string | undefined {
    switch (typeof value) {
      case 'string':
        return str(value);
      case 'number':
        return numberText(value);
      case 'boolean':
        return value ? 'true' : 'false';
      case 'object':
        break;
      case 'bigint':
        throw new NotFast();
      default:
        return undefined;
    }
    if (value === null) return 'null';
    if (depth > MAX_DEPTH) throw new NotFast();
    if (Array.isArray(value)) {
      const items = value as unknown[];
      let out = '[';
      for (let i = 0; i < items.length; i++) {
        const text = walk(items[i], depth + 1) ?? 'null';
        out += i === 0 ? text : `,${text}`;
      }
      return `${out}]`;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw new NotFast();
    const record = value as Record<string, unknown>;
    let out = '';
    // As in fastEvent: each value read through the key cache, inherited keys left out.
    for (const key in record) {
      if (!hasOwn.call(record, key)) continue;
      if (key === '__proto__' || key === 'toJSON') throw new NotFast();
      const v = record[key];
      const prefix = keyPrefix(key);
      let text: string | undefined;
      if (prefix.censored !== undefined) {
        if (v === undefined) continue;
        text = v === null ? 'null' : prefix.censored;
      } else {
        text = walk(v, depth + 1);
        if (text === undefined) continue;
      }
      out += (out === '' ? prefix.first : prefix.rest) + text;
    }
    return out === '' ? '{}' : `${out}}`;
  }

  return (value) => walk(value, 0);
}
