import { isTerminalEvent, type Clock, type InternalErrorContext, type OnInternalError, systemClock } from '@headway/protocol';
import { createReplayLog, type ReplayCursor, type ReplayLog, type ReplayOpenResult, type ReplaySource } from '@headway/sse';
import { errorMessage, sleep, unrefClock } from '@headway/protocol/internal';
import { checkPrefix, compareEntryIds, isValidRunId, runKeys, seqOfEntryId, type RunKeys } from './keys.js';
import type { RedisBlockingClient, RedisDuplicableClient } from './redis-client.js';
import { RedisError } from './redis-error.js';
import { isAbandonedMarker, listRuns, reapAbandonedRuns, type ListRunsOptions, type RunInfo } from './run-index.js';
import { DEFAULT_MAX_EVENT_BYTES, decodeStreamEntry } from './stream-entry.js';

/** Where a failure the replay log survived happened, passed to `onInternalError`. */
export interface RedisReplayLogErrorContext extends InternalErrorContext {
  where: 'read' | 'load' | 'reap';
  runId?: string;
}

/** Options of {@link createRedisReplayLog}. */
export interface RedisReplayLogOptions {
  /** Key prefix shared with the sinks (default `headway:`). */
  prefix?: string;
  /** Longest a blocking read waits before it is issued again (default 5000 ms; new runs interrupt it at once). */
  blockMs?: number;
  /** Events this process keeps per run it serves; a resume from before them gets 410 (default 10 000, the sink's `maxLength`). */
  maxEventsPerRun?: number;
  /** Bytes of frames this process keeps per run it serves (default 4 MiB). */
  maxBytesPerRun?: number;
  /** A run no client of this process has read for this long is dropped from memory (default 60 000 ms). */
  idleRunMs?: number;
  /** How often runs whose worker's lease lapsed are marked abandoned (default 5000 ms; 0 turns it off). */
  reapIntervalMs?: number;
  /** TTL given to a run marked abandoned (default 1 hour, as the sink's). */
  finishedRunTtlMs?: number;
  /** Longest event JSON accepted from a stream (default 1 MiB). */
  maxEventBytes?: number;
  /** Told about every stream entry that is not a valid event of its run; the entry is skipped, never delivered. */
  onInvalid?: (error: RedisError) => void;
  /** Told about every failure the log survived (a lost connection, a failed load). */
  onInternalError?: OnInternalError<RedisReplayLogErrorContext>;
  /**
   * Time and timers (default protocol's `systemClock`). Its timers (retries, sweeps, reaps) are unref'd,
   * so they never keep a process alive.
   */
  clock?: Clock;
}

/** Counters of a {@link RedisReplayLog}. */
export interface RedisReplayLogStats {
  /** Runs held in this process (each read by the one blocking connection until it ends). */
  runs: number;
  /** Cursors open over them (one per streaming client). */
  readers: number;
  /** Events held in this process, over all runs. */
  events: number;
  /** Stream entries skipped because they were not valid events. */
  invalid: number;
  /** Blocking reads answered. */
  reads: number;
  /** Runs this process marked abandoned. */
  reaped: number;
}

/**
 * The source an SSE handler in any process serves runs from, kept in Redis Streams by
 * {@link createRedisSink}: pass it as `source` to `createSseHandler` / `createSseResponse`.
 */
export interface RedisReplayLog extends ReplaySource {
  /** Same answers as the in-memory log (see `ReplayLog.open`), after reading the run from Redis when needed. */
  open(runId: string, afterSeq: number | undefined, onAppend: () => void): Promise<ReplayOpenResult>;
  /** The runs of the index (see {@link listRuns}). */
  listRuns(options?: Omit<ListRunsOptions, 'prefix'>): Promise<RunInfo[]>;
  stats(): RedisReplayLogStats;
  /** Stops reading and reaping and closes the blocking connection; open cursors stop receiving. */
  close(): Promise<void>;
}

interface Mirror {
  readonly runId: string;
  readonly keys: RunKeys;
  readonly log: ReplayLog;
  /** Id of the last stream entry taken in (valid or not). */
  lastId: string;
  lastSeq: number;
  /** The run's final terminal event was taken in: nothing more is read. */
  ended: boolean;
  /**
   * The last event taken in is the reaper's abandoned marker: it ends the attempt, not the run,
   * so the stream is still read, and a later entry (the run resumed) continues it.
   */
  abandoned: boolean;
  readers: number;
  idleSince: number;
}

