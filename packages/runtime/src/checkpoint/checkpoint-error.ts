import { HeadwayError, type HeadwayErrorOptions, type ValidationIssue } from '@headway/protocol';
import { toErrorOptions } from '@headway/protocol/internal';

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
  | 'CHECKPOINT_CORRUPT';

/**
 * Thrown by checkpoint stores and recovery. The message names the checkpoint and, for
 * invalid or corrupt data, the path of every problem.
 */
export class CheckpointError extends HeadwayError {
  declare readonly code: CheckpointErrorCode;

  constructor(code: CheckpointErrorCode, message: string, options?: HeadwayErrorOptions);
  /** @deprecated pass `{ issues, cause }` as the third argument: `new CheckpointError(code, message, { issues })`. */
  constructor(code: CheckpointErrorCode, message: string, issues: readonly ValidationIssue[], options?: ErrorOptions);
  constructor(
    code: CheckpointErrorCode,
    message: string,
    issuesOrOptions?: readonly ValidationIssue[] | HeadwayErrorOptions,
    options?: ErrorOptions,
  ) {
    super(code, message, toErrorOptions(issuesOrOptions, options));
    this.name = 'CheckpointError';
  }
}
