import { isTerminalEvent, type Clock, type ProgressEvent, type ProgressHub, systemClock } from '@headway/protocol';
import { SseError } from './sse-error.js';
import { formatProgressFrame } from './sse-frame.js';
import { encodeUtf8 } from './utf8.js';

/** Options of {@link createReplayLog}; every bound is per log. */
export interface ReplayLogOptions {
  /** Newest events kept per run; older ones are dropped first (default 10 000). */
  maxEventsPerRun?: number;
  /** Bytes of encoded frames kept per run; older events are dropped first (default 4 MiB). */
  maxBytesPerRun?: number;
  /** Runs kept at once; beyond it the finished run that ended first, else the least recently active run, is forgotten (default 64). */
  maxRuns?: number;
  /** A finished run is forgotten this long after its terminal event (default 300 000 = 5 min). */
  finishedRunTtlMs?: number;
  /** Clock for the retention of finished runs (default protocol's `systemClock`). */
  clock?: Clock;
}

/** Counters of a {@link ReplayLog}. */
export interface ReplayLogStats {
  runs: number;
  /** Events held now, over all runs. */
  events: number;
  /** Bytes of encoded frames held now, over all runs. */
  bytes: number;
  /** Events ignored because their `seq` was not after the run's last one, or came after its terminal event. */
  ignored: number;
  /** Events dropped to stay within `maxEventsPerRun` / `maxBytesPerRun`. */
  evictedEvents: number;
  /** Runs forgotten because of `maxRuns` or `finishedRunTtlMs`. */
  evictedRuns: number;
}

/**
 * A reader's position in one run: it hands out the encoded frames of the events after it,
 * in order, each exactly once.
 */
export interface ReplayCursor {
  readonly runId: string;
  /** `seq` of the last event taken (the `afterSeq` it was opened with before any). */
  readonly lastSeq: number;
  /** Bytes of frames available but not yet taken (`endOffset - offset`). */
  readonly pendingBytes: number;
  /** Bytes of the run's frames before this cursor's position, counted from the run's start. */
  readonly offset: number;
  /** Bytes of all the run's frames so far, counted from the run's start. */
  readonly endOffset: number;
  /** True once the run's terminal event has been taken: nothing will follow. */
  readonly done: boolean;
  /**
   * True when events this cursor had not taken yet were evicted (it fell behind the
   * retention, or the run was forgotten): continuing would leave a gap, so stop.
   */
  readonly lost: boolean;
  /**
   * Takes the next frames in order, joined into one buffer, stopping once about `maxBytes`
   * are taken (at least one frame when any is available); `undefined` when there is none.
   * Readers at the same position taking with the same `maxBytes` share one buffer.
   */
  take(maxBytes: number): Uint8Array | undefined;
  /** Stops wake-ups; the cursor takes nothing more. */
  close(): void;
}

/**
 * Why {@link ReplayLog.open} gave no cursor:
 * - `unknown-run`: the run was never seen, or was forgotten.
 * - `ahead`: `afterSeq` is past the run's last event.
 * - `expired`: events right after `afterSeq` were already evicted (a gap would follow).
 * - `ended`: the run is finished and nothing is left after `afterSeq`.
 */
export type ReplayRefusal = 'unknown-run' | 'ahead' | 'expired' | 'ended';

/** What {@link ReplayLog.open} returns. */
export type ReplayOpenResult =
  { ok: true; cursor: ReplayCursor } | { ok: false; reason: ReplayRefusal; /** The run's last `seq` (0 if unknown). */ lastSeq: number };

/**
 * A bounded in-memory log of recent events per run, so a reconnecting client can get
 * exactly the events after its `Last-Event-ID`.
 *
 * Retention (all bounds configurable, see {@link ReplayLogOptions}): per run the newest
 * 10 000 events and at most 4 MiB of frames; at most 64 runs; a finished run is kept
 * 5 minutes after its terminal event. Worst-case memory is about `maxRuns × maxBytesPerRun`
 * (256 MiB by default) plus the event objects, whatever the clients do. Each event is
 * serialised and encoded once and shared by every client.
 */
