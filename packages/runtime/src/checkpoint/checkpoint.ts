import { modelCostSchema, type ModelCost } from '../cost/model-cost.js';
import type { Usage } from '../provider/provider.js';
import { z } from 'zod';

/** Where a checkpoint is in its lifecycle; only `running` ones are candidates for recovery. */
export type CheckpointStatus = 'running' | 'completed' | 'failed' | 'abandoned';

/** Every {@link CheckpointStatus}, in lifecycle order. */
export const CHECKPOINT_STATUSES: readonly CheckpointStatus[] = ['running', 'completed', 'failed', 'abandoned'];

/**
 * The small part of a checkpoint that is replaced on every write: counters and the
 * restorable state of the run's helpers. Everything that grows with the run (messages,
 * the tool-call log) is appended separately, so a write's cost stays flat.
 */
export interface CheckpointState {
  /** Rounds completed so far. */
  iteration: number;
  /** Names of the tools used so far, in order of first use, without repeats. */
  toolsUsed: string[];
  /** The ProgressTracker's `toJSON()`, so the bar continues where it was. */
  tracker?: unknown;
  /** Tokens used so far. */
  usage: Usage;
  /** Money spent by this run so far (USD): its priced calls only. */
  spentUsd: number;
  /**
   * Calls, tokens and money per model (provider and model id); a model with no price counts its
   * calls as `unpricedCalls`, not as $0. Absent in a checkpoint written before it was kept.
   */
  costByModel?: ModelCost[];
  /** Provider calls made by this run so far. */
  providerCalls: number;
  /** The runtime's own bookkeeping (failure streaks, wind-down state); plain JSON. */
  extra?: Record<string, unknown>;
}

/** A tool call of the iteration in flight, as the model asked for it. */
interface ToolCallBase {
  toolCallId: string;
  name: string;
  args: unknown;
  /** Position of the call in its iteration (0-based). */
  index: number;
}

/** A tool call of the iteration in flight that has not been started. */
export interface PendingToolCall extends ToolCallBase {
  status: 'pending';
}

/** A tool call of the iteration in flight that was started and has not finished: a crash here means it runs again. */
export interface StartedToolCall extends ToolCallBase {
  status: 'started';
}

/** A tool call of the iteration in flight that finished: its result is what the model is given. */
export interface FinishedToolCall extends ToolCallBase {
  status: 'finished';
  ok: boolean;
  /** The result as it goes into the conversation (plain JSON). */
  result: unknown;
  durationMs: number;
}

/** The status of one tool call of the iteration in flight. */
export type CheckpointToolCall = PendingToolCall | StartedToolCall | FinishedToolCall;

/** What a checkpoint starts with: written once when a tool loop begins. */
export interface CheckpointInit {
  /** Unique id of the checkpoint (the caller chooses it, so it can be injected in tests). */
  id: string;
  /** The run's id; a resumed run keeps it, so idempotency keys stay the same. */
  runId: string;
  sessionId: string;
  taskId: string;
  /** The user's input that started the run. */
  input: string;
  state: CheckpointState;
  /** The conversation so far (system prompt, session history, the input). */
  messages?: readonly unknown[];
  /** Tool-call log entries so far. */
  log?: readonly unknown[];
  /** `seq` of the last event emitted for the run (default 0). */
  lastSeq?: number;
}

/**
 * One write to a running checkpoint, applied atomically: appends only what is new and
 * replaces only the small state.
 */
export interface CheckpointUpdate {
  /** Replaces the small state (counters, tracker, usage, spend). */
  state?: CheckpointState;
  /** Messages added since the last write, in order. */
  appendMessages?: readonly unknown[];
  /** Tool-call log entries added since the last write, in order. */
  appendLog?: readonly unknown[];
  /** Forget the statuses of the previous iteration's tool calls (applied before `toolCalls`). */
  clearToolCalls?: boolean;
  /** Statuses of tool calls of the iteration in flight, inserted or replaced by `toolCallId`. */
  toolCalls?: readonly CheckpointToolCall[];
  /** `seq` of the last event emitted for the run. An update of only this is cheap (not fsynced). */
  lastSeq?: number;
  /**
   * Optimistic check: the counts the writer believes are stored before this write. A
   * mismatch (another writer, a lost write) fails with `CHECKPOINT_CONFLICT` and changes nothing.
   */
  expect?: { messages: number; log: number };
}

/** A checkpoint without its contents: what listing and recovery scans return. */
export interface CheckpointSummary {
  id: string;
  runId: string;
  sessionId: string;
  taskId: string;
  status: CheckpointStatus;
  iteration: number;
  createdAt: number;
  /** Epoch ms of the last write. */
  updatedAt: number;
  /** Why it failed (status `failed`). */
  error?: string;
  /**
   * The claim a worker holds on this running checkpoint, from a store with leases (Postgres with
   * `worker`): who holds it and whether it was still live when the store was read. A lease that is
   * no longer live means its worker stopped renewing it (a crash, a kill). Absent from stores
   * without leases and for checkpoints nobody holds.
   */
  lease?: CheckpointLease;
}

/** A worker's claim on a running checkpoint, as {@link CheckpointSummary.lease} reports it. */
export interface CheckpointLease {
  /** The worker id that holds (or last held) it. */
  owner: string;
  /** True while it has not expired (by the store's clock when it was read). */
  live: boolean;
}

/** A checkpoint as read back: everything needed to resume its run. */
export interface Checkpoint extends CheckpointSummary {
  input: string;
  state: CheckpointState;
  messages: unknown[];
  log: unknown[];
  /** The iteration's calls in flight, in call order; empty between iterations. */
  toolCalls: CheckpointToolCall[];
  lastSeq: number;
}

const count = z.number().int().nonnegative();

/** zod schema of {@link CheckpointState}, used to validate what a store reads back. */
export const checkpointStateSchema: z.ZodType<CheckpointState> = z.object({
  iteration: count,
  toolsUsed: z.array(z.string()),
  tracker: z.unknown().exactOptional(),
  usage: z.object({
    inputTokens: count,
    outputTokens: count,
    cacheReadTokens: count.exactOptional(),
    cacheWriteTokens: count.exactOptional(),
  }),
  spentUsd: z.number().nonnegative(),
  costByModel: z.array(modelCostSchema).max(1_000).exactOptional(),
  providerCalls: count,
  extra: z.record(z.string(), z.unknown()).exactOptional(),
});

const toolCallBase = {
  toolCallId: z.string().min(1),
  name: z.string().min(1),
  args: z.unknown(),
  index: count,
};

/** zod schema of {@link CheckpointToolCall}. */
export const checkpointToolCallSchema: z.ZodType<CheckpointToolCall> = z.discriminatedUnion('status', [
  z.object({ ...toolCallBase, status: z.literal('pending') }),
  z.object({ ...toolCallBase, status: z.literal('started') }),
  z.object({ ...toolCallBase, status: z.literal('finished'), ok: z.boolean(), result: z.unknown(), durationMs: z.number().nonnegative() }),
]);

/** Checks the fields of a {@link CheckpointInit} that are not contents. */
export const checkpointInitSchema: z.ZodType<Omit<CheckpointInit, 'messages' | 'log'>> = z.object({
  id: z.string().min(1),
  runId: z.string().min(1),
  sessionId: z.string().min(1),
  taskId: z.string().min(1),
  input: z.string(),
  state: checkpointStateSchema,
  lastSeq: count.exactOptional(),
});
