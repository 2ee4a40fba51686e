import { join } from 'node:path';
import type { Clock, InternalErrorContext, OnInternalError } from '@headway/protocol';
import {
  RUN_REQUEST_LEASE_MS,
  readRunReport,
  type AgentRuntime,
  type ContinueFrom,
  type MaybePromise,
  type RunOptions,
  type RunRequest,
  type RunRequestAction,
  type RunRequestStore,
  type RunResult,
} from '@headway/runtime';
import { DashboardError } from './dashboard-error.js';

/** The reason a run cancelled from the dashboard stops with (its `run.cancelled` event and report). */
export const CANCELLED_FROM_DASHBOARD = 'cancelled from the dashboard';

/** Where a {@link RunRequestWorker} reports an internal error: the store, the user's callback, or carrying out a request. */
export type RunRequestWorkerErrorContext = InternalErrorContext<
  'requests.claim' | 'requests.renew' | 'requests.finish' | 'onRunEnd' | `request.${RunRequestAction}`
>;

/** Options of {@link createRunRequestWorker}. */
export interface RunRequestWorkerOptions {
  /** The runtime that owns the provider and the tools: it carries the requests out. */
  runtime: Pick<AgentRuntime, 'resume' | 'continueRun' | 'runStream'>;
  /** Where the requests are (`checkpointStore.runRequests()`: the same store the runtime writes to). */
  requests: RunRequestStore;
  /** This worker's name, recorded on each request it claims (the page shows it). */
  worker: string;
  /**
   * Where the report a `continue` request continues from is read: a reports folder that
   * `saveRunReport` writes to (`<dir>/<runId>.json`), or a function that finds it.
   */
  reports: string | ((runId: string) => MaybePromise<ContinueFrom | undefined>);
  /**
   * How long this worker's claim on a request lasts without renewal (default
   * `RUN_REQUEST_LEASE_MS`, 60 s). Every poll renews the claims of the requests it is still
   * carrying out, and {@link RunRequestWorker.watch} polls at least every third of it; when the
   * worker dies its claims expire and another worker takes the requests up again.
   */
  claimLeaseMs?: number;
  /** Which actions this worker takes (default all three). */
  actions?: readonly ('continue' | 'resume' | 'cancel')[];
  /** Told of every run a request started once it ends (to save its report, say); errors it throws go to `onInternalError`. */
  onRunEnd?: (result: RunResult, request: RunRequest) => void;
  /** Failures the worker survives: a store that cannot be read, a request that could not be carried out. */
  onInternalError?: OnInternalError<RunRequestWorkerErrorContext>;
}

/** What {@link createRunRequestWorker} returns. */
export interface RunRequestWorker {
  /**
   * Runs `input` like `runtime.run`, so a Cancel from the dashboard reaches it: the run is known
   * by its id from its first event on.
   */
  run(input: string, options?: RunOptions): Promise<RunResult>;
  /**
   * Renews its claims on the requests it is carrying out, claims every request it can now (cancels
   * for its live runs, then continues and resumes: pending ones, and ones whose claimer died) and
   * starts carrying them out; returns how many it claimed. Never rejects: a store that fails goes
   * to `onInternalError`.
   */
  poll(): Promise<number>;
  /** Polls every `intervalMs` (default 1 000, at most a third of `claimLeaseMs`) on `clock` until `signal` aborts. */
  watch(options: { signal: AbortSignal; intervalMs?: number; clock: Clock }): Promise<void>;
  /** Resolves when every run this worker started through a request or {@link RunRequestWorker.run} has ended. */
  idle(): Promise<void>;
  /** Ids of the runs this worker is running now (the ones a Cancel can reach). */
  readonly live: readonly string[];
}

