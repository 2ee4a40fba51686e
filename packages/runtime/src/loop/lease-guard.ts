import type { ReportInternalError } from './internal-error-context.js';
import type { LoopCheckpointer } from './run-state.js';

/** How the reason of a run stopped because another worker took it over begins (its terminal `run.cancelled`). */
export const INTERRUPTED_ELSEWHERE = 'interrupted-elsewhere';

/**
 * Asks the checkpoint store, before a tool call, whether this worker still holds the run's lease.
 * Leases fence checkpoint writes; this fences side effects: a worker whose lease was taken over
 * (an outage longer than the lease, a long pause) runs no further tool. Returns the stop reason
 * when the lease is gone (or could not be confirmed), `undefined` while it is held or the store
 * has no leases.
 */
export async function leaseLostReason(
  checkpointer: LoopCheckpointer | undefined,
  checkpointId: string | undefined,
  onInternalError: ReportInternalError,
): Promise<string | undefined> {
  if (checkpointer?.checkLease === undefined || checkpointId === undefined) return undefined;
  let held: boolean;
  try {
    held = await checkpointer.checkLease(checkpointId);
  } catch (error) {
    // A check that fails is no confirmation: the tool's side effect may not happen twice.
    onInternalError(error, 'checkpoint.lease');
    held = false;
  }
  return held
    ? undefined
    : `${INTERRUPTED_ELSEWHERE}: this worker no longer holds the run's lease (another worker may have taken the run over); it runs no further tool`;
}
