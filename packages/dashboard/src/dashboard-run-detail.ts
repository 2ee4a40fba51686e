import { join } from 'node:path';
import { redact, renderProgressReport } from '@headway/protocol';
import { reportHtml } from '@headway/report/html';
import { readRunReport, type Checkpoint, type CheckpointStore } from '@headway/runtime';
import { DashboardError } from './dashboard-error.js';
import { dashboardRun, readDashboardRuns, type DashboardRun, type ReadDashboardRunsOptions } from './dashboard-runs.js';
import { dashboardRunView, type DashboardRunView } from './run-view.js';

/** What one model cost a run, as the run page shows it. */
export interface DashboardModelCost {
  /** The provider and model id (`openai/gpt-4o`), as the runtime priced it. */
  model: string;
  /** Provider calls made with it. */
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /**
   * USD, or `null` when the model has no price in the runtime's price table (some or all of its
   * calls cost an unknown amount): the page shows "unpriced", never $0.
   */
  spentUsd: number | null;
}

/** What the run page shows of one run. */
export interface DashboardRunDetail {
  run: DashboardRun;
  /**
   * Calls, tokens and money per model, in order of first use (empty for a run checkpointed before
   * the runtime kept it). A continuation is a run of its own: its chain's runs each have theirs.
   */
  costByModel: DashboardModelCost[];
  /** Runs that continue this one (their `parentRunId` is its run id). */
  continuations: string[];
  /** The chain of continuations this run is part of, oldest first (just this run when it is alone). */
  chain: string[];
  view: DashboardRunView;
  /**
   * The saved progress report (`<reportsDir>/<runId>.json`) as HTML: redacted, rendered by
   * `@headway/report/html` (markdown-it with raw HTML off, no images, safe links).
   */
  reportHtml?: string;
  /** Why the saved report could not be read (a file that does not validate). */
  reportError?: string;
}

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
