import { describeIssues, toValidationIssues } from '@headway/protocol';
import { cutText } from '@headway/protocol/internal';
import { z } from 'zod';
import type { SessionRunRecord, SessionSummary } from './session-store.js';
import { SessionError } from './session-error.js';

// JSON.stringify answers undefined for undefined, functions and symbols; its lib type hides that.
const stringify = JSON.stringify as (value: unknown) => string | undefined;

const idSchema = z.string().min(1).max(512);
const runSchema = z.object({
  messages: z.array(z.unknown()).readonly(),
  spentUsd: z.number().nonnegative(),
  calls: z.number().int().nonnegative(),
});

/** Longest session id an error message repeats; a longer one is cut and its length given. */
const ID_IN_MESSAGE_CHARS = 64;

/** A session id as error messages show it: whole up to 64 characters, cut (with its length) beyond. */
function label(id: string): string {
  return id.length <= ID_IN_MESSAGE_CHARS ? id : `${cutText(id, ID_IN_MESSAGE_CHARS)} (${String(id.length)} characters)`;
}

function invalid(sessionId: string, where: string, error: z.ZodError): SessionError {
  const issues = toValidationIssues(error).map((i) => ({ path: i.path === '' ? where : `${where}.${i.path}`, message: i.message }));
  return new SessionError('SESSION_INVALID', `session ${label(sessionId)}: invalid ${where}: ${describeIssues(issues)}`, { issues });
}

/** Checks a session id. */
export function validateSessionId(id: string): void {
  const parsed = idSchema.safeParse(id);
  if (!parsed.success) throw invalid(typeof id === 'string' ? id : '?', 'id', parsed.error);
}

/** Checks a run record and returns its messages as JSON text. */
export function encodeRun(id: string, run: SessionRunRecord): string[] {
  const parsed = runSchema.safeParse(run);
  if (!parsed.success) throw invalid(id, 'run', parsed.error);
  return run.messages.map((m, i) => {
    let text: string | undefined;
    try {
      text = stringify(m);
    } catch (error) {
      throw new SessionError('SESSION_INVALID', `session ${label(id)}: run.messages[${i}] is not plain JSON`, {
        issues: [{ path: `run.messages[${i}]`, message: 'not plain JSON' }],
        cause: error,
      });
    }
    if (text === undefined) {
      throw new SessionError('SESSION_INVALID', `session ${label(id)}: run.messages[${i}] is not plain JSON`, {
        issues: [{ path: `run.messages[${i}]`, message: 'not plain JSON' }],
      });
    }
    return text;
  });
}

/** Parses a stored message. */
export function decodeMessage(id: string, text: unknown, index: number): unknown {
  try {
    // Caught below and turned into SESSION_CORRUPT (this error is its cause).
    if (typeof text !== 'string') throw new TypeError('not text');
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SessionError('SESSION_CORRUPT', `session ${label(id)}: messages[${index}]: invalid JSON`, {
      issues: [{ path: `messages[${index}]`, message: 'invalid JSON' }],
      cause: error,
    });
  }
}

/**
 * Reads a session's messages back from its rows (`seq`, `body`), in order; a missing or extra
 * row is `SESSION_CORRUPT`.
 */
export function decodeMessageRows(id: string, rows: readonly { seq: unknown; body: unknown }[], expected: number): unknown[] {
  if (rows.length !== expected || rows.some((r, i) => r.seq !== i)) {
    throw new SessionError(
      'SESSION_CORRUPT',
      `session ${label(id)}: messages: expected ${expected} row(s) in sequence, found ${rows.length}`,
      {
        issues: [{ path: 'messages', message: 'rows missing' }],
      },
    );
  }
  return rows.map((r, i) => decodeMessage(id, r.body, i));
}

/** The error for an id that is not stored. */
export function sessionNotFound(id: string): SessionError {
  return new SessionError('SESSION_NOT_FOUND', `session ${label(id)} not found`);
}

/** The error for an id that is stored already. */
export function sessionExists(id: string): SessionError {
  return new SessionError('SESSION_EXISTS', `session ${label(id)} exists already`);
}

const summaryRowSchema = z.object({
  id: z.string().min(1),
  created_at: z.number().nonnegative(),
  updated_at: z.number().nonnegative(),
  message_count: z.number().int().nonnegative(),
  spent_usd: z.number().nonnegative(),
  calls: z.number().int().nonnegative(),
  runs: z.number().int().nonnegative(),
});

/** The columns of a `headway_sessions` row that {@link decodeSummaryRow} reads, for a `SELECT`. */
export const SESSION_SUMMARY_COLUMNS = 'id, created_at, updated_at, message_count, spent_usd, calls, runs';

/** Reads a `headway_sessions` row (snake_case columns) as a summary; a corrupt row is `SESSION_CORRUPT`. */
export function decodeSummaryRow(row: unknown): SessionSummary {
  const parsed = summaryRowSchema.safeParse(row);
  if (!parsed.success) {
    const raw = (row ?? {}) as { id?: unknown };
    const id = typeof raw.id === 'string' ? raw.id : '?';
    const issues = toValidationIssues(parsed.error);
    throw new SessionError('SESSION_CORRUPT', `session ${label(id)}: unreadable: ${describeIssues(issues)}`, { issues });
  }
  const r = parsed.data;
  return {
    id: r.id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    messageCount: r.message_count,
    spentUsd: r.spent_usd,
    calls: r.calls,
    runs: r.runs,
  };
}
