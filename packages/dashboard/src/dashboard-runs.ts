import { ProgressTracker } from '@headway/estimator';
import { redact, type Clock } from '@headway/protocol';
import { checkpointRunInfo, unpricedCallsOf, type Checkpoint, type CheckpointStore, type CheckpointSummary } from '@headway/runtime';
import type { DashboardRun } from './dashboard-run-types.js';
import { allowedActions } from './run-actions.js';
import { dashboardRunState } from './run-state.js';

/** Options of {@link readDashboardRuns}. */
export interface ReadDashboardRunsOptions {
  /** Where "now" comes from (ages, ETA, live-or-interrupted). */
  clock: Clock;
  /** A running checkpoint not written for longer than this reads `interrupted` (default 60 000 ms). */
  activeWithinMs?: number;
  /** The iteration cap the estimator assumes for a run that saved none (default 30, the runtime's). */
  maxIterations?: number;
}

const DEFAULT_ACTIVE_WITHIN_MS = 60_000;

/**
 * Percent and ETA range from the tracker state a run saved with its checkpoint: 100 for a
 * completed run, where the bar stopped for a run that stopped short, an ETA only while it is live.
 */
function progressOf(
  cp: Checkpoint | undefined,
  state: { word: string; active: boolean },
  options: ReadDashboardRunsOptions,
): Pick<DashboardRun, 'percent' | 'etaLowMs' | 'etaHighMs'> {
  if (state.word === 'completed') return { percent: 100 };
  if (cp?.state.tracker === undefined) return { percent: 0 };
  try {
    const tracker = new ProgressTracker({ maxIterations: options.maxIterations ?? 30, clock: options.clock, state: cp.state.tracker });
    if (!state.active) return { percent: tracker.percent };
    const low = tracker.etaLowMs;
    const high = tracker.etaHighMs;
    return {
      percent: tracker.percent,
      ...(low === undefined ? {} : { etaLowMs: low }),
      ...(high === undefined ? {} : { etaHighMs: high }),
    };
  } catch {
    // A tracker state that does not validate shows no bar rather than a wrong one.
    return { percent: 0 };
  }
}

/** One summary with its checkpoint, as a {@link DashboardRun}. */
export function dashboardRun(summary: CheckpointSummary, cp: Checkpoint | undefined, options: ReadDashboardRunsOptions): DashboardRun {
  const state = dashboardRunState(summary, cp, {
    now: options.clock.now(),
    activeWithinMs: options.activeWithinMs ?? DEFAULT_ACTIVE_WITHIN_MS,
  });
  const info = cp === undefined ? undefined : checkpointRunInfo(cp);
  const run: DashboardRun = {
    id: summary.id,
    runId: summary.runId,
    task: info?.task ?? '',
    sessionId: summary.sessionId,
    taskId: summary.taskId,
    agent: info?.agentName ?? '',
    state: state.word,
    stateText: state.text,
    active: state.active,
    actions: allowedActions(state.word),
    iteration: summary.iteration,
    spentUsd: cp?.state.spentUsd ?? 0,
    unpricedCalls: unpricedCallsOf(cp?.state.costByModel),
    inputTokens: cp?.state.usage.inputTokens ?? 0,
    outputTokens: cp?.state.usage.outputTokens ?? 0,
    toolsUsed: cp?.state.toolsUsed ?? [],
    startedAt: summary.createdAt,
    updatedAt: summary.updatedAt,
    ...progressOf(cp, { word: state.word, active: state.active }, options),
    ...(info?.parentRunId === undefined ? {} : { parentRunId: info.parentRunId }),
    ...(summary.error === undefined ? {} : { error: summary.error }),
  };
  return redact(run);
}

/**
 * Every run in a checkpoint store, live ones first, each group by start time then run id (a
 * stable order: the same store lists the same way).
 *
 * @example
 * ```ts
 * const runs = await readDashboardRuns(new SqliteCheckpointStore('agent.db'), { clock: systemClock });
 * ```
 */
export async function readDashboardRuns(store: CheckpointStore, options: ReadDashboardRunsOptions): Promise<DashboardRun[]> {
  const summaries = await store.list({});
  const runs: DashboardRun[] = [];
  for (const summary of summaries) {
    let cp: Checkpoint | undefined;
    try {
      cp = await store.load(summary.id);
    } catch {
      // A checkpoint that cannot be read back still lists, from its summary.
      cp = undefined;
    }
    runs.push(dashboardRun(summary, cp, options));
  }
  return runs.sort(
    (a, b) => Number(b.active) - Number(a.active) || a.startedAt - b.startedAt || (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0),
  );
}
