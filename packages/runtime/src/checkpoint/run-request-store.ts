import { describeIssues, limitIssues, toValidationIssues } from '@headway/protocol';
import { z } from 'zod';
import { checkRow } from './checkpoint-codec.js';
import { CheckpointError } from './checkpoint-error.js';
import type { MaybePromise } from './maybe-promise.js';

/**
 * What a request asks a worker to do with a run: `continue` a stopped run from its report (a new
 * run), `resume` an interrupted run from its checkpoint, `cancel` a live run.
 */
export type RunRequestAction = 'continue' | 'resume' | 'cancel';

/**
 * Where a request is: written (`pending`), taken by a worker (`claimed`: for as long as the worker
 * renews its claim; a claim that expires is taken again by another worker), carried out (`done`)
 * or not (`failed`).
 */
export type RunRequestStatus = 'pending' | 'claimed' | 'done' | 'failed';

/** How long a claim on a request lasts without renewal, unless the claimer says otherwise (ms). */
export const RUN_REQUEST_LEASE_MS = 60_000;

/** Every {@link RunRequestAction}, in one list (for schemas and SQL checks). */
export const RUN_REQUEST_ACTIONS: readonly RunRequestAction[] = ['continue', 'resume', 'cancel'];

/** A request as the store writes it: `key` makes it idempotent (the same key twice is one request). */
export interface RunRequestInit {
  /** Idempotency key: a second request with the same key is the first one, not a new one. */
  key: string;
  action: RunRequestAction;
  /** The run it is about (the run id events and the CLI print). */
  runId: string;
  /** That run's checkpoint. */
  checkpointId: string;
}

/** A request as read back. */
export interface RunRequest extends RunRequestInit {
  /** The store's id of the request. */
  id: string;
  status: RunRequestStatus;
  /** The worker that claimed it. */
  worker?: string;
  /** What came of it, in words (`continued as run …`, or the error). */
  outcome?: string;
  /** The run it produced (a continuation's run id, or the resumed run's). */
  resultRunId?: string;
  /**
   * While `claimed`: epoch ms (the store's clock) the claim expires unless its worker renews it;
   * after that another worker may claim the request again (its claimer died).
   */
  claimExpiresAt?: number;
  /** Epoch ms it was written and last changed. */
  createdAt: number;
  updatedAt: number;
}

/** Which requests {@link RunRequestStore.claim} may take. */
export interface RunRequestClaimFilter {
  actions: readonly RunRequestAction[];
  /** Only requests about these runs (a worker claims `cancel` only for the runs it is running). */
  runIds?: readonly string[];
}

/** Options of {@link RunRequestStore.claim} and {@link RunRequestStore.renew}. */
export interface RunRequestClaimOptions {
  /** How long the claim lasts without renewal (default {@link RUN_REQUEST_LEASE_MS}). */
  leaseMs?: number;
}

/** How a claimed request ended, as {@link RunRequestStore.finish} records it. */
export interface RunRequestOutcome {
  status: 'done' | 'failed';
  /** In words, for the page. */
  outcome: string;
  resultRunId?: string;
}

/**
 * A channel of requests about runs, kept beside the checkpoints: a process that cannot run agents
 * (the dashboard's web server) writes them, a worker that owns the provider and the tools claims and
 * carries them out. `claim` is atomic across processes: one request is taken by one worker. A claim
 * is a lease: the worker renews it while it carries the request out, and a claim whose worker died
 * (it stopped renewing) expires, so another worker takes the request again, once.
 */
