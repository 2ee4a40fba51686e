import { progressTrackerStateSchema } from '@headway/estimator';
import {
  RUN_END_STATES,
  STOP_REASONS,
  describeIssues,
  toValidationIssues,
  type RunEnd,
  type RunEndState,
  type StopReason,
} from '@headway/protocol';
import { toolCallLogStateSchema, type ToolCallLogEntry, type ToolCallLogState } from '@headway/report';
import { z } from 'zod';
import type { ChatMessage } from '../provider/provider.js';
import type { RunState, ToolCallStatus } from '../loop/run-state.js';
import type { Checkpoint, CheckpointState, CheckpointToolCall } from './checkpoint.js';
import { CheckpointError } from './checkpoint-error.js';

// Maps the loop's RunState onto the store's incremental layout and back. What grows with
// the run (messages, the tool-call log's entries) becomes appended rows; the rest is the
// small state rewritten on each write.

/** The tool-call log without its entries: kept in the small state; entries are rows. */
interface LogMeta {
  state: Omit<ToolCallLogState, 'head' | 'recent'>;
  /** The first `headCount` rows are the log's head, the last `recentCount` its recent entries. */
  headCount: number;
  recentCount: number;
}

/** The RunState fields that are neither rows nor CheckpointState fields. */
interface RunExtra {
  startedAt: number;
  failureStreaks: Record<string, number>;
  /** The iteration whose tool calls are in flight (`null` between iterations). */
  inFlightIteration: number | null;
  windDown: RunState['windDown'];
  extendedMs: number;
  approached: RunState['approached'];
  log: LogMeta | null;
  /** The task as people read it, when the input is a continuation prompt. */
  task?: string;
  parentRunId?: string;
  agentName?: string;
  /** How the run ended (absent while it runs). */
  end?: RunEnd;
}

const count = z.number().int().nonnegative();

const toolCallSchema = z.object({ id: z.string().min(1), name: z.string().min(1), args: z.unknown() });

/** zod schema of a conversation message read back from a checkpoint or a session. */
export const chatMessageSchema: z.ZodType<ChatMessage> = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string(), toolCalls: z.array(toolCallSchema).exactOptional() }),
  z.object({ role: z.literal('tool'), toolCallId: z.string().min(1), name: z.string(), content: z.string() }),
]);

const runEndSchema: z.ZodType<RunEnd> = z.object({
  state: z.enum(RUN_END_STATES as [RunEndState, ...RunEndState[]]),
  limit: z.enum(['iterations', 'time', 'cost']).exactOptional(),
});

/**
 * A checkpoint written before the loop said "iteration" everywhere kept `roundIteration` and
 * `windDown.bonusStepsLeft`: read back under their new names, so such a run still resumes.
 */
function fromOlderBuild(extra: unknown): unknown {
  try {
    return renamedFields(extra);
  } catch {
    // A hostile value (a throwing getter, a revoked proxy): the schema says what is wrong with it.
    return extra;
  }
}

function renamedFields(extra: unknown): unknown {
  if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) return extra;
  const { roundIteration, ...rest } = extra as Record<string, unknown>;
  const out: Record<string, unknown> =
    roundIteration !== undefined && !('inFlightIteration' in rest) ? { ...rest, inFlightIteration: roundIteration } : rest;
  const windDown = out.windDown;
  if (
    typeof windDown === 'object' &&
    windDown !== null &&
    !Array.isArray(windDown) &&
    'bonusStepsLeft' in windDown &&
    !('graceIterationsLeft' in windDown)
  ) {
    const { bonusStepsLeft, ...wind } = windDown as Record<string, unknown>;
    out.windDown = { ...wind, graceIterationsLeft: bonusStepsLeft };
  }
  return out;
}

const runExtraSchema: z.ZodType<RunExtra> = z.object({
  startedAt: z.number().nonnegative(),
  failureStreaks: z.record(z.string(), count),
  inFlightIteration: count.nullable(),
  windDown: z
    .object({
      reason: z.enum(STOP_REASONS as [StopReason, ...StopReason[]]),
      startedAt: z.number().nonnegative(),
      graceIterationsLeft: z.number().int(),
      reportRequested: z.boolean(),
    })
    .nullable(),
  extendedMs: z.number().nonnegative(),
  approached: z.array(z.enum(['iterations', 'time', 'cost'])),
  task: z.string().exactOptional(),
  parentRunId: z.string().min(1).exactOptional(),
  agentName: z.string().exactOptional(),
  end: runEndSchema.exactOptional(),
  log: z
    .object({
      state: z.record(z.string(), z.unknown()) as unknown as z.ZodType<LogMeta['state']>,
      headCount: count,
      recentCount: count,
    })
    .nullable(),
});

