// The row side of a SQL checkpoint store, shared by every dialect: the one column list of
// `headway_checkpoints`, the codecs of its rows and of the child tables' rows, and the checks
// of a write against what is stored. Each store keeps only its SQL and its transactions.
import { z } from 'zod';
import { CheckpointError } from './checkpoint-error.js';
import {
  CHECKPOINT_STATUSES,
  type CheckpointInit,
  type CheckpointStatus,
  type CheckpointSummary,
  type CheckpointToolCall,
  type CheckpointUpdate,
} from './checkpoint.js';
import type { CheckpointListFilter } from './checkpoint-store.js';
import { checkRow, conflict, decodeJson, encodeJson, validateUpdate } from './checkpoint-codec.js';
import type { StoreColumn } from '../store/store-columns.js';

/**
 * The columns of `headway_checkpoints` after its integer key `pk`, in order; a dialect renders
 * them with `renderColumns` and adds its own (a lease, say) after them.
 */
export const CHECKPOINT_COLUMNS: readonly StoreColumn[] = [
  { name: 'id', type: 'text', unique: true },
  { name: 'run_id', type: 'text' },
  { name: 'session_id', type: 'text' },
  { name: 'task_id', type: 'text' },
  { name: 'input', type: 'text' },
  { name: 'status', type: 'text' },
  { name: 'iteration', type: 'integer' },
  { name: 'state', type: 'text' },
  { name: 'message_count', type: 'integer' },
  { name: 'log_count', type: 'integer' },
  { name: 'last_seq', type: 'integer' },
  { name: 'error', type: 'text', nullable: true },
  { name: 'created_at', type: 'time' },
  { name: 'updated_at', type: 'time' },
];

/** The columns of a `headway_checkpoints` row that {@link decodeSummaryRow} reads, for a `SELECT`. */
export const CHECKPOINT_SUMMARY_COLUMNS = 'id, run_id, session_id, task_id, status, iteration, created_at, updated_at, error';

/** What {@link decodeSummaryRow} and {@link decodeCountsRow} read, for loading a whole checkpoint's row. */
export const CHECKPOINT_FULL_COLUMNS: string = [CHECKPOINT_SUMMARY_COLUMNS, 'input, state, message_count, log_count, last_seq'].join(', ');

const summaryRowSchema = z.object({
  id: z.string().min(1),
  run_id: z.string().min(1),
  session_id: z.string().min(1),
  task_id: z.string().min(1),
  status: z.enum(CHECKPOINT_STATUSES as [CheckpointStatus, ...CheckpointStatus[]]),
  iteration: z.number().int().nonnegative(),
  created_at: z.number().nonnegative(),
  updated_at: z.number().nonnegative(),
  error: z.string().nullable(),
});

/** The counters and the stored input of a `headway_checkpoints` row. */
export interface CountsRow {
  message_count: number;
  log_count: number;
  last_seq: number;
  input: string;
}

const countsRowSchema: z.ZodType<CountsRow> = z.object({
  message_count: z.number().int().nonnegative(),
  log_count: z.number().int().nonnegative(),
  last_seq: z.number().int().nonnegative(),
  input: z.string(),
});

