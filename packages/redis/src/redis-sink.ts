import {
  isTerminalEvent,
  safeStringify,
  type Clock,
  type InternalErrorContext,
  type OnInternalError,
  type ProgressEvent,
  systemClock,
} from '@headway/protocol';
import { randomUUID } from 'node:crypto';
import { describeThrown, sleep, unrefClock } from '@headway/protocol/internal';
import { checkPrefix, entryIdOf, indexKey, isValidRunId, runKeys } from './keys.js';
import { isServerReply, isTransientReply, type RedisCommandClient } from './redis-client.js';
import { fitEventJson, fitEventJsonAtSeq } from './fit-event.js';
import { RedisError } from './redis-error.js';
import { DEFAULT_MAX_EVENT_BYTES } from './stream-entry.js';
import { RENEW_LEASE_SCRIPT, WRITE_BATCH_SCRIPT } from './write-script.js';

/** Where a failure the sink survived happened, passed to `onInternalError`. */
export interface RedisSinkErrorContext extends InternalErrorContext {
  where: 'write' | 'lease' | 'overflow' | 'refused' | 'oversized';
  runId?: string;
  seq?: number;
}

/** Options of {@link createRedisSink}. */
export interface RedisSinkOptions {
  /** Key prefix shared with the replay log (default `headway:`). */
  prefix?: string;
  /** Events waiting to be written before the queue is full (default 10 000). */
  maxQueue?: number;
  /**
   * A full queue either drops the new event (`drop`, the default: counted in
   * `stats().dropped` and reported to `onInternalError`; a terminal event is never dropped)
   * or makes `handle` return a promise until there is room (`wait`: the hub then holds the
   * run's later events, and `await hub.flush()` in the loop waits for Redis).
   */
  overflow?: 'drop' | 'wait';
  /**
   * Longest event JSON written, in characters (default 1 MiB, the replay log's `maxEventBytes`; keep
   * the two equal). A longer event has its longest strings cut, each ending in
   * `… [truncated: N characters]`; a terminal event is never dropped (at worst it keeps only its
   * envelope and small fields), another event that cannot be cut to fit is not written (counted in
   * `stats().oversized`). Both are reported to `onInternalError` (`where: 'oversized'`).
   */
  maxEventBytes?: number;
  /** Most events written in one round trip (default 500). */
  batchSize?: number;
  /** Entries kept per run's stream, trimmed approximately (`MAXLEN ~`, default 10 000). */
  maxLength?: number;
  /** Entries older than this are trimmed from an active run's stream (`MINID ~`; default: none). */
  maxAgeMs?: number;
  /** A finished run's stream and index entry expire this long after its terminal event (default 1 hour). */
  finishedRunTtlMs?: number;
  /** The worker's lease on a run: renewed while it runs; once it lapses a replay log marks the run abandoned (default 30 000 ms). */
  leaseMs?: number;
  /** Names this worker in the run index (default `pid-<process id>`). */
  workerId?: string;
  /** Longest wait between retries while Redis is unreachable (default 2000 ms). */
  maxRetryDelayMs?: number;
  /** Told about every failure the sink survived (a full queue, a refused run id, a lost connection). */
  onInternalError?: OnInternalError<RedisSinkErrorContext>;
  /**
   * Time and timers (default protocol's `systemClock`). Its timers (retries, lease renewals) are unref'd,
   * so they never keep a process alive.
   */
  clock?: Clock;
}

/** Counters of a {@link RedisSink}. */
export interface RedisSinkStats {
  /** Events waiting to be written. */
  queued: number;
  /** Events Redis acknowledged. */
  written: number;
  /** Events Redis already held (a retry after a lost reply): acknowledged too, not written twice. */
  duplicates: number;
  /** Events dropped because the queue was full. */
  dropped: number;
  /**
   * Events Redis refused for good, or not written because this sink was fenced off their run (it was
   * marked abandoned after the lease lapsed, or another worker resumed it).
   */
  failed: number;
  /** Events refused before queueing because their run id would escape the key prefix. */
  refused: number;
  /** Events written with long strings cut to fit `maxEventBytes`. */
  truncated: number;
  /** Non-terminal events not written because they could not be cut to fit `maxEventBytes`. */
  oversized: number;
  /** Round trips retried after a connection failure. */
  retries: number;
}