function corrupt(id: string, where: string, error: z.ZodError): CheckpointError {
  const issues = toValidationIssues(error).map((i) => ({ path: i.path === '' ? where : `${where}.${i.path}`, message: i.message }));
  return new CheckpointError('CHECKPOINT_CORRUPT', `checkpoint ${id}: cannot resume: ${describeIssues(issues)}`, { issues });
}

/** What a write adds to the log's rows, and the log's small state. */
export interface LogDelta {
  meta: LogMeta | null;
  rows: ToolCallLogEntry[];
  /** Entries the log has seen in all (kept or summarised). */
  total: number;
}

/**
 * The log entries recorded since `storedTotal` entries were written, as far as the log
 * still keeps them (entries it already folded into its summary are skipped; the summary
 * is in `meta`).
 */
export function logDelta(log: unknown, storedTotal: number): LogDelta {
  if (log === null || log === undefined) return { meta: null, rows: [], total: 0 };
  const state = log as ToolCallLogState;
  const { head, recent, ...rest } = state;
  const total = state.toolCallCount + state.textCount;
  const rows: ToolCallLogEntry[] = [];
  for (let i = storedTotal; i < total; i++) {
    const entry = i < head.length ? head[i] : i >= total - recent.length ? recent[i - (total - recent.length)] : undefined;
    if (entry !== undefined) rows.push(entry);
  }
  return { meta: { state: rest, headCount: head.length, recentCount: recent.length }, rows, total };
}

/** The small state of a RunState. */
export function checkpointStateOf(state: RunState, log: LogMeta | null): CheckpointState {
  const extra: RunExtra = {
    startedAt: state.startedAt,
    failureStreaks: state.failureStreaks,
    inFlightIteration: state.inFlight?.iteration ?? null,
    windDown: state.windDown,
    extendedMs: state.extendedMs,
    approached: state.approached,
    log,
    ...(state.task === undefined ? {} : { task: state.task }),
    ...(state.parentRunId === undefined ? {} : { parentRunId: state.parentRunId }),
    ...(state.agentName === undefined ? {} : { agentName: state.agentName }),
    ...(state.end === undefined ? {} : { end: state.end }),
  };
  return {
    iteration: state.iteration,
    toolsUsed: state.toolsUsed,
    ...(state.tracker === null || state.tracker === undefined ? {} : { tracker: state.tracker }),
    usage: state.usage,
    spentUsd: state.spentUsd,
    ...(state.costByModel === undefined ? {} : { costByModel: state.costByModel }),
    providerCalls: state.iteration,
    extra: extra as unknown as Record<string, unknown>,
  };
}

/** A tool call of the iteration in flight as the store keeps it. */
export function toCheckpointToolCall(call: ToolCallStatus, index: number): CheckpointToolCall {
  const base = { toolCallId: call.id, name: call.name, args: call.args, index };
  if (call.status === 'finished' && call.result !== undefined) {
    return { ...base, status: 'finished', ok: call.result.ok, result: call.result.content, durationMs: call.result.durationMs };
  }
  // A call marked finished without a result cannot be trusted as done: run it again.
  return { ...base, status: call.status === 'pending' ? 'pending' : 'started' };
}

/**
 * Rebuilds the RunState a checkpoint was saved from, validating everything read back.
 *
 * @throws {CheckpointError} `CHECKPOINT_CORRUPT` naming what is wrong.
 */