function reportReader(reports: RunRequestWorkerOptions['reports']): (runId: string) => MaybePromise<ContinueFrom | undefined> {
  if (typeof reports === 'function') return reports;
  return (runId) => {
    if (!/^[\da-z][\w.-]{0,199}$/i.test(runId)) return undefined;
    const stored = readRunReport(join(reports, `${runId}.json`));
    return { runId: stored.runId, report: stored.report };
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The worker's side of the dashboard's Continue, Resume and Cancel buttons. The web server
 * cannot run agents (it has no provider or tools), so it writes each action as a request beside
 * the checkpoints; this helper claims them (one worker per request, across processes) and
 * carries them out with the runtime's own functions: `continueRun` from the run's saved report,
 * `resume` from its checkpoint, and an abort with reason {@link CANCELLED_FROM_DASHBOARD} for a
 * run this worker is running. Each request ends `done` or `failed` with what came of it.
 *
 * @throws {DashboardError} `DASHBOARD_INVALID_OPTIONS` naming a missing option.
 * @example
 * ```ts
 * const store = new SqliteCheckpointStore('agent.db');
 * const runtime = new AgentRuntime(config, { provider, tools, checkpointStore: store });
 * const worker = createRunRequestWorker({ runtime, requests: store.runRequests(), worker: 'worker-1', reports: '.headway/reports' });
 * void worker.watch({ signal: AbortSignal.timeout(3_600_000), clock: systemClock });
 * await worker.run('Summarise the report');
 * ```
 */
export function createRunRequestWorker(options: RunRequestWorkerOptions): RunRequestWorker {
  const given = options as Partial<RunRequestWorkerOptions> | null;
  if (
    typeof given !== 'object' ||
    given === null ||
    typeof given.runtime?.resume !== 'function' ||
    typeof given.requests?.claim !== 'function' ||
    typeof given.worker !== 'string' ||
    given.worker === '' ||
    (typeof given.reports !== 'string' && typeof given.reports !== 'function') ||
    (given.claimLeaseMs !== undefined &&
      !(Number.isInteger(given.claimLeaseMs) && given.claimLeaseMs >= 3 && given.claimLeaseMs <= 86_400_000))
  ) {
    throw new DashboardError(
      'DASHBOARD_INVALID_OPTIONS',
      'createRunRequestWorker: options.runtime, options.requests (a RunRequestStore), options.worker (a name) and options.reports (a folder or a function) are required; options.claimLeaseMs, when given, is a whole number of ms from 3 to 86400000',
    );
  }
  const { runtime, requests, worker } = options;
  const readReport = reportReader(options.reports);
  const actions = new Set(options.actions ?? ['continue', 'resume', 'cancel']);
  const leaseMs = options.claimLeaseMs ?? RUN_REQUEST_LEASE_MS;
  const live = new Map<string, AbortController>();
  /** The requests this worker has claimed and not finished: their claims are renewed on every poll. */
  const claims = new Set<string>();
  const running = new Set<Promise<unknown>>();

  const internalError = (error: unknown, where: RunRequestWorkerErrorContext['where']): void => {
    try {
      options.onInternalError?.(error, { where });
    } catch {
      // The callback's own failure is ignored, as OnInternalError says.
    }
  };

  const track = <T>(work: Promise<T>): Promise<T> => {
    running.add(work);
    void work.finally(() => running.delete(work)).catch(() => undefined);
    return work;
  };

  const finish = async (request: RunRequest, status: 'done' | 'failed', outcome: string, resultRunId?: string): Promise<void> => {
    claims.delete(request.id);
    try {
      await requests.finish(request.id, { status, outcome, ...(resultRunId === undefined ? {} : { resultRunId }) });
    } catch (error) {
      internalError(error, 'requests.finish');
    }
  };

  const ended = (result: RunResult, request: RunRequest): void => {
    try {
      options.onRunEnd?.(result, request);
    } catch (error) {
      internalError(error, 'onRunEnd');
    }
  };

  const carryOut = async (request: RunRequest): Promise<void> => {
    if (request.action === 'cancel') {
      const controller = live.get(request.runId);
      if (controller === undefined) {
        await finish(request, 'failed', `run ${request.runId} was no longer running on ${worker}`);
        return;
      }
      controller.abort(CANCELLED_FROM_DASHBOARD);
      await finish(request, 'done', `cancelled on ${worker}`);
      return;
    }
    const controller = new AbortController();
    try {
      if (request.action === 'resume') {
        live.set(request.runId, controller);
        const result = await runtime.resume(request.checkpointId, { signal: controller.signal });
        await finish(request, 'done', `resumed on ${worker}: ${result.status}`, result.runId);
        ended(result, request);
        return;
      }
      const from = await readReport(request.runId);
      if (from === undefined) {
        await finish(request, 'failed', `no saved report of run ${request.runId} on ${worker}`);
        return;
      }
      const result = await runtime.continueRun(from, { signal: controller.signal });
      await finish(request, 'done', `continued as run ${result.runId} on ${worker}: ${result.status}`, result.runId);
      ended(result, request);
    } catch (error) {
      internalError(error, `request.${request.action}`);
      await finish(request, 'failed', `${request.action} failed on ${worker}: ${describe(error).slice(0, 500)}`);
    } finally {
      if (live.get(request.runId) === controller) live.delete(request.runId);
    }
  };

  const claimAll = async (filter: Parameters<RunRequestStore['claim']>[1]): Promise<number> => {
    let claimed = 0;
    for (;;) {
      const request = await requests.claim(worker, filter, { leaseMs });
      if (request === undefined) return claimed;
      claimed += 1;
      claims.add(request.id);
      void track(carryOut(request));
    }
  };

  const renew = async (): Promise<void> => {
    if (claims.size === 0) return;
    const ids = [...claims];
    try {
      const kept = new Set(await requests.renew(worker, ids, { leaseMs }));
      // A claim lost meanwhile (this worker stalled past its lease, another took the request over)
      // is said once; the checkpoint's own lease fences a resumed run's writes.
      for (const id of ids) {
        if (kept.has(id) || !claims.has(id)) continue;
        claims.delete(id);
        internalError(
          new DashboardError('DASHBOARD_CONFLICT', `request ${id}: ${worker} lost its claim; another worker may carry it out`),
          'requests.renew',
        );
      }
    } catch (error) {
      internalError(error, 'requests.renew');
    }
  };

  const poll = async (): Promise<number> => {
    let claimed = 0;
    await renew();
    try {
      if (actions.has('cancel') && live.size > 0) claimed += await claimAll({ actions: ['cancel'], runIds: [...live.keys()] });
      const start = (['continue', 'resume'] as const).filter((a) => actions.has(a));
      if (start.length > 0) claimed += await claimAll({ actions: start });
    } catch (error) {
      internalError(error, 'requests.claim');
    }
    return claimed;
  };

  return {
    async run(input, runOptions = {}) {
      const controller = new AbortController();
      const signal = runOptions.signal === undefined ? controller.signal : AbortSignal.any([controller.signal, runOptions.signal]);
      let runId: string | undefined;
      const work = (async () => {
        const stream = runtime.runStream(input, { ...runOptions, signal, stream: runOptions.stream ?? false });
        try {
          for (;;) {
            const next = await stream.next();
            if (next.done === true) return next.value;
            if (runId === undefined) {
              runId = next.value.runId;
              live.set(runId, controller);
            }
          }
        } finally {
          if (runId !== undefined && live.get(runId) === controller) live.delete(runId);
        }
      })();
      return track(work);
    },
    poll,
    async watch({ signal, intervalMs = 1_000, clock }) {
      const waitMs = Math.min(intervalMs, Math.floor(leaseMs / 3));
      while (!signal.aborted) {
        await poll();
        await new Promise<void>((resolve) => {
          if (signal.aborted) {
            resolve();
            return;
          }
          const timer = clock.setTimeout(done, waitMs);
          function done(): void {
            clock.clearTimeout(timer);
            signal.removeEventListener('abort', done);
            resolve();
          }
          signal.addEventListener('abort', done, { once: true });
        });
      }
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    get live() {
      return [...live.keys()];
    },
  };
}