function positive(name: string, value: number | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!(value >= min) || !Number.isFinite(value))
    throw new RedisError('REDIS_INVALID_OPTIONS', `${name} must be a number >= ${min}, got ${String(value)}`);
  return Math.floor(value);
}

/** The `[key, entries]` pairs of an XREAD reply (an array of pairs, a Map, or an object by key); `[]` for a timeout. */
function streamsOf(reply: unknown): [unknown, unknown][] {
  if (Array.isArray(reply)) return reply.filter((item): item is [unknown, unknown] => Array.isArray(item) && item.length === 2);
  if (reply instanceof Map) return [...(reply as Map<unknown, unknown>).entries()];
  if (typeof reply === 'object' && reply !== null) return Object.entries(reply);
  return [];
}

/**
 * Creates the replay source a web process serves runs from, whichever worker process runs
 * them: a run's events are read from its stream when a client first asks for it (backlog
 * by `XREVRANGE` / `XRANGE` after the last entry held), then kept current by blocking
 * `XREAD`s on ONE extra connection that multiplexes every run this process serves (a new
 * run interrupts the read with `CLIENT UNBLOCK`). Each run is held in an in-memory
 * replay log, so the answers (400 / 404 / 410 / 204), the shared encoded frames and the
 * per-client backpressure are exactly those of `@headway/sse`. It also marks runs whose
 * worker stopped renewing its lease as abandoned.
 *
 * @throws {RedisError} `REDIS_INVALID_OPTIONS` for an out-of-range option.
 * @example
 * ```ts
 * const client = await connectRedis('redis://127.0.0.1:6379');
 * const log = createRedisReplayLog(client);
 * createServer(createSseHandler({ source: log })).listen(8080, '127.0.0.1'); // GET /runs/<runId>
 * ```
 */
