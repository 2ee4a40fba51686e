import { errorMessage } from '@headway/protocol/internal';
import { describeIssues, toValidationIssues } from '@headway/protocol';
import { z } from 'zod';
import {
  checkpointInitSchema,
  checkpointStateSchema,
  checkpointToolCallSchema,
  type CheckpointInit,
  type CheckpointState,
  type CheckpointUpdate,
  type CheckpointToolCall,
} from './checkpoint.js';
import { CheckpointError } from './checkpoint-error.js';

// JSON.stringify answers undefined for undefined, functions and symbols; its lib type hides that.
const stringify = JSON.stringify as (value: unknown) => string | undefined;

// Shared by every store, so what is accepted, what is stored and what is read back are the
// same whatever the backend: contents are kept as JSON text and validated on the way out.

/** JSON text of `value`; throws `CHECKPOINT_INVALID` naming `where` if it is not plain JSON. */
export function encodeJson(value: unknown, where: string, checkpointId: string): string {
  let text: string | undefined;
  try {
    text = stringify(value);
  } catch (error) {
    throw new CheckpointError('CHECKPOINT_INVALID', `checkpoint ${checkpointId}: ${where} is not plain JSON (${errorMessage(error)})`, {
      issues: [{ path: where, message: 'not plain JSON' }],
      cause: error,
    });
  }
  if (text === undefined) {
    throw new CheckpointError('CHECKPOINT_INVALID', `checkpoint ${checkpointId}: ${where} is not plain JSON (got ${typeof value})`, {
      issues: [{ path: where, message: 'not plain JSON' }],
    });
  }
  return text;
}

/** Parses JSON text read back; throws `CHECKPOINT_CORRUPT` naming `where`. */
export function decodeJson(text: unknown, where: string, checkpointId: string): unknown {
  if (typeof text !== 'string') {
    throw new CheckpointError('CHECKPOINT_CORRUPT', `checkpoint ${checkpointId}: ${where}: expected JSON text, got ${typeof text}`, {
      issues: [{ path: where, message: 'expected JSON text' }],
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CheckpointError('CHECKPOINT_CORRUPT', `checkpoint ${checkpointId}: ${where}: invalid JSON`, {
      issues: [{ path: where, message: 'invalid JSON' }],
      cause: error,
    });
  }
}

function check<T>(
  schema: z.ZodType<T>,
  value: unknown,
  where: string,
  checkpointId: string,
  code: 'CHECKPOINT_INVALID' | 'CHECKPOINT_CORRUPT',
): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = toValidationIssues(parsed.error).map((i) => ({ path: i.path === '' ? where : `${where}.${i.path}`, message: i.message }));
  throw new CheckpointError(
    code,
    `checkpoint ${checkpointId}: ${code === 'CHECKPOINT_CORRUPT' ? 'unreadable' : 'invalid'}: ${describeIssues(issues)}`,
    { issues },
  );
}

/** Validates what a checkpoint is created with. */
export function validateInit(init: CheckpointInit): void {
  const id = typeof init.id === 'string' ? init.id : '?';
  check(checkpointInitSchema, init, 'init', id, 'CHECKPOINT_INVALID');
  if (init.messages !== undefined && !Array.isArray(init.messages))
    check(z.array(z.unknown()), init.messages, 'init.messages', id, 'CHECKPOINT_INVALID');
  if (init.log !== undefined && !Array.isArray(init.log)) check(z.array(z.unknown()), init.log, 'init.log', id, 'CHECKPOINT_INVALID');
}

const updateShape = z.object({
  state: checkpointStateSchema.exactOptional(),
  appendMessages: z.array(z.unknown()).readonly().exactOptional(),
  appendLog: z.array(z.unknown()).readonly().exactOptional(),
  clearToolCalls: z.boolean().exactOptional(),
  toolCalls: z.array(checkpointToolCallSchema).readonly().exactOptional(),
  lastSeq: z.number().int().nonnegative().exactOptional(),
  expect: z.object({ messages: z.number().int().nonnegative(), log: z.number().int().nonnegative() }).exactOptional(),
});

/** Validates one write before anything is stored. */
export function validateUpdate(id: string, update: CheckpointUpdate): void {
  check(updateShape, update, 'update', id, 'CHECKPOINT_INVALID');
  const seen = new Set<string>();
  for (const call of update.toolCalls ?? []) {
    if (seen.has(call.toolCallId)) {
      throw new CheckpointError('CHECKPOINT_INVALID', `checkpoint ${id}: update.toolCalls: ${call.toolCallId} given twice`, {
        issues: [{ path: 'update.toolCalls', message: `${call.toolCallId} given twice` }],
      });
    }
    seen.add(call.toolCallId);
  }
}

/** The state read back, validated. */
export function decodeState(text: unknown, checkpointId: string): CheckpointState {
  return check(checkpointStateSchema, decodeJson(text, 'state', checkpointId), 'state', checkpointId, 'CHECKPOINT_CORRUPT');
}

/** A tool-call status read back, validated. */
export function decodeToolCall(text: unknown, where: string, checkpointId: string): CheckpointToolCall {
  return check(checkpointToolCallSchema, decodeJson(text, where, checkpointId), where, checkpointId, 'CHECKPOINT_CORRUPT');
}

/** Validates a summary row's fields read back. */
export function checkRow<T>(schema: z.ZodType<T>, row: unknown, checkpointId: string): T {
  return check(schema, row, 'row', checkpointId, 'CHECKPOINT_CORRUPT');
}

/** The error for an id that is not stored. */
export function notFound(id: string): CheckpointError {
  return new CheckpointError('CHECKPOINT_NOT_FOUND', `checkpoint ${id} not found`);
}

/** The error for a write to a checkpoint that is no longer running. */
export function notRunning(id: string, status: string): CheckpointError {
  return new CheckpointError('CHECKPOINT_NOT_RUNNING', `checkpoint ${id} is ${status}, not running`);
}

/** The error for an `expect` mismatch. */
export function conflict(
  id: string,
  expected: { messages: number; log: number },
  actual: { messages: number; log: number },
): CheckpointError {
  return new CheckpointError(
    'CHECKPOINT_CONFLICT',
    `checkpoint ${id}: expected ${expected.messages} message(s) and ${expected.log} log entr(ies) stored, found ${actual.messages} and ${actual.log}`,
  );
}
