import { createRedactor, redactString, safeStringify, type ProgressEvent, type RedactOptions } from '@headway/protocol';
import { mayContainSecret } from './may-contain-secret.js';

/**
 * Turns reporter calls and events into JSON lines (without the trailing newline).
 *
 * Every line is exactly `JSON.stringify` of the redacted value, where a value JSON cannot
 * encode (a bigint, a cycle) is written the way protocol's `safeStringify` writes it. The
 * common shapes take a fast path that builds the text directly; line-encoder.test.ts
 * checks that it never differs from that reference.
 */
export interface LineEncoder {
  start(task: string): string;
  progress(pct: number, label: string): string;
  toolStart(name: string): string;
  toolDone(name: string, summary: string): string;
  iteration(current: number, max: number): string;
  complete(summary: string): string;
  error(error: string): string;
  event(event: ProgressEvent): string;
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
  'bonusSteps',
  'byMs',
  'totalBudgetMs',
  'checkpointId',
  'iteration',
  'report',
]);

/** `JSON.stringify`, falling back to protocol's `safeStringify` for what it cannot encode. */
function stringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return safeStringify(value);
  }
}

function number(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
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

  const reference = (value: object): string => stringify(redactValue === undefined ? value : redactValue(value)) ?? '';
  const str =
    redactValue === undefined
      ? (s: string): string => JSON.stringify(s)
      : (s: string): string => JSON.stringify(mayContainSecret(s) ? redactString(s, censor) : s);
  const nested =
    redactValue === undefined ? (v: unknown): string | undefined => stringify(v) : (v: unknown): string | undefined => stringify(redactValue(v));

  function event(e: ProgressEvent): string {
    if (!fast) return reference(e);
    const record = e as unknown as Record<string, unknown>;
    let out = '{';
    for (const key of Object.keys(record)) {
      if (!EVENT_KEYS.has(key)) return reference(e);
      const v = record[key];
      let text: string | undefined;
      switch (typeof v) {
        case 'string':
          text = str(v);
          break;
        case 'number':
          text = number(v);
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
      out += out.length === 1 ? `"${key}":${text}` : `,"${key}":${text}`;
    }
    return `${out}}`;
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
        ? `{"event":"progress","pct":${number(pct)},"label":${str(label)}}`
        : reference({ event: 'progress', pct, label }),
    toolStart: (tool) => (typeof tool === 'string' ? `{"event":"tool_start","tool":${str(tool)}}` : reference({ event: 'tool_start', tool })),
    toolDone: (tool, summary) =>
      typeof tool === 'string' && typeof summary === 'string'
        ? `{"event":"tool_done","tool":${str(tool)},"summary":${str(summary)}}`
        : reference({ event: 'tool_done', tool, summary }),
    iteration: (current, max) =>
      typeof current === 'number' && typeof max === 'number'
        ? `{"event":"iteration","current":${number(current)},"max":${number(max)}}`
        : reference({ event: 'iteration', current, max }),
    complete: (summary) =>
      typeof summary === 'string' ? `{"event":"complete","summary":${str(summary)}}` : reference({ event: 'complete', summary }),
    error: (error) => (typeof error === 'string' ? `{"event":"error","error":${str(error)}}` : reference({ event: 'error', error })),
    event,
  };
}