/** A progress-hub sink that appends every event to its run's Redis stream. */
export interface RedisSink {
  /** Queues the event; returns a promise only when the queue is full and `overflow` is `wait`. */
  handle(event: ProgressEvent): void | Promise<void>;
  /** Resolves `true` once everything queued is acknowledged (`false` if `timeoutMs` passed first). */
  flush(options?: { timeoutMs?: number }): Promise<boolean>;
  /** Flushes (within `timeoutMs`, default 5000), then stops renewing leases. The client is left open. */
  close(options?: { timeoutMs?: number }): Promise<boolean>;
  stats(): RedisSinkStats;
}

interface Pending {
  readonly event: ProgressEvent;
  readonly json: string;
}

interface RunWriter {
  /** (seq, ts) of written events (stream seqs), oldest first, for trimming by age. */
  readonly ages: { seq: number; ts: number }[];
  agentName: string;
  /** True once this sink's claim on the run was accepted (see the write script). */
  held: boolean;
  /** Added to each event's `seq` in the stream: non-zero when this sink resumed a run past its abandoned marker. */
  shift: number;
}

/** Runs a sink remembers being fenced off (their later events are refused without a round trip). */
const MAX_FENCED_RUNS = 10_000;

const TERMINAL_STATE: Record<string, string> = { 'run.finished': 'finished', 'run.error': 'error', 'run.cancelled': 'cancelled' };

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(value > 0) || !Number.isFinite(value))
    throw new RedisError('REDIS_INVALID_OPTIONS', `${name} must be a positive number, got ${String(value)}`);
  return Math.floor(value);
}

function toJson(event: ProgressEvent): string {
  try {
    return JSON.stringify(event);
  } catch {
    // A circular or bigint `args`: written in the safe form rather than lost.
    return safeStringify(event) ?? '{}';
  }
}

/**
 * Creates the sink a worker adds to each run's progress hub: every event is appended to
 * the run's stream with `XADD` under an id derived from its `seq` (so a retried write is
 * refused as a duplicate, never stored twice), batched into one atomic round trip per
 * run under load, with a bounded queue, a run index (`<prefix>runs`, with a lease while
 * running and a TTL once finished) and trimming by length and age. Connection failures are
 * retried with backoff until Redis answers again; nothing acknowledged is lost.
 *
 * @throws {RedisError} `REDIS_INVALID_OPTIONS` for an out-of-range option.
 * @example
 * ```ts
 * const client = await connectRedis('redis://127.0.0.1:6379');
 * const sink = createRedisSink(client);
 * const hub = createProgressHub({ runId: crypto.randomUUID() });
 * hub.add(sink, { name: 'redis' });
 * hub.emit({ type: 'run.started', agentName: 'demo' });
 * hub.emit({ type: 'run.finished', durationMs: 5, outcome: 'completed' });
 * await sink.flush();
 * ```
 */
