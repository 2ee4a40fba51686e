import { adoptThenable } from './untrusted.js';
import { type Clock, systemClock } from './clock.js';
import type { InternalErrorContext, OnInternalError } from './internal-error.js';
import type { ProgressSink } from './bridges.js';
import { createReporterSink } from './bridges.js';
import { isTerminalEvent, type ProgressEvent, type ProgressEventBody } from './events.js';
import { ProtocolError } from './protocol-error.js';
import { isNullReporter, isProgressReporter, type ProgressReporter } from './progress-reporter.js';

/** Anything with a `handle(event)` method, such as headway's reporters. */
export interface EventHandler {
  handle(event: ProgressEvent): void | PromiseLike<void>;
}

/** What {@link ProgressHub.add} accepts. */
export type SinkLike = ProgressSink | EventHandler | ProgressReporter;

/** Where a sink failure happened, passed to `onInternalError`. */
export interface SinkErrorContext extends InternalErrorContext<'sink'> {
  readonly where: 'sink';
  readonly runId: string;
  /** The sink's name (from `add(sink, { name })`), or `sink#N` in the order added. */
  sink: string;
  event: ProgressEvent;
}

/** Options of {@link createProgressHub}. */
export interface ProgressHubOptions {
  runId: string;
  /** Clock for `ts` and the `flush` timeout (default {@link systemClock}). */
  clock?: Clock;
  /** Called with every error a sink throws or rejects with; its own errors are ignored. */
  onInternalError?: OnInternalError<SinkErrorContext>;
  /** Events an async sink may have waiting before the oldest are dropped (default 1000). */
  queueLimit?: number;
  /** The last `seq` already emitted for this run, so a resumed run continues after it (default 0). */
  lastSeq?: number;
}

/** Counters of a hub's deliveries. */
export interface ProgressHubStats {
  emitted: number;
  /** Sink calls that threw or rejected. */
  sinkErrors: number;
  /** Events dropped from full async-sink queues. */
  dropped: number;
}

/** Options of {@link ProgressHub.flush}. */
export interface FlushOptions {
  /** Give up waiting after this long; the promise then resolves `false`. */
  timeoutMs?: number;
}

/**
 * Fans a run's events out to sinks, stamping the envelope and isolating every sink from
 * the others and from the caller.
 */
export interface ProgressHub {
  readonly runId: string;
  /** `seq` of the last emitted event (0 before the first). */
  readonly lastSeq: number;
  /** True once a terminal event was emitted. */
  readonly ended: boolean;
  /**
   * Adds a sink function, an object with `handle(event)`, or a ProgressReporter (bridged
   * with `createReporterSink`; a NullReporter is skipped). Returns a function that removes it.
   */
  add(sink: SinkLike, options?: { name?: string }): () => void;
  /**
   * Stamps `runId`, `seq` and `ts` on `body` and delivers it to every sink; returns the
   * stamped event. Never throws because of a sink.
   *
   * @throws {ProtocolError} `PROTOCOL_RUN_ENDED` after a terminal event.
   */
  emit(body: ProgressEventBody): ProgressEvent;
  /** Resolves when every async sink's queue has drained (`false` if `timeoutMs` passed first). */
  flush(options?: FlushOptions): Promise<boolean>;
  stats(): ProgressHubStats;
}

interface SinkEntry {
  readonly name: string;
  readonly fn: ProgressSink;
  /** A promise from this sink is pending; later events wait in `queue`, in order. */
  busy: boolean;
  queue: ProgressEvent[];
  head: number;
}

function toSink(sink: SinkLike): ProgressSink | undefined {
  if (typeof sink === 'function') return sink;
  if (isNullReporter(sink)) return undefined;
  if (typeof (sink as Partial<EventHandler>).handle === 'function') {
    const handler = sink;
    return (event) => handler.handle(event);
  }
  if (isProgressReporter(sink)) return createReporterSink(sink);
  throw new ProtocolError('PROTOCOL_INVALID_SINK', 'hub.add: expected a function, an object with handle(event), or a ProgressReporter', {
    issues: [{ path: 'sink', message: 'expected a function, an object with handle(event), or a ProgressReporter' }],
  });
}

/**
 * Creates the in-process event hub of one run.
 *
 * Sync sinks are called in the order added, inside `emit`. A sink that returns a promise is
 * async: its later events wait in a bounded per-sink queue (overflow drops the oldest and
 * counts it), so a slow sink never holds up the run or the other sinks.
 *
 * @example
 * ```ts
 * const hub = createProgressHub({ runId: 'run-1' });
 * hub.add((event) => console.log(event.seq, event.type));
 * hub.emit({ type: 'run.started', agentName: 'demo' });
 * hub.emit({ type: 'run.finished', durationMs: 12, outcome: 'completed' });
 * await hub.flush();
 * ```
 */