export interface ReplayLog {
  /** Stores an event; ignored (and counted) unless its `seq` is after the run's last one and the run has not ended. */
  append(event: ProgressEvent): void;
  /** Same as `append`, so the log can be added to a progress hub as a sink: `hub.add(log)`. */
  handle(event: ProgressEvent): void;
  /**
   * Declares a run before its first event, so subscribers can connect early. `lastSeq`
   * (default 0) says which events came before and are not in the log.
   */
  register(runId: string, options?: { lastSeq?: number }): void;
  /**
   * Says the run's terminal event ended one attempt, not the run: it was resumed (a worker took
   * it over after it was marked abandoned), so events after it are accepted again. Readers that
   * already took the terminal event stay done (they resume from its `seq`); readers before it, or
   * resuming from it, go on to the events that follow. Does nothing for a run that has not ended.
   */
  reopen(runId: string): void;
  /** Registers the hub's run and adds the log to it as a sink; returns the function that removes it. */
  attach(hub: ProgressHub): () => void;
  has(runId: string): boolean;
  /** The run's retained events with `seq > afterSeq` (default 0); `undefined` for an unknown run. */
  events(runId: string, afterSeq?: number): ProgressEvent[] | undefined;
  /**
   * A cursor positioned after `afterSeq` whose `onAppend` is called (once per batch, in a
   * microtask) when new events arrive or the run is forgotten. `undefined` starts at the
   * oldest retained event (a new subscriber); a number is a resume, refused as `expired`
   * when events after it were already evicted, so a resume never has a gap.
   */
  open(runId: string, afterSeq: number | undefined, onAppend: () => void): ReplayOpenResult;
  stats(): ReplayLogStats;
}

interface Entry {
  readonly event: ProgressEvent;
  readonly bytes: Uint8Array;
  /** Bytes of this run's frames up to and including this one, since the run began. */
  readonly end: number;
}

interface RunBuffer {
  readonly runId: string;
  /** Ring storage: absolute index `i` lives at `ring[i % capacity]`. */
  ring: (Entry | undefined)[];
  /** Absolute index of the oldest retained entry. */
  first: number;
  /** Absolute index the next entry gets. */
  next: number;
  lastSeq: number;
  /** Highest `seq` no longer (or never) in the log; a reader after an older seq would see a gap. */
  evictedThroughSeq: number;
  heldBytes: number;
  totalBytes: number;
  endedAt: number | undefined;
  lastActivity: number;
  readers: Set<CursorImpl>;
  /** The last joined range handed out by `take`, shared by readers in step. */
  joined: { from: number; to: number; bytes: Uint8Array } | undefined;
  wakeScheduled: boolean;
  forgotten: boolean;
}

class CursorImpl implements ReplayCursor {
  readonly runId: string;
  lastSeq: number;
  done = false;
  private closed = false;
  private pos: number;

  constructor(
    private readonly run: RunBuffer,
    pos: number,
    afterSeq: number,
    readonly onAppend: () => void,
  ) {
    this.runId = run.runId;
    this.pos = pos;
    this.lastSeq = afterSeq;
  }

  get lost(): boolean {
    return !this.done && (this.run.forgotten || this.pos < this.run.first);
  }

  get pendingBytes(): number {
    if (this.closed || this.lost) return 0;
    return this.run.totalBytes - this.offset;
  }

  get offset(): number {
    const { run } = this;
    if (this.pos >= run.next || this.pos < run.first) return run.totalBytes;
    const entry = entryAt(run, this.pos);
    return entry.end - entry.bytes.byteLength;
  }

  get endOffset(): number {
    return this.run.totalBytes;
  }

  take(maxBytes: number): Uint8Array | undefined {
    if (this.closed || this.lost || this.done) return undefined;
    const { run } = this;
    const from = this.pos;
    let to = from;
    let size = 0;
    let terminal = false;
    while (to < run.next && (to === from || size < maxBytes)) {
      const entry = entryAt(run, to);
      size += entry.bytes.byteLength;
      to += 1;
      // A terminal event followed by more (a run resumed after its attempt ended, see `reopen`) ends nothing.
      if (isTerminalEvent(entry.event) && to === run.next && run.endedAt !== undefined) {
        terminal = true;
        break;
      }
    }
    if (to === from) return undefined;
    this.pos = to;
    this.lastSeq = entryAt(run, to - 1).event.seq;
    if (terminal) this.done = true;
    if (to - from === 1) return entryAt(run, from).bytes;
    // Clients in step (the usual case) take the same range: join it once for all of them.
    const cached = run.joined;
    if (cached?.from === from && cached.to === to) return cached.bytes;
    const bytes = new Uint8Array(size);
    let at = 0;
    for (let i = from; i < to; i++) {
      const frame = entryAt(run, i).bytes;
      bytes.set(frame, at);
      at += frame.byteLength;
    }
    run.joined = { from, to, bytes };
    return bytes;
  }

