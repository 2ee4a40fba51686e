import { type Clock, describeIssues, toValidationIssues, systemClock } from '@headway/protocol';
import { z } from 'zod';
import type { CheckpointSummary } from './checkpoint.js';
import { CheckpointError } from './checkpoint-error.js';
import type { CheckpointStore } from './checkpoint-store.js';
import { type MaybePromise, mapMaybe } from './maybe-promise.js';

/**
 * What to do with a run that did not finish: `resume` it from its last iteration, `restart`
 * its task from the beginning (its state is too old to trust), or `abandon` it.
 */
export type RecoveryStrategy = 'resume' | 'restart' | 'abandon';

/** Age thresholds that pick a {@link RecoveryStrategy}. */
export interface RecoveryPolicy {
  /** Resume checkpoints last written less than this long ago (default 1 hour). */
  resumeWithinMs: number;
  /** Restart those younger than this (default 24 hours); abandon older ones. */
  restartWithinMs: number;
}

/** 1 hour to resume, 24 hours to restart, abandon after. */
const DEFAULT_RECOVERY_POLICY: Readonly<RecoveryPolicy> = Object.freeze({ resumeWithinMs: 3_600_000, restartWithinMs: 86_400_000 });

/** zod schema of a partial {@link RecoveryPolicy}: thresholds are non-negative and restart ≥ resume. */
const recoveryPolicySchema: z.ZodType<Partial<RecoveryPolicy>> = z
  .object({
    resumeWithinMs: z.number().nonnegative().exactOptional(),
    restartWithinMs: z.number().nonnegative().exactOptional(),
  })
  .strict();

/** An incomplete checkpoint found at start-up, with what to do about it. */
export interface PendingRecovery {
  checkpointId: string;
  runId: string;
  sessionId: string;
  taskId: string;
  /** Rounds completed before the run stopped. */
  iteration: number;
  /** Epoch ms of the checkpoint's last write. */
  updatedAt: number;
  strategy: RecoveryStrategy;
}

/** Options of {@link scanForRecovery}. */
export interface RecoveryScanOptions {
  /** Clock the ages are measured with (default protocol's `systemClock`). */
  clock?: Clock;
  policy?: Partial<RecoveryPolicy>;
}

/**
 * A complete policy from a partial one, validated.
 *
 * @throws {CheckpointError} `CHECKPOINT_INVALID` naming the bad field.
 */
export function resolveRecoveryPolicy(policy: Partial<RecoveryPolicy> = {}): RecoveryPolicy {
  const parsed = recoveryPolicySchema.safeParse(policy);
  if (!parsed.success) {
    const issues = toValidationIssues(parsed.error).map((i) => ({
      path: i.path === '' ? 'recovery' : `recovery.${i.path}`,
      message: i.message,
    }));
    throw new CheckpointError('CHECKPOINT_INVALID', `invalid recovery policy: ${describeIssues(issues)}`, { issues });
  }
  const resolved: RecoveryPolicy = { ...DEFAULT_RECOVERY_POLICY, ...parsed.data };
  if (resolved.restartWithinMs < resolved.resumeWithinMs) {
    const issues = [{ path: 'recovery.restartWithinMs', message: `must be at least resumeWithinMs (${resolved.resumeWithinMs})` }];
    throw new CheckpointError('CHECKPOINT_INVALID', `invalid recovery policy: ${describeIssues(issues)}`, { issues });
  }
  return resolved;
}

/** The strategy for a checkpoint last written `ageMs` ago (a negative age, from clock skew, counts as fresh). */
function recoveryStrategy(ageMs: number, policy: RecoveryPolicy = DEFAULT_RECOVERY_POLICY): RecoveryStrategy {
  if (ageMs < policy.resumeWithinMs) return 'resume';
  if (ageMs < policy.restartWithinMs) return 'restart';
  return 'abandon';
}

/**
 * Lists the store's incomplete (`running`) checkpoints, oldest first, each with a strategy
 * by age. Answers synchronously when the store does.
 *
 * @example
 * ```ts
 * for (const r of scanForRecovery(new SqliteCheckpointStore('agent.db')) as PendingRecovery[]) {
 *   console.log(`${r.sessionId}: ${r.strategy} from round ${r.iteration}`);
 * }
 * ```
 */
export function scanForRecovery(store: CheckpointStore, options: RecoveryScanOptions = {}): MaybePromise<PendingRecovery[]> {
  const policy = resolveRecoveryPolicy(options.policy);
  const clock = options.clock ?? systemClock;
  const now = (): number => clock.now();
  return mapMaybe(store.list({ status: 'running' }), (summaries: CheckpointSummary[]) => {
    const at = now();
    return summaries.map((s) => ({
      checkpointId: s.id,
      runId: s.runId,
      sessionId: s.sessionId,
      taskId: s.taskId,
      iteration: s.iteration,
      updatedAt: s.updatedAt,
      strategy: recoveryStrategy(Math.max(0, at - s.updatedAt), policy),
    }));
  });
}
