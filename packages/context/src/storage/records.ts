import { describeIssues, toValidationIssues, type OnInternalError } from '@headway/protocol';
import { errorMessage } from '@headway/protocol/internal';
import { z } from 'zod';
import { ContextError } from '../context-error.js';
import type { ContextErrorContext } from '../internal-error-context.js';

/** One recorded run of a pattern: what the estimator's history is made of. */
export interface PatternRun {
  iterations: number;
  durationMs: number;
}

/** A proven way to do a kind of task: the tools in order and a hint for the prompt. */
export interface PlaybookPattern {
  id: string;
  /** The kind of task (see `classifyTask`). */
  taskType: string;
  /** Tool names in call order, consecutive repeats folded. */
  tools: string[];
  /** One line the model gets when the pattern is relevant. */
  promptHint: string;
  /** Successful runs that followed it. */
  successes: number;
  /** The most recent successful runs (iterations, duration). */
  runs: PatternRun[];
  /** Content words of the tasks it came from, for relevance. */
  keywords: string[];
  /** Epoch ms of the last success. */
  updatedAt: number;
}

/** Something learned, to be remembered in later runs. */
export interface Learning {
  id: string;
  text: string;
  /** Epoch ms. */
  createdAt: number;
}

const MAX_TEXT = 4000;
const name = z.string().min(1).max(128);

/** zod schema of a stored {@link PlaybookPattern}. */
export const playbookPatternSchema: z.ZodType<PlaybookPattern> = z.strictObject({
  id: z.string().min(1).max(256),
  taskType: name,
  tools: z.array(name).min(1).max(64),
  promptHint: z.string().max(MAX_TEXT),
  successes: z.int().min(1),
  runs: z.array(z.strictObject({ iterations: z.int().min(1), durationMs: z.number().nonnegative().max(Number.MAX_SAFE_INTEGER) })).max(500),
  keywords: z.array(z.string().max(64)).max(64),
  updatedAt: z.number().nonnegative().max(Number.MAX_SAFE_INTEGER),
});

/** zod schema of a stored {@link Learning}. */
export const learningSchema: z.ZodType<Learning> = z.strictObject({
  id: z.string().min(1).max(256),
  text: z.string().min(1).max(MAX_TEXT),
  createdAt: z.number().nonnegative().max(Number.MAX_SAFE_INTEGER),
});

/** Longest stored record read (a bigger one is corrupt, not parsed). */
const MAX_RECORD_CHARS = 256 * 1024;

/**
 * Parses one stored record: a JSON string (as SQLite keeps it) or an object (as memory does).
 *
 * @throws {ContextError} `CONTEXT_CORRUPT_STORE` saying what is wrong and where.
 */
export function parseStoredRecord<T>(kind: 'playbook' | 'learnings', schema: z.ZodType<T>, value: unknown, where: string): T {
  let data: unknown = value;
  if (typeof value === 'string') {
    if (value.length > MAX_RECORD_CHARS) throw corrupt(kind, where, `${value.length} characters (the limit is ${MAX_RECORD_CHARS})`);
    try {
      data = JSON.parse(value);
    } catch (cause) {
      throw corrupt(kind, where, `not JSON (${errorMessage(cause, 120)})`, cause);
    }
  }
  let result: ReturnType<typeof schema.safeParse>;
  try {
    result = schema.safeParse(data);
  } catch (cause) {
    throw corrupt(kind, where, `could not be read (${errorMessage(cause, 120)})`, cause);
  }
  if (result.success) return result.data;
  const issues = toValidationIssues(result.error);
  throw new ContextError('CONTEXT_CORRUPT_STORE', `${kind} store: ${where}: ${describeIssues(issues)}`, { issues });
}

/**
 * Reads a store's records once: a store that cannot be read is empty, and a record that does
 * not parse is left out. Either is told once to `onInternalError` as a `CONTEXT_CORRUPT_STORE`
 * error (the first bad record's error as its cause), at `context.<kind>.store`; what the
 * callback throws is ignored.
 *
 * @example
 * ```ts
 * const learnings = await loadStoredRecords('learnings', learningSchema, () => store.loadLearnings(), 'loadLearnings', onInternalError);
 * ```
 */
export async function loadStoredRecords<T>(
  kind: 'playbook' | 'learnings',
  schema: z.ZodType<T>,
  load: () => unknown,
  loadName: string,
  onInternalError: OnInternalError<ContextErrorContext> | undefined,
): Promise<T[]> {
  const report = (error: ContextError): void => {
    try {
      onInternalError?.(error, { where: `context.${kind}.store` });
    } catch {
      // The callback may not break the store's reader either.
    }
  };
  let rows: readonly unknown[];
  try {
    const loaded = await load();
    if (!Array.isArray(loaded)) throw new TypeError(`${loadName}() did not return an array`);
    rows = loaded;
  } catch (cause) {
    report(new ContextError('CONTEXT_CORRUPT_STORE', `${kind} store: could not be read; starting empty`, { cause }));
    return [];
  }
  const out: T[] = [];
  let bad = 0;
  let first: unknown;
  rows.forEach((row, i) => {
    try {
      out.push(parseStoredRecord(kind, schema, row, `record ${i}`));
    } catch (error) {
      bad += 1;
      first ??= error;
    }
  });
  if (bad > 0) {
    const message = `${kind} store: ${bad} of ${rows.length} record(s) do not parse and are left out`;
    report(new ContextError('CONTEXT_CORRUPT_STORE', message, { cause: first }));
  }
  return out;
}

function corrupt(kind: string, where: string, message: string, cause?: unknown): ContextError {
  return new ContextError('CONTEXT_CORRUPT_STORE', `${kind} store: ${where}: ${message}`, {
    issues: [{ path: where, message }],
    ...(cause === undefined ? {} : { cause }),
  });
}
