import { HeadwayError } from '@headway/protocol';

/** Codes a {@link CheckpointError} can carry. */
export type CheckpointErrorCode =
  /** No checkpoint with that id. */
  | 'CHECKPOINT_NOT_FOUND'
  /** The checkpoint is not `running` (completed, failed or abandoned): it cannot be written or resumed. */
  | 'CHECKPOINT_NOT_RUNNING'
  /** A checkpoint with that id exists already. */
  | 'CHECKPOINT_EXISTS'
  /** What was given to write is invalid (not plain JSON, a bad field); nothing was written. */
  | 'CHECKPOINT_INVALID'
  /** The `expect` counts of an update did not match the store: another writer, or a lost write. */
  | 'CHECKPOINT_CONFLICT'
  /** What was read back is not a valid checkpoint (damaged or written by something else). */
  | 'CHECKPOINT_CORRUPT'
  /** The store threw while the runtime scanned it for runs to recover (`pendingRecovery`); `cause` is what it threw. */
  | 'CHECKPOINT_STORE_FAILED';

/**
 * Thrown by checkpoint stores and recovery. The message names the checkpoint and, for
 * invalid or corrupt data, the path of every problem.
 */
export class CheckpointError extends HeadwayError<CheckpointErrorCode> {
  override readonly name: string = 'CheckpointError';
}
