import type { RunEnd, StopReason } from '@headway/protocol';
import type { ModelCost } from '../cost/model-cost.js';
import type { ChatMessage, ToolCall, Usage } from '../provider/provider.js';

/** Status of one tool call of the iteration in flight. */
export interface ToolCallStatus extends ToolCall {
  status: 'pending' | 'started' | 'finished';
  /** The message content the model gets, once finished. */
  result?: { content: string; ok: boolean; durationMs: number };
}

/** How a run ended (or `running`). */
export type RunStatus = 'running' | 'completed' | 'limit' | 'cancelled' | 'error';

/**
 * Everything a run is, as one plain JSON object: what a checkpoint stores and what a
 * resumed run continues from. The loop mutates it in place as the run goes.
 */
export interface RunState {
  version: 1;
  runId: string;
  sessionId: string;
  taskId: string;
  /** The user's input (the task, or for a continuation the prompt built from the earlier run's report). */
  input: string;
  /** The task as people read it when `input` is not (a continuation keeps the original task). */
  task?: string;
  /** The run this one continues (from its progress report). */
  parentRunId?: string;
  /** The config's `agentName`, kept so a dashboard can tell the agents apart. */
  agentName?: string;
  status: RunStatus;
  /** How the run ended, once it has: the one run-state vocabulary (`runEndOf`). */
  end?: RunEnd;
  /** Epoch ms of the run's start (time budgets count from here). */
  startedAt: number;
  /** The whole conversation, system prompt first. */
  messages: ChatMessage[];
  /** Provider calls completed (iterations). */
  iteration: number;
  usage: Usage;
  /** Money this run spent so far (USD), priced by the runtime's cost tracker: its priced calls only. */
  spentUsd: number;
  /**
   * Calls, tokens and money per model (provider and model id), in order of first use; a model with
   * no price counts its calls as unpriced, never as $0. Absent in a run checkpointed before it was kept.
   */
  costByModel?: ModelCost[];
  /** `ProgressTracker.toJSON()` at the last save. */
  tracker: unknown;
  /** `ToolCallLog.toJSON()` at the last save. */
  log: unknown;
  /** Names of tools called, first use order. */
  toolsUsed: string[];
  /** Consecutive failures per tool (reset on success and after a strategy rotation). */
  failureStreaks: Record<string, number>;
  /** The iteration whose tool calls are in flight: the calls the model asked for and how far each got. */
  inFlight: { iteration: number; toolCalls: ToolCallStatus[] } | null;
  /** `seq` of the last event emitted, so a resumed run continues after it. */
  lastSeq: number;
  /** Set once the run is winding down (a time limit was reached). */
  windDown: { reason: StopReason; startedAt: number; graceIterationsLeft: number; reportRequested: boolean } | null;
  /** Time granted by a negotiated-timeout observer so far. */
  extendedMs: number;
  /** Limits whose 80% warning was already emitted. */
  approached: ('iterations' | 'time' | 'cost')[];
}

/**
 * Where the loop saves its state: create at the start of a tool loop, update after each
 * iteration's tool results (and as each tool call starts and finishes), complete or fail at
 * the end. `checkpointStore` implementations adapt to this.
 *
 * The `state` passed is the live object: serialise it before awaiting anything. A method
 * that throws or rejects is reported to `onInternalError` and the run goes on.
 */
export interface LoopCheckpointer {
  /** Returns the checkpoint's id. */
  create(state: RunState): string | Promise<string>;
  update(checkpointId: string, state: RunState, reason: 'iteration' | 'tool-started' | 'tool-finished'): void | Promise<void>;
  complete(checkpointId: string, state: RunState): void | Promise<void>;
  fail(checkpointId: string, state: RunState, error: string): void | Promise<void>;
  /** True while this worker still holds the run's lease; asked before every tool call (absent: no leases). */
  checkLease?(checkpointId: string): boolean | Promise<boolean>;
}