/** Reads a `headway_checkpoints` row (snake_case columns) as a summary; a corrupt row is `CHECKPOINT_CORRUPT`. */
export function decodeSummaryRow(row: unknown): CheckpointSummary {
  const id = typeof (row as { id?: unknown } | null)?.id === 'string' ? (row as { id: string }).id : '?';
  const r = checkRow(summaryRowSchema, row, id);
  const summary: CheckpointSummary = {
    id: r.id,
    runId: r.run_id,
    sessionId: r.session_id,
    taskId: r.task_id,
    status: r.status,
    iteration: r.iteration,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
  if (r.error !== null) summary.error = r.error;
  return summary;
}

/** Reads the counters and the stored input of a `headway_checkpoints` row; `where` names it in errors. */
export function decodeCountsRow(row: unknown, where: string): CountsRow {
  return checkRow(countsRowSchema, row, where);
}

/**
 * Reads a checkpoint's `messages` or `log` back from its rows (`seq`, `body`), in order: a
 * missing, extra or out-of-place row is `CHECKPOINT_CORRUPT` naming it.
 */
export function decodeSequenceRows(rows: readonly unknown[], expected: number, where: 'messages' | 'log', id: string): unknown[] {
  if (rows.length !== expected) {
    throw new CheckpointError('CHECKPOINT_CORRUPT', `checkpoint ${id}: ${where}: expected ${expected} row(s), found ${rows.length}`, {
      issues: [{ path: where, message: `expected ${expected} row(s), found ${rows.length}` }],
    });
  }
  return (rows as readonly { seq: unknown; body: unknown }[]).map((r, i) => {
    if (r.seq !== i) {
      throw new CheckpointError('CHECKPOINT_CORRUPT', `checkpoint ${id}: ${where}[${i}]: missing (found seq ${String(r.seq)})`, {
        issues: [{ path: `${where}[${i}]`, message: 'missing' }],
      });
    }
    return decodeJson(r.body, `${where}[${i}]`, id);
  });
}

/** A checkpoint's first write as JSON text, validated: what a store inserts. */
export interface EncodedInit {
  state: string;
  messages: string[];
  log: string[];
}

/** Encodes the contents of `init` as JSON text; call it after `validateCheckpointInit` and a store's own checks. */
export function encodeInit(init: CheckpointInit): EncodedInit {
  return {
    state: encodeJson(init.state, 'init.state', init.id),
    messages: (init.messages ?? []).map((m, i) => encodeJson(m, `init.messages[${i}]`, init.id)),
    log: (init.log ?? []).map((e, i) => encodeJson(e, `init.log[${i}]`, init.id)),
  };
}

/** The columns a new checkpoint's row is inserted with, in the order of {@link insertValues}. */
export const CHECKPOINT_INSERT_COLUMNS =
  'id, run_id, session_id, task_id, input, status, iteration, state, message_count, log_count, last_seq, created_at, updated_at';

/**
 * The values of a new checkpoint's row, in the order of {@link CHECKPOINT_INSERT_COLUMNS}:
 * `input` as the store keeps it (the text, or its JSON), the contents {@link encodeInit} gave,
 * status `running`, created and updated at `now`.
 */
export function insertValues(init: CheckpointInit, input: string, encoded: EncodedInit, now: number): (string | number)[] {
  return [
    init.id,
    init.runId,
    init.sessionId,
    init.taskId,
    input,
    'running',
    init.state.iteration,
    encoded.state,
    encoded.messages.length,
    encoded.log.length,
    init.lastSeq ?? 0,
    now,
    now,
  ];
}

/** One write as JSON text, validated: what a store appends and upserts. `state` is `null` when unchanged. */
export interface EncodedUpdate {
  state: string | null;
  messages: string[];
  log: string[];
  calls: { c: CheckpointToolCall; body: string }[];
}

/** Validates `update` and encodes its contents as JSON text. */
export function encodeUpdate(id: string, update: CheckpointUpdate): EncodedUpdate {
  validateUpdate(id, update);
  return {
    state: update.state === undefined ? null : encodeJson(update.state, 'update.state', id),
    messages: (update.appendMessages ?? []).map((m, i) => encodeJson(m, `update.appendMessages[${i}]`, id)),
    log: (update.appendLog ?? []).map((e, i) => encodeJson(e, `update.appendLog[${i}]`, id)),
    calls: (update.toolCalls ?? []).map((c, i) => ({ c, body: encodeJson(c, `update.toolCalls[${i}]`, id) })),
  };
}

/** Refuses a write whose `expect` does not match the counts stored (`CHECKPOINT_CONFLICT`). */
export function checkExpected(id: string, update: CheckpointUpdate, stored: { message_count: number; log_count: number }): void {
  if (update.expect === undefined) return;
  const actual = { messages: stored.message_count, log: stored.log_count };
  if (actual.messages !== update.expect.messages || actual.log !== update.expect.log) throw conflict(id, update.expect, actual);
}

/** The statuses a list filter asks for, or `undefined` for all. */
export function filterStatuses(filter: CheckpointListFilter): CheckpointStatus[] | undefined {
  return filter.status === undefined ? undefined : typeof filter.status === 'string' ? [filter.status] : [...filter.status];
}