export function createRedisReplayLog(client: RedisDuplicableClient, options: RedisReplayLogOptions = {}): RedisReplayLog {
  const prefix = checkPrefix(options.prefix);
  const blockMs = positive('blockMs', options.blockMs, 5000);
  const maxEventsPerRun = positive('maxEventsPerRun', options.maxEventsPerRun, 10_000);
  const maxBytesPerRun = positive('maxBytesPerRun', options.maxBytesPerRun, 4 * 1024 * 1024);
  const idleRunMs = positive('idleRunMs', options.idleRunMs, 60_000);
  const reapIntervalMs = positive('reapIntervalMs', options.reapIntervalMs, 5000, 0);
  const finishedRunTtlMs = positive('finishedRunTtlMs', options.finishedRunTtlMs, 3_600_000);
  const maxEventBytes = positive('maxEventBytes', options.maxEventBytes, DEFAULT_MAX_EVENT_BYTES);
  const timers = unrefClock(options.clock ?? systemClock);
  const now = (): number => timers.now();
  const mirrors = new Map<string, Mirror>();
  const byStream = new Map<string, Mirror>();
  const loading = new Map<string, Promise<Mirror | undefined>>();
  const counters = { invalid: 0, reads: 0, reaped: 0 };
  let closed = false;
  // Read through functions: both change while the read loop awaits.
  const isClosed = (): boolean => closed;
  const isStale = (): boolean => stale;
  let blocking: RedisBlockingClient | undefined;
  let blockedId: string | undefined;
  let readSet = new Set<Mirror>();
  let stale = false;
  let wakeLoop: (() => void) | undefined;
  let loopRunning = false;
  let reapTimer: unknown;
  let sweepTimer: unknown;

  function report(error: unknown, context: RedisReplayLogErrorContext): void {
    try {
      options.onInternalError?.(error, context);
    } catch {
      // Callbacks may not break the reader.
    }
  }

  function ingest(mirror: Mirror, entries: unknown): void {
    if (!Array.isArray(entries)) return;
    for (const raw of entries) {
      const decoded = decodeStreamEntry(mirror.runId, raw, maxEventBytes);
      if (decoded.id !== undefined && /^\d{1,20}-\d{1,20}$/.test(decoded.id)) {
        // Entries already taken in (a catch-up and a blocking read may overlap).
        if (compareEntryIds(decoded.id, mirror.lastId) <= 0) continue;
        mirror.lastId = decoded.id;
      }
      if (!decoded.ok) {
        counters.invalid += 1;
        try {
          options.onInvalid?.(decoded.error);
        } catch {
          // As above.
        }
        continue;
      }
      const { event } = decoded;
      if (mirror.ended || event.seq <= mirror.lastSeq) continue;
      if (mirror.abandoned) {
        // The run was resumed: its readers go on past the abandoned attempt's marker.
        mirror.log.reopen(mirror.runId);
        mirror.abandoned = false;
      }
      mirror.log.append(event);
      mirror.lastSeq = event.seq;
      if (isAbandonedMarker(event)) mirror.abandoned = true;
      else if (isTerminalEvent(event)) mirror.ended = true;
    }
  }

  async function load(runId: string): Promise<Mirror | undefined> {
    const keys = runKeys(prefix, runId);
    const [entries, known] = await Promise.all([
      client.sendCommand(['XREVRANGE', keys.stream, '+', '-', 'COUNT', String(maxEventsPerRun)]),
      client.sendCommand(['EXISTS', keys.meta]),
    ]);
    const list = Array.isArray(entries) ? [...(entries as unknown[])].reverse() : [];
    if (list.length === 0 && known !== 1) return undefined;
    const existing = mirrors.get(runId);
    if (existing !== undefined) return existing;
    const log = createReplayLog({ maxEventsPerRun, maxBytesPerRun, maxRuns: 1, finishedRunTtlMs: Infinity, clock: timers });
    const firstId: unknown = Array.isArray(list[0]) ? (list[0] as unknown[])[0] : undefined;
    const firstSeq = typeof firstId === 'string' ? (seqOfEntryId(firstId) ?? 1) : 1;
    log.register(runId, { lastSeq: firstSeq - 1 });
    const mirror: Mirror = {
      runId,
      keys,
      log,
      lastId: '0-0',
      lastSeq: firstSeq - 1,
      ended: false,
      abandoned: false,
      readers: 0,
      idleSince: now(),
    };
    ingest(mirror, list);
    mirrors.set(runId, mirror);
    byStream.set(keys.stream, mirror);
    kick();
    return mirror;
  }

  function mirrorOf(runId: string): Promise<Mirror | undefined> {
    const held = mirrors.get(runId);
    if (held !== undefined) return Promise.resolve(held);
    let pending = loading.get(runId);
    if (pending === undefined) {
      pending = load(runId).finally(() => loading.delete(runId));
      loading.set(runId, pending);
    }
    return pending;
  }

  async function catchUp(mirror: Mirror): Promise<void> {
    const entries = await client.sendCommand(['XRANGE', mirror.keys.stream, `(${mirror.lastId}`, '+', 'COUNT', String(maxEventsPerRun)]);
    ingest(mirror, entries);
  }

  /** Makes the blocking read pick up a changed set of runs. */
  function kick(): void {
    if (closed) return;
    if (wakeLoop !== undefined) {
      const wake = wakeLoop;
      wakeLoop = undefined;
      wake();
    }
    if (!loopRunning) {
      void readLoop();
      return;
    }
    if (blockedId === undefined) {
      stale = true;
      return;
    }
    client.sendCommand(['CLIENT', 'UNBLOCK', blockedId]).catch((error: unknown) => {
      report(error, { where: 'read' });
    });
  }

  async function readLoop(): Promise<void> {
    loopRunning = true;
    let failures = 0;
    try {
      while (!closed) {
        stale = false;
        const live = [...mirrors.values()].filter((m) => !m.ended);
        if (live.length === 0) {
          await new Promise<void>((resolve) => {
            wakeLoop = resolve;
          });
          continue;
        }
        try {
          if (blocking === undefined) {
            const connection = client.duplicate();
            connection.on('error', (error) => {
              report(error, { where: 'read' });
            });
            blocking = connection;
            try {
              await connection.connect();
            } catch (error) {
              // A connection that never came up is not reused: the next round makes a new one.
              blocking = undefined;
              try {
                connection.destroy();
              } catch {
                // Already closed.
              }
              throw error;
            }
          }
          readSet = new Set(live);
          const idReply = blocking.sendCommand(['CLIENT', 'ID']);
          const readReply = blocking.sendCommand([
            'XREAD',
            'COUNT',
            String(maxEventsPerRun),
            'BLOCK',
            String(blockMs),
            'STREAMS',
            ...live.map((m) => m.keys.stream),
            ...live.map((m) => m.lastId),
          ]);
          // Awaited below; a destroyed connection rejects both, and only one is awaited at a time.
          readReply.catch(() => undefined);
          blockedId = String(await idReply);
          if (isStale()) kick();
          const reply = await readReply;
          blockedId = undefined;
          counters.reads += 1;
          for (const [key, entries] of streamsOf(reply)) {
            const mirror = typeof key === 'string' ? byStream.get(key) : undefined;
            if (mirror !== undefined) ingest(mirror, entries);
          }
          failures = 0;
        } catch (error) {
          blockedId = undefined;
          if (isClosed()) return;
          failures += 1;
          report(new RedisError('REDIS_READ_FAILED', `Reading run streams failed; retrying: ${errorMessage(error)}`, { cause: error }), {
            where: 'read',
          });
          await sleep(timers, Math.min(2000, 25 * 2 ** Math.min(failures, 10)));
        }
      }
    } finally {
      loopRunning = false;
    }
  }

  /** Counts the cursor as a reader of the mirror until it is closed (the mirror's log made it; no one else holds it yet). */
  function track(mirror: Mirror, cursor: ReplayCursor): ReplayCursor {
    mirror.readers += 1;
    const closeCursor = cursor.close.bind(cursor);
    let open = true;
    cursor.close = () => {
      if (open) {
        open = false;
        mirror.readers -= 1;
        mirror.idleSince = now();
      }
      closeCursor();
    };
    return cursor;
  }

  function sweep(): void {
    sweepTimer = undefined;
    if (closed) return;
    const t = now();
    for (const mirror of mirrors.values()) {
      if (mirror.readers === 0 && t - mirror.idleSince >= idleRunMs) {
        mirrors.delete(mirror.runId);
        byStream.delete(mirror.keys.stream);
        if (readSet.has(mirror)) kick();
      }
    }
    sweepTimer = timers.setTimeout(sweep, Math.max(1, Math.floor(idleRunMs / 2)));
  }

  function reap(): void {
    reapTimer = undefined;
    if (closed) return;
    reapAbandonedRuns(client, { prefix, finishedRunTtlMs, clock: timers })
      .then(
        (marked) => {
          counters.reaped += marked.length;
        },
        (error: unknown) => {
          report(error, { where: 'reap' });
        },
      )
      .finally(() => {
        if (!closed) reapTimer = timers.setTimeout(reap, reapIntervalMs);
      });
  }

  sweepTimer = timers.setTimeout(sweep, Math.max(1, Math.floor(idleRunMs / 2)));
  if (reapIntervalMs > 0) reapTimer = timers.setTimeout(reap, reapIntervalMs);

  return {
    async open(runId, afterSeq, onAppend) {
      if (closed || !isValidRunId(runId)) return { ok: false, reason: 'unknown-run', lastSeq: 0 };
      if (client.isReady === false && !mirrors.has(runId)) {
        // node-redis would queue the reads until Redis is back; the page is better told now (503).
        throw new RedisError('REDIS_READ_FAILED', 'Redis is not connected', { runId });
      }
      const mirror = await mirrorOf(runId);
      if (mirror === undefined) return { ok: false, reason: 'unknown-run', lastSeq: 0 };
      // A client resuming from another web process may be ahead of this one by a read; a run last
      // seen abandoned may have been resumed since (nothing after its marker means it was not).
      if (!mirror.ended && (mirror.abandoned || (afterSeq !== undefined && afterSeq > mirror.lastSeq))) {
        if (client.isReady === false) throw new RedisError('REDIS_READ_FAILED', 'Redis is not connected', { runId });
        await catchUp(mirror);
      }
      mirror.idleSince = now();
      const opened = mirror.log.open(runId, afterSeq, onAppend);
      if (!opened.ok) return opened;
      return { ok: true, cursor: track(mirror, opened.cursor) };
    },
    listRuns(listOptions) {
      return listRuns(client, { ...listOptions, prefix });
    },
    stats() {
      let readers = 0;
      let events = 0;
      for (const mirror of mirrors.values()) {
        readers += mirror.readers;
        events += mirror.log.stats().events;
      }
      return { runs: mirrors.size, readers, events, ...counters };
    },
    close() {
      closed = true;
      if (reapTimer !== undefined) timers.clearTimeout(reapTimer);
      if (sweepTimer !== undefined) timers.clearTimeout(sweepTimer);
      wakeLoop?.();
      blocking?.destroy();
      blocking = undefined;
      return Promise.resolve();
    },
  };
}
