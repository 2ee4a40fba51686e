import type { Clock } from '@headway/protocol';
import { errorMessage } from '@headway/protocol/internal';
import type { Checkpoint } from './checkpoint.js';
import { CheckpointError } from './checkpoint-error.js';
import type { CheckpointStore } from './checkpoint-store.js';
import type { MaybePromise } from './maybe-promise.js';
import { scanForRecovery, type PendingRecovery, type RecoveryPolicy } from './recovery.js';

/**
 * Lists a store's unfinished runs for `pendingRecovery`. A failed scan becomes a rejected
 * promise that nobody has to read: it must not turn into an unhandled rejection.
 */
export function scanPending(store: CheckpointStore, policy: RecoveryPolicy, clock: Clock): MaybePromise<PendingRecovery[]> {
  let pending: MaybePromise<PendingRecovery[]>;
  try {
    pending = scanForRecovery(store, { clock, policy });
  } catch (error) {
    pending = Promise.reject(new CheckpointError('CHECKPOINT_STORE_FAILED', errorMessage(error), { cause: error }));
  }
  if (pending instanceof Promise) pending.catch(() => undefined);
  return pending;
}

/** The runtime's store, or `CHECKPOINT_NOT_FOUND` when it has none. */
export function requireStore(store: CheckpointStore | undefined, checkpointId: string): CheckpointStore {
  if (store === undefined)
    throw new CheckpointError('CHECKPOINT_NOT_FOUND', `checkpoint ${checkpointId} not found: the runtime has no checkpointStore`);
  return store;
}

/** Loads a checkpoint that is still running (the only kind that can be resumed or restarted). */
export async function loadRunning(
  store: CheckpointStore | undefined,
  checkpointId: string,
): Promise<{ store: CheckpointStore; checkpoint: Checkpoint }> {
  const s = requireStore(store, checkpointId);
  const checkpoint = await s.load(checkpointId);
  if (checkpoint === undefined) throw new CheckpointError('CHECKPOINT_NOT_FOUND', `checkpoint ${checkpointId} not found`);
  if (checkpoint.status !== 'running')
    throw new CheckpointError('CHECKPOINT_NOT_RUNNING', `checkpoint ${checkpointId} is ${checkpoint.status}, not running`);
  return { store: s, checkpoint };
}

/** Abandons every running checkpoint except those of `active` runs; returns how many. */
export async function abandonAllRunning(store: CheckpointStore | undefined, active: ReadonlySet<string>): Promise<number> {
  if (store === undefined) return 0;
  let n = 0;
  for (const c of await store.list({ status: 'running' })) {
    if (active.has(c.runId)) continue;
    await store.abandon(c.id);
    n += 1;
  }
  return n;
}
