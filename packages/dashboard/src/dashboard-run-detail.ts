import { join } from 'node:path';
import { redact, renderProgressReport } from '@headway/protocol';
import { reportHtml } from '@headway/report/html';
import { readRunReport, type Checkpoint, type CheckpointStore } from '@headway/runtime';
import { DashboardError } from './dashboard-error.js';
import type { DashboardModelCost, DashboardRunDetail } from './dashboard-run-types.js';
import { dashboardRun, readDashboardRuns, type ReadDashboardRunsOptions } from './dashboard-runs.js';
import { dashboardRunView } from './run-view.js';

/** Options of {@link readRunDetail}. */
export interface ReadRunDetailOptions extends ReadDashboardRunsOptions {
  /** Where the runs' saved reports are; without it no report is read. */
  reportsDir?: string;
}

/** A run's cost by model from its checkpoint: a model with any unpriced call has an unknown (`null`) spend. */
function costByModel(cp: Checkpoint | undefined): DashboardModelCost[] {
  return redact(
    (cp?.state.costByModel ?? []).map((row) => ({
      model: row.model,
      calls: row.calls,
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      spentUsd: row.unpricedCalls > 0 ? null : row.spentUsd,
    })),
  );
}

/** A run id that can name a report file: no path separator, no `..`. */
const FILE_SAFE_RUN_ID = /^[\w-][\w.-]{0,199}$/;

function savedReport(dir: string, runId: string): Pick<DashboardRunDetail, 'reportHtml' | 'reportError'> {
  if (!FILE_SAFE_RUN_ID.test(runId)) return {};
  const path = join(dir, `${runId}.json`);
  try {
    const stored = readRunReport(path);
    return { reportHtml: reportHtml(renderProgressReport(redact(stored.report))) };
  } catch (error) {
    if ((error as { cause?: { code?: unknown } } | null)?.cause?.code === 'ENOENT') return {};
    // The page is told what is wrong with the file, not where the server keeps it.
    const message = (error instanceof Error ? error.message : String(error)).split(path).join(`${runId}.json`);
    return { reportError: redact(message).slice(0, 500) };
  }
}

/**
 * One run as the run page shows it: its list row, steps, plan, saved report and chain of
 * continuations, read from the checkpoint store (and the reports folder).
 *
 * @throws {DashboardError} `DASHBOARD_NOT_FOUND` when no checkpoint has that id or run id.
 * @example
 * ```ts
 * const detail = await readRunDetail(store, 'run-1', { clock: systemClock, reportsDir: '.headway/reports' });
 * ```
 */
export async function readRunDetail(store: CheckpointStore, id: string, options: ReadRunDetailOptions): Promise<DashboardRunDetail> {
  const summary = (await store.list({})).find((s) => s.id === id || s.runId === id);
  if (summary === undefined) throw new DashboardError('DASHBOARD_NOT_FOUND', `no run ${JSON.stringify(id.slice(0, 200))}`);
  let cp: Checkpoint | undefined;
  try {
    cp = await store.load(summary.id);
  } catch {
    // A checkpoint that cannot be read back still shows, from its summary.
    cp = undefined;
  }
  const run = dashboardRun(summary, cp, options);
  const runs = await readDashboardRuns(store, options);
  const byRunId = new Map(runs.map((r) => [r.runId, r]));
  const chain = [run.runId];
  const seen = new Set(chain);
  for (let parent = run.parentRunId; parent !== undefined && !seen.has(parent); parent = byRunId.get(parent)?.parentRunId) {
    chain.unshift(parent);
    seen.add(parent);
  }
  for (let next = runs.find((r) => r.parentRunId === run.runId); next !== undefined && !seen.has(next.runId);) {
    chain.push(next.runId);
    seen.add(next.runId);
    const from: string = next.runId;
    next = runs.find((r) => r.parentRunId === from);
  }
  return {
    run,
    costByModel: costByModel(cp),
    continuations: runs.filter((r) => r.parentRunId === run.runId).map((r) => r.runId),
    chain,
    view: dashboardRunView(cp),
    ...(options.reportsDir === undefined ? {} : savedReport(options.reportsDir, run.runId)),
  };
}