export function createProgressHub(options: ProgressHubOptions): ProgressHub {
  const { runId } = options;
  const clock = options.clock ?? systemClock;
  const now = (): number => clock.now();
  const queueLimit = Math.max(1, options.queueLimit ?? 1000);
  const onInternalError = options.onInternalError;
  let sinks: SinkEntry[] = [];
  let seq = options.lastSeq ?? 0;
  let ended = false;
  let added = 0;
  let busyCount = 0;
  const counters: ProgressHubStats = { emitted: 0, sinkErrors: 0, dropped: 0 };
  let idleWaiters: (() => void)[] = [];

  function fail(entry: SinkEntry, error: unknown, event: ProgressEvent): void {
    counters.sinkErrors += 1;
    if (onInternalError === undefined) return;
    try {
      onInternalError(error, { where: 'sink', runId, sink: entry.name, event });
    } catch {
      // The error callback is a sink of its own: it may not break the run either.
    }
  }

  function settle(entry: SinkEntry): void {
    entry.busy = false;
    busyCount -= 1;
    drain(entry);
    if (busyCount === 0 && idleWaiters.length > 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  function deliver(entry: SinkEntry, event: ProgressEvent): void {
    let result: unknown;
    try {
      result = entry.fn(event);
    } catch (error) {
      fail(entry, error, event);
      return;
    }
    // Most sinks are sync and return nothing: no thenable to look for.
    if (result === undefined) return;
    // A sink's return value is untrusted: a `then` getter may throw, a proxy may be revoked, a
    // `then` may throw or call back twice. adoptThenable turns all of that into one real promise.
    const pending = adoptThenable(result);
    if (pending !== undefined) {
      entry.busy = true;
      busyCount += 1;
      void pending.then(
        () => {
          settle(entry);
        },
        (error: unknown) => {
          fail(entry, error, event);
          settle(entry);
        },
      );
    }
  }

  function drain(entry: SinkEntry): void {
    while (!entry.busy && entry.head < entry.queue.length) {
      const next = entry.queue[entry.head];
      entry.head += 1;
      if (entry.head === entry.queue.length) {
        entry.queue = [];
        entry.head = 0;
      }
      if (next !== undefined) deliver(entry, next);
    }
  }

  function enqueue(entry: SinkEntry, event: ProgressEvent): void {
    if (entry.queue.length - entry.head >= queueLimit) {
      entry.head += 1;
      counters.dropped += 1;
    }
    entry.queue.push(event);
    // Compact now and then so a long-stalled queue does not keep dropped events alive.
    if (entry.head > queueLimit) {
      entry.queue = entry.queue.slice(entry.head);
      entry.head = 0;
    }
  }

  return {
    runId,
    get lastSeq() {
      return seq;
    },
    get ended() {
      return ended;
    },
    add(sink, addOptions) {
      added += 1;
      const fn = toSink(sink);
      if (fn === undefined) return () => undefined;
      const entry: SinkEntry = { name: addOptions?.name ?? `sink#${added}`, fn, busy: false, queue: [], head: 0 };
      sinks = [...sinks, entry];
      return () => {
        sinks = sinks.filter((s) => s !== entry);
      };
    },
    emit(body) {
      if (ended) {
        throw new ProtocolError('PROTOCOL_RUN_ENDED', `Run ${runId} has ended; "${body.type}" was not delivered`);
      }
      seq += 1;
      // The envelope is stamped last so a body can never forge its own seq or run. Copied, then
      // stamped (the keys and their order are those of `{ ...body, runId, seq, ts }`): V8 builds
      // `{ ...body, runId, … }` on its slow path for every body shape, about 4× the cost per event.
      const stamped: Record<string, unknown> = { ...body };
      stamped.runId = runId;
      stamped.seq = seq;
      stamped.ts = now();
      const event = stamped as unknown as ProgressEvent;
      if (isTerminalEvent(event)) ended = true;
      counters.emitted += 1;
      const current = sinks;
      for (const entry of current) {
        if (entry.busy) enqueue(entry, event);
        else deliver(entry, event);
      }
      return event;
    },
    flush(flushOptions) {
      if (busyCount === 0) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        let timer: unknown;
        const done = (): void => {
          if (timer !== undefined) clock.clearTimeout(timer);
          resolve(true);
        };
        idleWaiters.push(done);
        if (flushOptions?.timeoutMs !== undefined) {
          timer = clock.setTimeout(() => {
            idleWaiters = idleWaiters.filter((w) => w !== done);
            resolve(false);
          }, flushOptions.timeoutMs);
        }
      });
    },
    stats() {
      return { ...counters };
    },
  };
}
