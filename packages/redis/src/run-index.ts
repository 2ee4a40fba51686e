import { systemClock } from '@headway/protocol';
import type { Clock, ProgressEvent } from '@headway/protocol';
import { z } from 'zod';
import { checkPrefix, indexKey, isValidRunId, runKeys } from './keys.js';
import type { RedisCommandClient } from './redis-client.js';
import { ABANDON_SCRIPT } from './write-script.js';

/** A run's state in the index: written by the sink, `abandoned` when its worker's lease lapsed. */
export type RunStatus = 'active' | 'finished' | 'error' | 'cancelled' | 'abandoned';

/** One run of the index, as {@link listRuns} returns it. */
export interface RunInfo {
  runId: string;
  state: RunStatus;
  /** `seq` of the run's last written event. */
  lastSeq: number;
  startedAt: number;
  updatedAt: number;
  endedAt?: number;
  agentName?: string;
  /** The worker that wrote it (the sink's `workerId`). */
  worker?: string;
  /** How many sinks have held the run: 1, or more once it was resumed (or taken over) by another worker. */
  attempts?: number;
}

const metaSchema = z.object({
  state: z.enum(['active', 'finished', 'error', 'cancelled', 'abandoned']),
  lastSeq: z.coerce.number().int().nonnegative(),
  startedAt: z.coerce.number().nonnegative(),
  updatedAt: z.coerce.number().nonnegative(),
  endedAt: z.coerce.number().nonnegative().optional(),
  agentName: z.string().max(1000).optional(),
  worker: z.string().max(1000).optional(),
  attempt: z.coerce.number().int().positive().optional(),
});

/** A flat `HGETALL` reply (RESP2 array, or RESP3 map / object) as an object of strings. */
function hashOf(reply: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(reply)) {
    for (let i = 0; i + 1 < reply.length; i += 2) {
      const key: unknown = reply[i];
      const value: unknown = reply[i + 1];
      if (typeof key === 'string' && typeof value === 'string') out[key] = value;
    }
  } else if (reply instanceof Map) {
    for (const [key, value] of reply) if (typeof key === 'string' && typeof value === 'string') out[key] = value;
  } else if (typeof reply === 'object' && reply !== null) {
    for (const [key, value] of Object.entries(reply)) if (typeof value === 'string') out[key] = value;
  }
  return out;
}

/** Options of {@link listRuns}. */
export interface ListRunsOptions {
  prefix?: string;
  /** Most runs returned, most recently active first (default 100). */
  limit?: number;
}

/**
 * The runs of the index, most recently active first: active runs and recently finished
 * ones (a finished run leaves the index with its TTL). Entries that do not read back as a
 * run (expired, written by something else) are left out.
 *
 * @example
 * ```ts
 * for (const run of await listRuns(client)) console.log(run.runId, run.state, run.lastSeq);
 * ```
 */
export async function listRuns(client: RedisCommandClient, options: ListRunsOptions = {}): Promise<RunInfo[]> {
  const prefix = checkPrefix(options.prefix);
  const limit = Math.max(1, Math.floor(options.limit ?? 100));
  const ids = await client.sendCommand(['ZRANGE', indexKey(prefix), '+inf', '-inf', 'BYSCORE', 'REV', 'LIMIT', '0', String(limit)]);
  const runIds = (Array.isArray(ids) ? ids : []).filter(isValidRunId);
  const metas = await Promise.all(runIds.map((runId) => client.sendCommand(['HGETALL', runKeys(prefix, runId).meta])));
  const runs: RunInfo[] = [];
  for (const [i, runId] of runIds.entries()) {
    const parsed = metaSchema.safeParse(hashOf(metas[i]));
    if (!parsed.success) continue;
    const { endedAt, agentName, worker, attempt, ...rest } = parsed.data;
    runs.push({
      runId,
      ...rest,
      ...(endedAt === undefined ? {} : { endedAt }),
      ...(agentName === undefined ? {} : { agentName }),
      ...(worker === undefined ? {} : { worker }),
      ...(attempt === undefined ? {} : { attempts: attempt }),
    });
  }
  return runs;
}

/** The text of the `run.error` event appended to an abandoned run. */
export const ABANDONED_MESSAGE = 'abandoned: the worker stopped renewing its lease (it crashed or lost Redis)';

/**
 * True for the `run.error` {@link reapAbandonedRuns} appends: it ends the run's abandoned
 * attempt, not the run, which may be resumed (its events then follow the marker in the stream).
 */
export function isAbandonedMarker(event: ProgressEvent): boolean {
  return event.type === 'run.error' && event.error === ABANDONED_MESSAGE;
}

/** Options of {@link reapAbandonedRuns}. */
export interface ReapAbandonedRunsOptions {
  /** Key prefix (default `headway`). */
  prefix?: string;
  /** A run whose last write is older than this is abandoned (default 3 600 000 = 1 h). */
  finishedRunTtlMs?: number;
  /** Clock the ages are measured with (default protocol's `systemClock`). */
  clock?: Clock;
}

/**
 * Marks every active run whose worker's lease has lapsed as abandoned: a terminal
 * `run.error` is appended to its stream (so subscribers end) and its TTL starts. Safe to
 * run from many processes at once (each run is checked and marked atomically). Returns
 * the runs it marked.
 */
export async function reapAbandonedRuns(client: RedisCommandClient, options: ReapAbandonedRunsOptions = {}): Promise<string[]> {
  const prefix = checkPrefix(options.prefix);
  const clock = options.clock ?? systemClock;
  const now = (): number => clock.now();
  const ttl = Math.max(1, Math.floor(options.finishedRunTtlMs ?? 3_600_000));
  const ids = await client.sendCommand(['ZRANGE', indexKey(prefix), '0', '-1']);
  const runIds = (Array.isArray(ids) ? ids : []).filter(isValidRunId);
  const states = await Promise.all(runIds.map((runId) => client.sendCommand(['HGET', runKeys(prefix, runId).meta, 'state'])));
  const candidates = runIds.filter((_, i) => states[i] === 'active');
  const marked = await Promise.all(
    candidates.map(async (runId) => {
      const keys = runKeys(prefix, runId);
      const seq = await client.sendCommand([
        'EVAL',
        ABANDON_SCRIPT,
        '4',
        keys.stream,
        keys.meta,
        keys.lease,
        indexKey(prefix),
        runId,
        String(now()),
        String(ttl),
        ABANDONED_MESSAGE,
      ]);
      return typeof seq === 'number' && seq > 0 ? runId : undefined;
    }),
  );
  return marked.filter((runId) => runId !== undefined);
}
