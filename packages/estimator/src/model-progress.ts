import { errorMessage } from '@headway/protocol/internal';
import { ParseBudget, jsonFenceBodies, keyedSpans } from './json-braces.js';

/** Progress a model reported about its own work. */
export interface ModelProgress {
  /** 0–100 (clamped). */
  percent: number;
  message?: string;
}

/** Options of {@link extractModelProgress}. */
export interface ExtractModelProgressOptions {
  /** Told why a `_progress` that was present got rejected, for logs. Never throws into the caller. */
  onReject?: (reason: string) => void;
}

const MAX_MESSAGE_LENGTH = 200;

/**
 * The text to add to a system prompt so a model reports `_progress` at milestones.
 *
 * @example
 * ```ts
 * const system = `${basePrompt}\n\n${PROGRESS_PROMPT_INSTRUCTIONS}`;
 * ```
 */
export const PROGRESS_PROMPT_INSTRUCTIONS: string = [
  '## Progress reporting',
  '',
  'When you reach a meaningful milestone, include a `_progress` field in your JSON reply:',
  '',
  '```json',
  '{ "_progress": { "percent": 50, "message": "Halfway through the analysis" } }',
  '```',
  '',
  '- `percent` is a number from 0 to 100: your honest estimate of how much of the whole task is done.',
  '- `message` is optional: a short phrase saying what you are doing now.',
  '- Report at milestones (for example 25%: analysis done, 50%: first draft ready, 75%: refinements done), not in every reply.',
  '- Never lower a percent you reported earlier; do not report 100 until the task is complete.',
].join('\n');

type Found = { kind: 'ok'; value: ModelProgress } | { kind: 'rejected'; reason: string } | { kind: 'absent' };

function readProgressField(container: unknown): Found {
  if (typeof container !== 'object' || container === null || Array.isArray(container)) return { kind: 'absent' };
  if (!Object.prototype.hasOwnProperty.call(container, '_progress')) return { kind: 'absent' };
  const raw: unknown = (container as Record<string, unknown>)._progress;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return {
      kind: 'rejected',
      reason: `_progress: expected an object, got ${Array.isArray(raw) ? 'an array' : raw === null ? 'null' : typeof raw}`,
    };
  }
  const { percent, message } = raw as Record<string, unknown>;
  if (typeof percent !== 'number') return { kind: 'rejected', reason: `_progress.percent: expected a number, got ${typeof percent}` };
  if (!Number.isFinite(percent)) return { kind: 'rejected', reason: `_progress.percent: expected a finite number, got ${String(percent)}` };
  if (message !== undefined && typeof message !== 'string') {
    return {
      kind: 'rejected',
      reason: `_progress.message: expected a string, got ${Array.isArray(message) ? 'an array' : message === null ? 'null' : typeof message}`,
    };
  }
  const value: ModelProgress = { percent: Math.min(100, Math.max(0, percent)) };
  const trimmed = message?.trim();
  if (trimmed !== undefined && trimmed !== '') value.message = trimmed.slice(0, MAX_MESSAGE_LENGTH);
  return { kind: 'ok', value };
}

/**
 * False when `text` (trimmed) certainly does not parse to an object with a `_progress` key:
 * it does not start with `{` (then it is no object, or no JSON), or it holds neither the key
 * nor a `\u` escape that could spell it. Most model replies are prose, and a failed
 * `JSON.parse` throws, which costs microseconds per step.
 */
export function mayBeProgressObject(text: string): boolean {
  return text.charCodeAt(0) === 0x7b && (text.includes('_progress') || text.includes('\\u'));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * JSON candidates in model text: the whole text, fenced blocks, then balanced `{…}` spans
 * that hold a `"_progress"` key (see `MAX_PROGRESS_CANDIDATE`). Linear in the text.
 */
function* jsonCandidates(text: string): Generator {
  const whole = text.trim();
  if (mayBeProgressObject(whole)) yield parseJson(whole);
  if (!text.includes('_progress')) return;
  const budget = new ParseBudget(text.length);
  for (const body of jsonFenceBodies(text)) if (budget.spend(body.length)) yield parseJson(body);
  for (const { start, end } of keyedSpans(text)) if (budget.spend(end - start)) yield parseJson(text.slice(start, end));
}

/**
 * Reads a model's `_progress: { percent, message? }` from a structured reply object or
 * from JSON text (whole, in a fenced block, or embedded in prose).
 *
 * Untrusted by design: strings such as `"50"`, NaN, Infinity, arrays and other garbage
 * give `undefined` (the reason goes to `onReject`); it never throws. A percent outside
 * 0–100 is clamped.
 *
 * @example
 * ```ts
 * extractModelProgress('Done.\n```json\n{"_progress":{"percent":40,"message":"Drafting"}}\n```');
 * // { percent: 40, message: 'Drafting' }
 * ```
 */
export function extractModelProgress(output: unknown, options: ExtractModelProgressOptions = {}): ModelProgress | undefined {
  const reject = (reason: string): void => {
    try {
      options.onReject?.(reason);
    } catch {
      // A logging callback must not break the caller.
    }
  };
  try {
    if (typeof output === 'string') {
      let firstRejection: string | undefined;
      for (const candidate of jsonCandidates(output)) {
        const found = readProgressField(candidate);
        if (found.kind === 'ok') return found.value;
        if (found.kind === 'rejected') firstRejection ??= found.reason;
      }
      if (firstRejection !== undefined) reject(firstRejection);
      return undefined;
    }
    const found = readProgressField(output);
    if (found.kind === 'ok') return found.value;
    if (found.kind === 'rejected') reject(found.reason);
    return undefined;
  } catch (cause) {
    // Hostile objects (throwing getters, revoked proxies) are rejected, not thrown.
    reject(`_progress could not be read: ${errorMessage(cause, 500)}`);
    return undefined;
  }
}