export function createRedisSink(client: RedisCommandClient, options: RedisSinkOptions = {}): RedisSink {
  const prefix = checkPrefix(options.prefix);
  const maxQueue = positive('maxQueue', options.maxQueue, 10_000);
  const batchSize = positive('batchSize', options.batchSize, 500);
  const maxEventBytes = positive('maxEventBytes', options.maxEventBytes, DEFAULT_MAX_EVENT_BYTES);
  const maxLength = positive('maxLength', options.maxLength, 10_000);
  const maxAgeMs = options.maxAgeMs === undefined ? undefined : positive('maxAgeMs', options.maxAgeMs, 1);
  const ttlMs = positive('finishedRunTtlMs', options.finishedRunTtlMs, 3_600_000);
  const leaseMs = positive('leaseMs', options.leaseMs, 30_000);
  const maxRetryDelay = positive('maxRetryDelayMs', options.maxRetryDelayMs, 2000);
  const overflow = options.overflow ?? 'drop';
  if (!['drop', 'wait'].includes(overflow)) throw new RedisError('REDIS_INVALID_OPTIONS', 'overflow must be "drop" or "wait"');
  const workerId = options.workerId ?? `pid-${process.pid}`;
  // This sink's claim on the runs it writes: a run has one holder at a time (see the write script).
  const holder = `${workerId}:${randomUUID()}`;
  const timers = unrefClock(options.clock ?? systemClock);
  const now = (): number => timers.now();
  const index = indexKey(prefix);

  let queue: Pending[] = [];
  let pumping = false;
  let closed = false;
  let overflowing = false;
  let idleWaiters: (() => void)[] = [];
  let roomWaiters: (() => void)[] = [];
  let leaseTimer: unknown;
  const runs = new Map<string, RunWriter>();
  /** Runs this sink was fenced off (its lease lapsed and the run was marked abandoned, or another worker resumed it). */
  const fenced = new Set<string>();
  const counters = { written: 0, duplicates: 0, dropped: 0, failed: 0, refused: 0, truncated: 0, oversized: 0, retries: 0 };

  function report(error: unknown, context: RedisSinkErrorContext): void {
    try {
      options.onInternalError?.(error, context);
    } catch {
      // The callback may not break the run either.
    }
  }

  function runOf(runId: string): RunWriter {
    let run = runs.get(runId);
    if (run === undefined) {
      run = { ages: [], agentName: '', held: false, shift: 0 };
      runs.set(runId, run);
    }
    return run;
  }

  function renewLeases(): void {
    leaseTimer = undefined;
    if (closed) return;
    for (const runId of runs.keys()) {
      const { lease } = runKeys(prefix, runId);
      // Only a lease this sink holds is renewed: an expired one stays expired, another worker's is left alone.
      client.sendCommand(['EVAL', RENEW_LEASE_SCRIPT, '1', lease, holder, String(leaseMs)]).catch((error: unknown) => {
        report(error, { where: 'lease', runId });
      });
    }
    leaseTimer = timers.setTimeout(renewLeases, Math.max(1, Math.floor(leaseMs / 3)));
  }

  function ageTrimId(run: RunWriter): string {
    if (maxAgeMs === undefined) return '';
    const cutoff = now() - maxAgeMs;
    let keepFrom: number | undefined;
    while (run.ages.length > 0 && (run.ages[0]?.ts ?? Infinity) < cutoff) keepFrom = (run.ages.shift()?.seq ?? 0) + 1;
    while (run.ages.length > maxLength) run.ages.shift();
    return keepFrom === undefined ? '' : entryIdOf(keepFrom);
  }

  /** The JSON written for an item: its own, or with `seq` moved past an abandoned attempt's marker. */
  function jsonOf(run: RunWriter, item: Pending): string | undefined {
    if (run.shift === 0) return item.json;
    const fitted = fitEventJsonAtSeq(item.event, item.json, item.event.seq + run.shift, maxEventBytes);
    return fitted.kind === 'oversized' ? undefined : fitted.json;
  }

  /** Refuses the run's events from now on: this sink lost its claim on it. */
  function fence(runId: string, count: number, why: string): void {
    counters.failed += count;
    runs.delete(runId);
    if (fenced.size >= MAX_FENCED_RUNS) fenced.delete(fenced.values().next().value ?? '');
    fenced.add(runId);
    report(new RedisError('REDIS_WRITE_FAILED', `Run ${runId} ${why}; this worker's later events of it are refused`, { runId }), {
      where: 'write',
      runId,
    });
  }

  /** Writes one run's slice of the batch; resolves how many events are settled (written, duplicate or failed for good). */
  async function writeRun(runId: string, items: Pending[]): Promise<'done' | 'retry'> {
    if (fenced.has(runId)) {
      counters.failed += items.length;
      return 'done';
    }
    const keys = runKeys(prefix, runId);
    const run = runOf(runId);
    const last = items.at(-1)?.event;
    for (const item of items) {
      if (item.event.type === 'run.started') run.agentName = item.event.agentName;
    }
    const terminal = last !== undefined && isTerminalEvent(last) ? (TERMINAL_STATE[last.type] ?? 'finished') : '';
    // At most twice: a claim that finds the run must be shifted past its abandoned marker is written again, shifted.
    for (let pass = 0; pass < 2; pass++) {
      const args = [
        'EVAL',
        WRITE_BATCH_SCRIPT,
        '4',
        keys.stream,
        keys.meta,
        keys.lease,
        index,
        runId,
        String(now()),
        String(leaseMs),
        String(maxLength),
        ageTrimId(run),
        String(ttlMs),
        terminal,
        workerId,
        run.agentName,
        holder,
        run.held ? '0' : '1',
        String(items[0]?.event.seq ?? 0),
      ];
      const written: Pending[] = [];
      for (const item of items) {
        const json = jsonOf(run, item);
        if (json === undefined) {
          counters.oversized += 1;
          continue;
        }
        written.push(item);
        args.push(String(item.event.seq + run.shift), json);
      }
      let reply: unknown;
      try {
        reply = await client.sendCommand(args);
      } catch (error) {
        if (isServerReply(error) && !isTransientReply(error)) {
          counters.failed += items.length;
          report(new RedisError('REDIS_WRITE_FAILED', `Redis refused events of run ${runId}: ${error.message}`, { runId, cause: error }), {
            where: 'write',
            runId,
          });
          return 'done';
        }
        report(error, { where: 'write', runId });
        return 'retry';
      }
      const statuses = Array.isArray(reply) ? reply : [];
      if (statuses[0] === -1) {
        fence(runId, items.length, 'was marked abandoned (its lease lapsed) or resumed by another worker');
        return 'done';
      }
      run.held = true;
      if (statuses[0] === -2) {
        const shift: unknown = statuses[1];
        // A reply that is not a usable shift (or one past the safe integers) is refused below, never written at a wrong seq.
        if (typeof shift !== 'number' || !Number.isSafeInteger(shift) || shift <= 0 || !Number.isSafeInteger(shift + (last?.seq ?? 0)))
          break;
        run.shift = shift;
        continue;
      }
      for (const [i, item] of written.entries()) {
        if (statuses[i] === 1) counters.written += 1;
        else counters.duplicates += 1;
        if (maxAgeMs !== undefined) run.ages.push({ seq: item.event.seq + run.shift, ts: item.event.ts });
      }
      // An ended run needs no lease and no trimming state any more.
      if (terminal !== '') runs.delete(runId);
      return 'done';
    }
    // A second shift for the same claim (or an unusable one) cannot come from the script; refused rather than written at a wrong seq.
    fence(runId, items.length, 'could not be claimed (Redis answered the claim with no usable seq shift)');
    return 'done';
  }

  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    let failures = 0;
    try {
      while (queue.length > 0) {
        const batch = queue.slice(0, batchSize);
        const byRun = new Map<string, Pending[]>();
        for (const item of batch) {
          const list = byRun.get(item.event.runId);
          if (list === undefined) byRun.set(item.event.runId, [item]);
          else list.push(item);
        }
        // Runs are written side by side (one pipeline); a run's own events stay in order.
        const outcomes = await Promise.all(
          [...byRun].map(([runId, items]) => writeRun(runId, items).then((outcome) => [runId, outcome] as const)),
        );
        const retry = new Set(outcomes.filter(([, outcome]) => outcome === 'retry').map(([runId]) => runId));
        const kept = queue.slice(0, batch.length).filter((item) => retry.has(item.event.runId));
        queue = [...kept, ...queue.slice(batch.length)];
        if (retry.size > 0) {
          counters.retries += 1;
          failures += 1;
          await sleep(timers, Math.min(maxRetryDelay, 25 * 2 ** Math.min(failures, 10)));
        } else {
          failures = 0;
        }
        if (queue.length < maxQueue) {
          overflowing = false;
          const waiters = roomWaiters;
          roomWaiters = [];
          for (const w of waiters) w();
        }
      }
    } finally {
      pumping = false;
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  function enqueue(item: Pending): void {
    queue.push(item);
    if (!pumping) void pump();
  }

  function handle(event: ProgressEvent): void | Promise<void> {
    let runId: unknown;
    try {
      runId = event.runId;
    } catch {
      runId = undefined;
    }
    if (!isValidRunId(runId)) {
      counters.refused += 1;
      report(new RedisError('REDIS_INVALID_RUN_ID', `Event refused: run id ${describeThrown(runId, 60)} would escape the key prefix`), {
        where: 'refused',
      });
      return;
    }
    if (fenced.has(runId)) {
      // Fenced off this run (see `fence`): refused without a round trip, counted like the refused write was.
      counters.failed += 1;
      return;
    }
    runOf(runId);
    if (leaseTimer === undefined && !closed) leaseTimer = timers.setTimeout(renewLeases, Math.max(1, Math.floor(leaseMs / 3)));
    const fitted = fitEventJson(event, toJson(event), maxEventBytes);
    if (fitted.kind !== 'whole') {
      const what = `event ${event.seq} (${event.type}) of run ${runId} is ${fitted.from} characters of JSON, over maxEventBytes ${maxEventBytes}`;
      if (fitted.kind === 'truncated') counters.truncated += 1;
      else counters.oversized += 1;
      report(
        new RedisError(
          'REDIS_EVENT_TOO_LARGE',
          fitted.kind === 'truncated' ? `${what}: its long strings were cut to fit` : `${what}: it was not written`,
          { runId },
        ),
        { where: 'oversized', runId, seq: event.seq },
      );
      if (fitted.kind === 'oversized') return;
    }
    const item = { event, json: fitted.json };
    if (queue.length < maxQueue || isTerminalEvent(event)) {
      enqueue(item);
      return;
    }
    if (overflow === 'wait') {
      return new Promise<void>((resolve) => {
        const tryEnqueue = (): void => {
          if (queue.length < maxQueue) {
            enqueue(item);
            resolve();
          } else roomWaiters.push(tryEnqueue);
        };
        roomWaiters.push(tryEnqueue);
      });
    }
    counters.dropped += 1;
    if (!overflowing) {
      overflowing = true;
      report(
        new RedisError(
          'REDIS_QUEUE_FULL',
          `The Redis sink's queue is full (${maxQueue} events): event ${event.seq} of run ${runId} and the next ones are dropped until it drains`,
          {
            runId,
          },
        ),
        { where: 'overflow', runId, seq: event.seq },
      );
    }
  }

  function flush(flushOptions?: { timeoutMs?: number }): Promise<boolean> {
    if (queue.length === 0 && !pumping) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      let timer: unknown;
      const done = (): void => {
        if (queue.length > 0 || pumping) {
          idleWaiters.push(done);
          return;
        }
        if (timer !== undefined) timers.clearTimeout(timer);
        resolve(true);
      };
      idleWaiters.push(done);
      if (flushOptions?.timeoutMs !== undefined) {
        timer = timers.setTimeout(() => {
          idleWaiters = idleWaiters.filter((w) => w !== done);
          resolve(false);
        }, flushOptions.timeoutMs);
      }
    });
  }

  return {
    handle,
    flush,
    async close(closeOptions) {
      const flushed = await flush({ timeoutMs: closeOptions?.timeoutMs ?? 5000 });
      closed = true;
      if (leaseTimer !== undefined) timers.clearTimeout(leaseTimer);
      leaseTimer = undefined;
      return flushed;
    },
    stats() {
      return { queued: queue.length, ...counters };
    },
  };
}