  close(): void {
    this.closed = true;
    this.run.readers.delete(this);
  }
}

function entryAt(run: RunBuffer, index: number): Entry {
  const entry = run.ring[index % run.ring.length];
  // Callers stay within [first, next), where every slot is filled.
  if (entry === undefined) throw new Error(`replay log: no entry at ${index}`);
  return entry;
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new SseError('SSE_INVALID_OPTIONS', `${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/**
 * Creates the in-memory replay log the SSE handlers serve from (see {@link ReplayLog} for
 * its retention).
 *
 * @example
 * ```ts
 * const log = createReplayLog({ maxEventsPerRun: 5000 });
 * log.attach(hub); // every event of the hub's run is kept for resuming clients
 * const handler = createSseHandler({ source: log });
 * ```
 */
export function createReplayLog(options: ReplayLogOptions = {}): ReplayLog {
  const maxEvents = positiveInteger('maxEventsPerRun', options.maxEventsPerRun, 10_000);
  const maxBytes = positiveInteger('maxBytesPerRun', options.maxBytesPerRun, 4 * 1024 * 1024);
  const maxRuns = positiveInteger('maxRuns', options.maxRuns, 64);
  const ttl = options.finishedRunTtlMs ?? 300_000;
  if (!(ttl >= 0)) throw new SseError('SSE_INVALID_OPTIONS', `finishedRunTtlMs must be >= 0, got ${String(ttl)}`);
  const clock = options.clock ?? systemClock;
  const now = (): number => clock.now();
  const runs = new Map<string, RunBuffer>();
  const counters = { ignored: 0, evictedEvents: 0, evictedRuns: 0 };

  function scheduleWake(run: RunBuffer): void {
    if (run.wakeScheduled || run.readers.size === 0) return;
    run.wakeScheduled = true;
    queueMicrotask(() => {
      run.wakeScheduled = false;
      for (const reader of [...run.readers]) {
        try {
          reader.onAppend();
        } catch {
          // A reader's failure is its own; the others and the emitter carry on.
        }
      }
    });
  }

  function forget(run: RunBuffer): void {
    runs.delete(run.runId);
    run.forgotten = true;
    counters.evictedRuns += 1;
    counters.evictedEvents += run.next - run.first;
    run.ring = [];
    run.joined = undefined;
    run.first = run.next;
    run.heldBytes = 0;
    scheduleWake(run);
  }

  function sweep(): void {
    if (ttl === Infinity) return;
    const t = now();
    for (const run of runs.values()) {
      if (run.endedAt !== undefined && t - run.endedAt >= ttl) forget(run);
    }
  }

  function makeRoom(): void {
    while (runs.size >= maxRuns) {
      let victim: RunBuffer | undefined;
      for (const run of runs.values()) {
        if (victim === undefined) victim = run;
        else if ((run.endedAt !== undefined) !== (victim.endedAt !== undefined)) {
          if (run.endedAt !== undefined) victim = run;
        } else if ((run.endedAt ?? run.lastActivity) < (victim.endedAt ?? victim.lastActivity)) victim = run;
      }
      if (victim === undefined) return;
      forget(victim);
    }
  }

  function ensure(runId: string, lastSeq: number): RunBuffer {
    let run = runs.get(runId);
    if (run !== undefined) return run;
    sweep();
    makeRoom();
    run = {
      runId,
      ring: [],
      first: 0,
      next: 0,
      lastSeq,
      evictedThroughSeq: lastSeq,
      heldBytes: 0,
      totalBytes: 0,
      endedAt: undefined,
      lastActivity: now(),
      readers: new Set(),
      joined: undefined,
      wakeScheduled: false,
      forgotten: false,
    };
    runs.set(runId, run);
    return run;
  }

  function evictOldest(run: RunBuffer): void {
    const entry = entryAt(run, run.first);
    run.ring[run.first % run.ring.length] = undefined;
    run.first += 1;
    run.heldBytes -= entry.bytes.byteLength;
    run.evictedThroughSeq = entry.event.seq;
    counters.evictedEvents += 1;
  }

  function grow(run: RunBuffer): void {
    // While nothing was evicted absolute index i is ring slot i, so appending a slot keeps
    // the mapping; otherwise the live entries are laid out again in a larger ring.
    if (run.first === 0) {
      run.ring.push(undefined);
      return;
    }
    const size = Math.min(maxEvents, Math.max(16, run.ring.length * 2));
    const grown = new Array<Entry | undefined>(size);
    for (let i = run.first; i < run.next; i++) grown[i % size] = entryAt(run, i);
    run.ring = grown;
  }

  function append(event: ProgressEvent): void {
    const run = ensure(event.runId, 0);
    if (event.seq <= run.lastSeq || run.endedAt !== undefined) {
      counters.ignored += 1;
      return;
    }
    const bytes = encodeUtf8(formatProgressFrame(event));
    while (run.next - run.first >= maxEvents || (run.next > run.first && run.heldBytes + bytes.byteLength > maxBytes)) {
      evictOldest(run);
    }
    if (run.next - run.first >= run.ring.length) grow(run);
    run.totalBytes += bytes.byteLength;
    run.heldBytes += bytes.byteLength;
    run.ring[run.next % run.ring.length] = { event, bytes, end: run.totalBytes };
    run.next += 1;
    run.lastSeq = event.seq;
    run.lastActivity = now();
    if (isTerminalEvent(event)) run.endedAt = run.lastActivity;
    scheduleWake(run);
  }

  return {
    append,
    handle: append,
    register(runId, registerOptions) {
      ensure(runId, registerOptions?.lastSeq ?? 0);
    },
    reopen(runId) {
      const run = runs.get(runId);
      if (run !== undefined) run.endedAt = undefined;
    },
    attach(hub) {
      ensure(hub.runId, hub.lastSeq);
      return hub.add({ handle: append }, { name: 'sse-replay-log' });
    },
    has(runId) {
      sweep();
      return runs.has(runId);
    },
    events(runId, afterSeq = 0) {
      sweep();
      const run = runs.get(runId);
      if (run === undefined) return undefined;
      const out: ProgressEvent[] = [];
      for (let i = run.first; i < run.next; i++) {
        const { event } = entryAt(run, i);
        if (event.seq > afterSeq) out.push(event);
      }
      return out;
    },
    open(runId, afterSeq, onAppend) {
      sweep();
      const run = runs.get(runId);
      if (run === undefined) return { ok: false, reason: 'unknown-run', lastSeq: 0 };
      if (afterSeq === undefined) {
        const cursor = new CursorImpl(run, run.first, run.evictedThroughSeq, onAppend);
        run.readers.add(cursor);
        return { ok: true, cursor };
      }
      if (afterSeq > run.lastSeq) return { ok: false, reason: 'ahead', lastSeq: run.lastSeq };
      if (run.endedAt !== undefined && afterSeq === run.lastSeq) return { ok: false, reason: 'ended', lastSeq: run.lastSeq };
      if (afterSeq < run.evictedThroughSeq) return { ok: false, reason: 'expired', lastSeq: run.lastSeq };
      // Binary search: the first retained entry with seq > afterSeq.
      let lo = run.first;
      let hi = run.next;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (entryAt(run, mid).event.seq <= afterSeq) lo = mid + 1;
        else hi = mid;
      }
      const cursor = new CursorImpl(run, lo, afterSeq, onAppend);
      run.readers.add(cursor);
      return { ok: true, cursor };
    },
    stats() {
      let events = 0;
      let bytes = 0;
      for (const run of runs.values()) {
        events += run.next - run.first;
        bytes += run.heldBytes;
      }
      return { runs: runs.size, events, bytes, ...counters };
    },
  };
}