export function runStateFromCheckpoint(cp: Checkpoint): RunState {
  const extraParsed = runExtraSchema.safeParse(fromOlderBuild(cp.state.extra));
  if (!extraParsed.success) throw corrupt(cp.id, 'state.extra', extraParsed.error);
  const extra = extraParsed.data;
  const messages = z.array(chatMessageSchema).safeParse(cp.messages);
  if (!messages.success) throw corrupt(cp.id, 'messages', messages.error);
  let tracker: unknown = null;
  if (cp.state.tracker !== undefined) {
    const parsed = progressTrackerStateSchema.safeParse(cp.state.tracker);
    if (!parsed.success) throw corrupt(cp.id, 'state.tracker', parsed.error);
    tracker = parsed.data;
  }
  let log: ToolCallLogState | null = null;
  if (extra.log !== null) {
    const { headCount, recentCount } = extra.log;
    if (headCount + recentCount > cp.log.length) {
      throw new CheckpointError(
        'CHECKPOINT_CORRUPT',
        `checkpoint ${cp.id}: log: ${headCount + recentCount} entries expected, ${cp.log.length} stored`,
      );
    }
    const candidate = { ...extra.log.state, head: cp.log.slice(0, headCount), recent: recentCount === 0 ? [] : cp.log.slice(-recentCount) };
    const parsed = toolCallLogStateSchema.safeParse(candidate);
    if (!parsed.success) throw corrupt(cp.id, 'log', parsed.error);
    log = parsed.data;
  }
  if (extra.inFlightIteration === null && cp.toolCalls.length > 0) {
    throw new CheckpointError(
      'CHECKPOINT_CORRUPT',
      `checkpoint ${cp.id}: toolCalls: an iteration's calls are stored but no iteration is in flight`,
    );
  }
  const inFlight =
    extra.inFlightIteration === null
      ? null
      : {
          iteration: extra.inFlightIteration,
          toolCalls: cp.toolCalls.map((c): ToolCallStatus => {
            const call: ToolCallStatus = { id: c.toolCallId, name: c.name, args: c.args, status: c.status };
            if (c.status === 'finished') {
              if (typeof c.result !== 'string') {
                throw new CheckpointError(
                  'CHECKPOINT_CORRUPT',
                  `checkpoint ${cp.id}: toolCalls[${c.index}].result: expected the message text`,
                );
              }
              call.result = { content: c.result, ok: c.ok, durationMs: c.durationMs };
            }
            return call;
          }),
        };
  return {
    version: 1,
    runId: cp.runId,
    sessionId: cp.sessionId,
    taskId: cp.taskId,
    input: cp.input,
    status: 'running',
    startedAt: extra.startedAt,
    messages: messages.data,
    iteration: cp.state.iteration,
    usage: { ...cp.state.usage },
    spentUsd: cp.state.spentUsd,
    ...(cp.state.costByModel === undefined ? {} : { costByModel: cp.state.costByModel.map((row) => ({ ...row })) }),
    tracker,
    log,
    toolsUsed: [...cp.state.toolsUsed],
    failureStreaks: { ...extra.failureStreaks },
    inFlight,
    lastSeq: cp.lastSeq,
    windDown: extra.windDown,
    extendedMs: extra.extendedMs,
    approached: [...extra.approached],
    ...(extra.task === undefined ? {} : { task: extra.task }),
    ...(extra.parentRunId === undefined ? {} : { parentRunId: extra.parentRunId }),
    ...(extra.agentName === undefined ? {} : { agentName: extra.agentName }),
  };
}

/** What a checkpoint says about its run for people: its task, agent, the run it continued, how it ended. */
export interface CheckpointRunInfo {
  /** The task as people read it (a continuation's original task, not its prompt). */
  task: string;
  parentRunId?: string;
  /** The `agentName` of the config that ran it (absent for a checkpoint written before it was kept). */
  agentName?: string;
  /**
   * How the run ended, in the one run-state vocabulary: from the runtime's record, else from the
   * checkpoint's status (`failed` → failed, `abandoned` → cancelled); a `running` checkpoint of a
   * run no process is running is `interrupted`. Absent for a finished checkpoint written before the
   * runtime recorded it.
   */
  end?: RunEnd;
}

const runInfoSchema = z.object({
  task: z.string().exactOptional(),
  parentRunId: z.string().min(1).exactOptional(),
  agentName: z.string().min(1).max(200).exactOptional(),
  end: runEndSchema.exactOptional(),
});

/**
 * Reads a checkpoint's run record (task, parent, end) for listing; never throws: a record that
 * does not validate is left out field by field, so one odd row cannot hide the others.
 *
 * @example
 * ```ts
 * const cp = await store.load(id);
 * if (cp) console.log(describeRunEnd(checkpointRunInfo(cp).end ?? { state: 'interrupted' }));
 * ```
 */
export function checkpointRunInfo(cp: Pick<Checkpoint, 'input' | 'status' | 'state'>): CheckpointRunInfo {
  const parsed = runInfoSchema.safeParse(cp.state.extra);
  const extra = parsed.success ? parsed.data : {};
  const info: CheckpointRunInfo = { task: extra.task ?? cp.input };
  if (extra.parentRunId !== undefined) info.parentRunId = extra.parentRunId;
  if (extra.agentName !== undefined) info.agentName = extra.agentName;
  if (extra.end !== undefined) info.end = extra.end;
  else if (cp.status === 'running') info.end = { state: 'interrupted' };
  else if (cp.status === 'failed') info.end = { state: 'failed' };
  else if (cp.status === 'abandoned') info.end = { state: 'cancelled' };
  return info;
}
