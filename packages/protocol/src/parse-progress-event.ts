import { progressEventSchema, type ProgressEvent } from './events.js';
import { describeIssues, formatPath, MAX_VALIDATION_ISSUES, toValidationIssues } from './format-issues.js';
import type { ValidationIssue } from './headway-error.js';
import { ProtocolError } from './protocol-error.js';

/**
 * Longest JSON text {@link parseProgressEventJson} reads by default: 4 MiB characters. Longer
 * text is rejected before it is parsed (`PROTOCOL_INPUT_TOO_LARGE`).
 */
export const DEFAULT_MAX_EVENT_JSON_LENGTH: number = 4 * 1024 * 1024;

/** Options of {@link parseProgressEventJson}. */
export interface ParseProgressEventJsonOptions {
  /** Longest text read, in UTF-16 code units (default {@link DEFAULT_MAX_EVENT_JSON_LENGTH}). */
  maxLength?: number;
}

/** The string arrays of each event type: the only fields where one input can hold many problems. */
const STRING_ARRAYS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  'report.generated': [
    ['report', 'completedWork'],
    ['report', 'keyFindings'],
    ['report', 'attemptedInconclusive'],
    ['report', 'remaining'],
    ['report', 'suggestedNextSteps'],
  ],
  'tool.flagged': [['findings']],
};

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/**
 * Counts the non-strings in the event's string arrays, keeping the first issues. Why: zod
 * builds one issue object per bad element, which for a million-element array takes seconds;
 * past {@link MAX_VALIDATION_ISSUES} bad elements the event is rejected from this count alone.
 */
function stringArrayIssues(input: object): { issues: ValidationIssue[]; total: number } {
  const issues: ValidationIssue[] = [];
  let total = 0;
  const type = (input as { type?: unknown }).type;
  const paths = typeof type === 'string' && Object.hasOwn(STRING_ARRAYS, type) ? STRING_ARRAYS[type] : undefined;
  for (const path of paths ?? []) {
    let value: unknown = input;
    for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    if (!Array.isArray(value)) continue;
    const items = value as unknown[];
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (typeof item === 'string') continue;
      total += 1;
      if (issues.length < MAX_VALIDATION_ISSUES) {
        issues.push({ path: formatPath([...path, i]), message: `invalid input: expected string, received ${kindOf(item)}` });
      }
    }
  }
  return { issues, total };
}

function typeLabel(input: unknown): string {
  try {
    const type = typeof input === 'object' && input !== null ? (input as { type?: unknown }).type : undefined;
    if (typeof type !== 'string') return '';
    return ` (type ${JSON.stringify(type.length > 60 ? `${type.slice(0, 60)}…` : type)})`;
  } catch {
    return '';
  }
}

/**
 * Validates untrusted input (an event read back from JSON lines, SSE, a database) and
 * returns it typed.
 *
 * Bounded: the error names at most the first 20 problems and counts the rest (`and K more`);
 * `issues` holds at most the first 100.
 *
 * @throws {ProtocolError} `PROTOCOL_INVALID_EVENT`, whose message names the offending
 * paths; nothing else is ever thrown, whatever the input.
 * @example
 * ```ts
 * const event = parseProgressEvent(JSON.parse(line));
 * if (event.type === 'progress') bar.update(event.percent);
 * ```
 */
export function parseProgressEvent(input: unknown): ProgressEvent {
  let result;
  let many: { issues: ValidationIssue[]; total: number } | undefined;
  try {
    if (typeof input === 'object' && input !== null) {
      many = stringArrayIssues(input);
      if (many.total <= MAX_VALIDATION_ISSUES) many = undefined;
    }
    if (many === undefined) result = progressEventSchema.safeParse(input);
  } catch (cause) {
    // Hostile inputs (throwing getters, revoked proxies) must still end in a ProtocolError.
    throw new ProtocolError('PROTOCOL_INVALID_EVENT', 'Invalid progress event: input could not be read', { cause });
  }
  if (result?.success === true) return result.data;
  const issues = many?.issues ?? (result === undefined ? [] : toValidationIssues(result.error));
  const total = many?.total ?? result?.error.issues.length ?? issues.length;
  throw new ProtocolError('PROTOCOL_INVALID_EVENT', `Invalid progress event${typeLabel(input)}: ${describeIssues(issues, { total })}`, {
    issues,
  });
}

/**
 * Parses one line of JSON text into a validated event.
 *
 * Text longer than `maxLength` (default 4 MiB characters, {@link DEFAULT_MAX_EVENT_JSON_LENGTH})
 * is rejected before it is parsed.
 *
 * @throws {ProtocolError} `PROTOCOL_INPUT_TOO_LARGE` for text over the cap (the message states
 * it); `PROTOCOL_INVALID_EVENT` for text that is not JSON or not an event.
 */
export function parseProgressEventJson(text: string, options: ParseProgressEventJsonOptions = {}): ProgressEvent {
  const maxLength = options.maxLength ?? DEFAULT_MAX_EVENT_JSON_LENGTH;
  if (typeof text !== 'string') {
    throw new ProtocolError('PROTOCOL_INVALID_EVENT', `Invalid progress event: expected JSON text, got ${kindOf(text)}`, {
      issues: [{ path: '', message: 'not a string' }],
    });
  }
  if (text.length > maxLength) {
    throw new ProtocolError(
      'PROTOCOL_INPUT_TOO_LARGE',
      `Progress event JSON is ${String(text.length)} characters, over the limit of ${String(maxLength)} (maxLength); not parsed`,
      { issues: [{ path: '', message: `longer than ${String(maxLength)} characters` }] },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message.slice(0, 200) : 'unreadable';
    throw new ProtocolError('PROTOCOL_INVALID_EVENT', `Invalid progress event: not JSON (${reason})`, {
      issues: [{ path: '', message: 'not JSON' }],
      cause,
    });
  }
  return parseProgressEvent(value);
}
