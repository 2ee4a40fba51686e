import type { LimitKind, ProgressReport, RunEndState } from '@headway/protocol';

/**
 * How a run stands, as the `progress` activity says it: `running`, then the state word of protocol's
 * one run-state vocabulary (`completed`, `limit`, `stalled`, `cancelled`, `failed`).
 */
export type ProgressActivityStatus = 'running' | Exclude<RunEndState, 'interrupted'>;

/** One limit as last reported by `limit.approaching` / `limit.reached`. */
export interface ProgressActivityLimit {
  used: number;
  max: number;
  reached: boolean;
}

/**
 * The content of the one `progress` activity message a run shows on an AG-UI client: sent
 * whole in `ACTIVITY_SNAPSHOT`, then kept current with `ACTIVITY_DELTA` JSON Patches that
 * replace top-level keys. Every key is always present (`null` when unknown), so a patch
 * never targets a missing path. Open steps and running tool calls are not repeated here:
 * the client has them from the `STEP_*` and `TOOL_CALL_*` events.
 */
export interface ProgressActivityContent {
  status: ProgressActivityStatus;
  agentName: string | null;
  task: string | null;
  /** The run this one continues (`run.started`'s `parentRunId`), so a page can show the chain. */
  parentRunId: string | null;
  /** 0–100, from the last `progress` event (0 before the first). */
  percent: number;
  /** The last `progress` event's message. */
  message: string | null;
  /** The last `progress` event's ETA; `null` when it gave none (an ETA is never invented). */
  etaMs: number | null;
  /** The low and high ends of the last `progress` event's ETA range (about p10–p90); `null` when it gave none. */
  etaLowMs: number | null;
  etaHighMs: number | null;
  /** The last `iteration` event (`index` is zero-based). */
  iteration: { index: number; max: number } | null;
  /** Tool calls finished so far and how many of them failed. */
  toolCalls: { finished: number; failed: number };
  limits: Record<LimitKind, ProgressActivityLimit | null>;
  windDown: { reason: string; graceIterations: number } | null;
  /** The time budget after the last `timeout.extended`. */
  timeBudgetMs: number | null;
  checkpoint: { checkpointId: string; iteration: number } | null;
  /** The last `intermediate.result`. */
  intermediateResult: string | null;
  /** The structured report of a run that stopped short (`report.generated`). */
  report: ProgressReport | null;
  /** Why the run stopped when it did not complete: the error, or the cancellation reason. */
  stopReason: string | null;
}

/** The content of a run's activity before any event. */
export function initialActivity(): ProgressActivityContent {
  return {
    status: 'running',
    agentName: null,
    task: null,
    parentRunId: null,
    percent: 0,
    message: null,
    etaMs: null,
    etaLowMs: null,
    etaHighMs: null,
    iteration: null,
    toolCalls: { finished: 0, failed: 0 },
    limits: { iterations: null, time: null, cost: null },
    windDown: null,
    timeBudgetMs: null,
    checkpoint: null,
    intermediateResult: null,
    report: null,
    stopReason: null,
  };
}
