import type { InternalErrorContext } from '@headway/protocol';

/**
 * The places a run reports a failure it survived (`AgentRuntimeErrorContext.where`):
 *
 * - `sink`, `reporter`: a sink or a seven-method reporter threw or rejected;
 * - `session`: recording the run in its session failed;
 * - `checkpoint.create`, `checkpoint.update`, `checkpoint.finish`, `checkpoint.seq`,
 *   `checkpoint.lease`, `checkpoint.blob`: a checkpoint write, its event counter, the lease check,
 *   or storing an oversized tool result failed;
 * - `cost`: pricing a provider call failed;
 * - `model-progress`: the model's `_progress` was rejected;
 * - `report-parse`: the model's progress report did not parse (the fallback report is used);
 * - `onTimeout`: the `onTimeout` observer threw or did not answer in time;
 * - `stallPolicy`: the stall policy threw or answered something unknown;
 * - `context.<part>.<hook>`: a context part's hook (`beforeRun`, `beforeIteration`,
 *   `assembleContext`, `afterRun`) failed; the part is left out for the rest of the run.
 */
export type RuntimeErrorWhere =
  | 'sink'
  | 'reporter'
  | 'session'
  | 'checkpoint.create'
  | 'checkpoint.update'
  | 'checkpoint.finish'
  | 'checkpoint.seq'
  | 'checkpoint.lease'
  | 'checkpoint.blob'
  | 'cost'
  | 'model-progress'
  | 'report-parse'
  | 'onTimeout'
  | 'stallPolicy'
  | `context.${string}.${'beforeRun' | 'beforeIteration' | 'assembleContext' | 'afterRun'}`;

/** Where a failure the run survived happened: `where` names the part ({@link RuntimeErrorWhere}), `runId` the run when known. */
export interface AgentRuntimeErrorContext extends InternalErrorContext<RuntimeErrorWhere> {
  readonly where: RuntimeErrorWhere;
}

/** How the loop's parts report a failure the run survived (AgentRuntime turns it into `onInternalError(error, { where })`). */
export type ReportInternalError = (error: unknown, where: RuntimeErrorWhere) => void;
