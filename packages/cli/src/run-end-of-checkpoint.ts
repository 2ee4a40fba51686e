import type { RunEnd } from '@headway/protocol';
import { checkpointRunInfo, type Checkpoint, type CheckpointSummary } from '@headway/runtime';

/**
 * How a stored run ended, in the one run-state vocabulary: what the runtime recorded with its
 * checkpoint, else what the checkpoint's lifecycle says (a run finished before the runtime recorded
 * its end, or a checkpoint that cannot be read back, reads as `completed` only when its lifecycle
 * says so).
 */
export function runEndOfCheckpoint(cp: Checkpoint | undefined, summary: CheckpointSummary): RunEnd {
  const end = cp === undefined ? undefined : checkpointRunInfo(cp).end;
  if (end !== undefined) return end;
  if (summary.status === 'running') return { state: 'interrupted' };
  if (summary.status === 'failed') return { state: 'failed' };
  if (summary.status === 'abandoned') return { state: 'cancelled' };
  return { state: 'completed' };
}
