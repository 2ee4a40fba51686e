import type { SessionStore } from '../session/session-store.js';
import type { Checkpoint, CheckpointInit, CheckpointStatus, CheckpointSummary, CheckpointUpdate } from './checkpoint.js';
import type { MaybePromise } from './maybe-promise.js';
import type { RunRequestStore } from './run-request-store.js';

/** Which checkpoints {@link CheckpointStore.list} returns. */
export interface CheckpointListFilter {
  status?: CheckpointStatus | readonly CheckpointStatus[];
  sessionId?: string;
}

/**
 * Durable storage of agent-run checkpoints, so a run that dies can be resumed from its
 * last completed round.
 *
 * Writes are incremental: {@link CheckpointStore.update} appends only new messages and log
 * entries and replaces only the small state, atomically. Every method may answer
 * synchronously or with a promise; callers `await` either way.
 */
export interface CheckpointStore {
  /** Creates a `running` checkpoint. @throws {CheckpointError} `CHECKPOINT_EXISTS`, `CHECKPOINT_INVALID`. */
  create(init: CheckpointInit): MaybePromise<void>;
  /**
   * Applies one write atomically: all of it or nothing.
   *
   * @throws {CheckpointError} `CHECKPOINT_NOT_FOUND`, `CHECKPOINT_NOT_RUNNING`, `CHECKPOINT_INVALID`, `CHECKPOINT_CONFLICT`.
   */
  update(id: string, update: CheckpointUpdate): MaybePromise<void>;
  /** Marks a running checkpoint `completed`: the loop ended normally. */
  complete(id: string): MaybePromise<void>;
  /** Marks a running checkpoint `failed` with the error that ended the loop. */
  fail(id: string, error: string): MaybePromise<void>;
  /** Marks a running checkpoint `abandoned`: it will not be resumed. */
  abandon(id: string): MaybePromise<void>;
  /** Reads a checkpoint back in full, validated. @throws {CheckpointError} `CHECKPOINT_CORRUPT`. */
  load(id: string): MaybePromise<Checkpoint | undefined>;
  /** Summaries, oldest update first. */
  list(filter?: CheckpointListFilter): MaybePromise<CheckpointSummary[]>;
  /** Removes a checkpoint and everything stored with it; false if there was none. */
  delete(id: string): MaybePromise<boolean>;
  /**
   * Stores a large text (an oversized tool result) once with a checkpoint and returns a
   * reference to it; the same text stored twice gives the same reference.
   */
  putBlob(id: string, content: string): MaybePromise<string>;
  /** The text behind a reference from {@link CheckpointStore.putBlob}. */
  getBlob(id: string, ref: string): MaybePromise<string | undefined>;
  /**
   * True while this worker still holds the lease on the running checkpoint `id`; false once
   * another worker has taken it over, or when that cannot be ruled out (the database is
   * unreachable and the lease would have lapsed). The runtime asks before every tool call and
   * stops the run as `interrupted-elsewhere` on false. Stores without leases leave it out.
   */
  checkLease?(id: string): MaybePromise<boolean>;
  /**
   * A session store kept beside the checkpoints (the same file or database). The runtime keeps
   * session history there when it is given no `sessionStore`; without it, in memory.
   */
  sessionStore?(): SessionStore;
  /**
   * A channel of requests about runs kept beside the checkpoints (Continue, Resume, Cancel from a
   * dashboard that cannot run agents itself), for workers to claim and carry out. Stores without
   * one leave it out.
   */
  runRequests?(): RunRequestStore;
}