export interface RunRequestStore {
  /** Writes a `pending` request, or returns the one with the same `key` (`created: false`). */
  put(init: RunRequestInit): MaybePromise<{ request: RunRequest; created: boolean }>;
  /**
   * Takes the oldest request the filter allows that is `pending`, or `claimed` with a claim that has
   * expired, for `worker` (now `claimed` until `leaseMs` from now), or `undefined`.
   */
  claim(worker: string, filter: RunRequestClaimFilter, options?: RunRequestClaimOptions): MaybePromise<RunRequest | undefined>;
  /**
   * Extends the claims `worker` still holds on the requests `ids` to `leaseMs` from now; returns the
   * ids it extended (a request another worker has taken since, or one that has ended, is not among them).
   */
  renew(worker: string, ids: readonly string[], options?: RunRequestClaimOptions): MaybePromise<string[]>;
  /** Records how a claimed request ended. */
  finish(id: string, outcome: RunRequestOutcome): MaybePromise<void>;
  /** Requests, oldest first; of one run with `runId`. */
  list(filter?: { runId?: string }): MaybePromise<RunRequest[]>;
}

const text = z.string().min(1).max(400);

const initSchema = z.strictObject({
  key: text,
  action: z.enum(['continue', 'resume', 'cancel']),
  runId: text,
  checkpointId: text,
});

/**
 * A request to write, validated: what every store accepts.
 *
 * @throws {CheckpointError} `CHECKPOINT_INVALID` whose `issues` say which field is wrong.
 */
export function validateRunRequestInit(init: unknown): RunRequestInit {
  const parsed = initSchema.safeParse(init);
  if (parsed.success) return parsed.data;
  const issues = limitIssues(toValidationIssues(parsed.error, Infinity));
  throw new CheckpointError('CHECKPOINT_INVALID', `Invalid run request: ${describeIssues(issues)}`, { issues });
}

const rowSchema = z.object({
  id: z.union([z.string().min(1), z.number().int().transform(String)]),
  key: text,
  action: z.enum(['continue', 'resume', 'cancel']),
  run_id: text,
  checkpoint_id: text,
  status: z.enum(['pending', 'claimed', 'done', 'failed']),
  worker: z.string().nullable(),
  outcome: z.string().nullable(),
  result_run_id: z.string().nullable(),
  created_at: z.coerce.number().int(),
  updated_at: z.coerce.number().int(),
  claim_expires: z.coerce.number().int().nullable(),
});

/** The columns of a request row, in the order {@link decodeRunRequestRow} reads them. */
export const RUN_REQUEST_COLUMNS =
  'id, key, action, run_id, checkpoint_id, status, worker, outcome, result_run_id, created_at, updated_at, claim_expires';

/**
 * A request row read back from SQL (columns {@link RUN_REQUEST_COLUMNS}), validated.
 *
 * @throws {CheckpointError} `CHECKPOINT_CORRUPT` saying which field is wrong.
 */
export function decodeRunRequestRow(row: unknown): RunRequest {
  const r = checkRow(rowSchema, row, 'run request');
  return {
    id: r.id,
    key: r.key,
    action: r.action,
    runId: r.run_id,
    checkpointId: r.checkpoint_id,
    status: r.status,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    ...(r.worker === null ? {} : { worker: r.worker }),
    ...(r.outcome === null ? {} : { outcome: r.outcome }),
    ...(r.result_run_id === null ? {} : { resultRunId: r.result_run_id }),
    ...(r.claim_expires === null || r.status !== 'claimed' ? {} : { claimExpiresAt: r.claim_expires }),
  };
}

/**
 * The lease of a claim, checked: a positive whole number of ms, at most a day.
 *
 * @throws {CheckpointError} `CHECKPOINT_INVALID` saying what the value was.
 */
export function runRequestLeaseMs(options: RunRequestClaimOptions | undefined): number {
  const leaseMs = options?.leaseMs ?? RUN_REQUEST_LEASE_MS;
  if (!Number.isInteger(leaseMs) || leaseMs <= 0 || leaseMs > 86_400_000) {
    throw new CheckpointError(
      'CHECKPOINT_INVALID',
      `Invalid run request lease: leaseMs must be a whole number of ms from 1 to 86400000, got ${String(leaseMs)}`,
      {
        issues: [{ path: 'leaseMs', message: 'expected a whole number of ms from 1 to 86400000' }],
      },
    );
  }
  return leaseMs;
}
