import {
  createRedactor,
  type Clock,
  type InternalErrorContext,
  type OnInternalError,
  type ProgressEvent,
  type ProgressReporter,
  type RedactOptions,
  type Redactor,
  systemClock,
} from '@headway/protocol';
import { adoptThenable, describeThrown } from '@headway/protocol/internal';
import type { AuditBus } from './audit-bus.js';
import { AuditError } from './audit-error.js';
import { sealBuiltEvent, toJson, type AuditDetails, type AuditEvent, type AuditEventType } from './audit-event.js';
import { progressEventToAudit } from './progress-event-to-audit.js';

/** Where an internal failure happened, passed to `onInternalError`. */
export interface AuditReporterErrorContext extends InternalErrorContext {
  /** `build`: mapping, redacting or serialising; `publish`: the bus threw or rejected; `queue`: events were dropped. */
  where: 'build' | 'publish' | 'queue';
  /** The audit event type being published, when known. */
  eventType?: string;
}

/** Options of {@link AuditReporter}. */
export interface AuditReporterOptions {
  sessionId: string;
  taskId: string;
  /** Receives every event, already redacted. */
  bus: AuditBus;
  /**
   * Extra redaction: key paths into the audit event (`detail.args.apiKey`), a censor, and
   * whether secret-named keys are censored (default true). The built-in secret detectors
   * (API keys, bearer tokens, private keys, …) always run.
   */
  redact?: RedactOptions;
  /** Called with every failure the reporter suppressed; its own errors are ignored. */
  onInternalError?: OnInternalError<AuditReporterErrorContext>;
  /**
   * Clock for the seven methods' `timestamp` and the `flush` timeout (default protocol's
   * `systemClock`); `handle` uses the event's `ts`.
   */
  clock?: Clock;
  /**
   * Events that may wait while an async bus is busy, before the oldest are dropped
   * (default 1000). Events reach a bus one at a time, in order.
   */
  queueLimit?: number;
  /** Also audit `text.delta` events as `agent.progress.text` (default false). */
  textDeltas?: boolean;
}

/** Options of {@link AuditReporter.flush}. */
export interface AuditFlushOptions {
  /** Give up waiting after this long; the promise then resolves `false`. */
  timeoutMs?: number;
}

function isTimestamp(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function checkOptions(options: AuditReporterOptions): void {
  const problems: string[] = [];
  const given = options as Partial<AuditReporterOptions> | undefined;
  if (typeof given?.sessionId !== 'string') problems.push('sessionId: expected a string');
  if (typeof given?.taskId !== 'string') problems.push('taskId: expected a string');
  if (typeof (given?.bus as Partial<AuditBus> | undefined)?.publish !== 'function')
    problems.push('bus: expected an object with publish(event)');
  const limit = given?.queueLimit;
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) problems.push('queueLimit: expected a positive integer');
  if (problems.length > 0) {
    const issues = problems.map((p) => ({ path: p.slice(0, p.indexOf(':')), message: p.slice(p.indexOf(':') + 2) }));
    throw new AuditError('AUDIT_INVALID_OPTIONS', `Invalid AuditReporter options: ${problems.join('; ')}`, { issues });
  }
}

/**
 * A progress reporter that writes an audit trail: each of the seven reporter methods, and
 * each event of the richer stream (`handle`), becomes one {@link AuditEvent} published to
 * a bus, after redaction.
 *
 * It never throws into, or waits on, its caller: a failing bus or a bad value is counted in
 * {@link AuditReporter.failures} and passed to `onInternalError`. An async bus receives
 * events one at a time, in order; while it is busy at most `queueLimit` events wait.
 *
 * @example
 * ```ts
 * const bus = new SqliteAuditBus('audit.db');
 * const reporter = new AuditReporter({ sessionId: 's1', taskId: 't1', bus, redact: { paths: ['detail.args.apiKey'] } });
 * reporter.onStart('Summarize the README file');
 * reporter.onIteration(0, 10);
 * hub.add(reporter); // or feed it the event stream: it has handle(event)
 * bus.query({ sessionId: 's1' });
 * ```
 */
export class AuditReporter implements ProgressReporter {
  readonly sessionId: string;
  readonly taskId: string;
  readonly #bus: AuditBus;
  readonly #redact: Redactor;
  readonly #ids: { sessionId: string; taskId: string };
  readonly #onInternalError: AuditReporterOptions['onInternalError'];
  readonly #clock: Clock;
  readonly #queueLimit: number;
  readonly #textDeltas: boolean;
  #failures = 0;
  #dropped = 0;
  #published = 0;
  #busy = false;
  #overflowing = false;
  #queue: AuditEvent[] = [];
  #head = 0;
  #idleWaiters: (() => void)[] = [];

  /**
   * @throws {AuditError} `AUDIT_INVALID_OPTIONS` for a missing id or bus.
   * @throws {HeadwayError} `REDACT_INVALID_PATH` for a redaction path that cannot be parsed.
   */
  constructor(options: AuditReporterOptions) {
    checkOptions(options);
    this.sessionId = options.sessionId;
    this.taskId = options.taskId;
    this.#bus = options.bus;
    this.#redact = createRedactor(options.redact);
    // Ids are written with every event, so they go through the same redaction (once).
    this.#ids = this.#redact({ sessionId: options.sessionId, taskId: options.taskId });
    this.#onInternalError = options.onInternalError;
    this.#clock = options.clock ?? systemClock;
    this.#queueLimit = options.queueLimit ?? 1000;
    this.#textDeltas = options.textDeltas ?? false;
  }

  /** Failures suppressed so far: build errors, bus throws and bus rejections. */
  get failures(): number {
    return this.#failures;
  }

  /** Events dropped because an async bus fell more than `queueLimit` events behind. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Events the bus accepted (returned, or resolved). */
  get published(): number {
    return this.#published;
  }

  /** Publishes `agent.progress.start {task}`. */
  onStart(task: string): void {
    this.#record('agent.progress.start', { task });
  }

  /** Publishes `agent.progress.update {pct, label}`. */
  onProgress(pct: number, label: string): void {
    this.#record('agent.progress.update', { pct, label });
  }

  /** Publishes `agent.progress.tool_start {tool}`. */
  onToolStart(name: string): void {
    this.#record('agent.progress.tool_start', { tool: name });
  }

  /** Publishes `agent.progress.tool_done {tool, summary}`. */
  onToolDone(name: string, summary: string): void {
    this.#record('agent.progress.tool_done', { tool: name, summary });
  }

  /** Publishes `agent.progress.iteration {iteration, max}`; `i` is zero-based and kept as is. */
  onIteration(i: number, maxIterations: number): void {
    this.#record('agent.progress.iteration', { iteration: i, max: maxIterations });
  }

  /** Publishes `agent.progress.complete {summary}`. */
  onComplete(summary: string): void {
    this.#record('agent.progress.complete', { summary });
  }

  /** Publishes `agent.progress.error {error}`. */
  onError(error: string): void {
    this.#record('agent.progress.error', { error });
  }

  /**
   * Publishes one event of the richer stream (durations, previews, args, limits,
   * wind-down, checkpoints, reports), timestamped with the event's `ts`. This makes the
   * reporter a progress-hub sink: `hub.add(reporter)`.
   */
  handle(event: ProgressEvent): void {
    let record;
    try {
      if (!isTimestamp((event as Partial<ProgressEvent> | null)?.ts)) {
        throw new AuditError('AUDIT_INVALID_EVENT', 'handle: the event has no valid `ts` (events come stamped from a progress hub)');
      }
      record = progressEventToAudit(event, this.#textDeltas);
    } catch (error) {
      this.#fail(error, { where: 'build' });
      return;
    }
    if (record !== undefined) this.#publish(record.eventType, record.detail, event.ts);
  }

  /** Resolves when every queued event has reached the bus (`false` if `timeoutMs` passed first). */
  flush(options: AuditFlushOptions = {}): Promise<boolean> {
    if (!this.#busy) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const clock = this.#clock;
      let timer: unknown;
      const done = (): void => {
        if (timer !== undefined) clock.clearTimeout(timer);
        resolve(true);
      };
      this.#idleWaiters.push(done);
      if (options.timeoutMs !== undefined) {
        timer = clock.setTimeout(() => {
          this.#idleWaiters = this.#idleWaiters.filter((w) => w !== done);
          resolve(false);
        }, options.timeoutMs);
      }
    });
  }

  #record<T extends AuditEventType>(eventType: T, detail: AuditDetails[T]): void {
    let timestamp: number;
    try {
      timestamp = this.#clock.now();
      if (!isTimestamp(timestamp))
        throw new AuditError('AUDIT_INVALID_OPTIONS', `now() returned ${describeThrown(timestamp)}, not epoch milliseconds`);
    } catch (error) {
      this.#fail(error, { where: 'build', eventType });
      return;
    }
    this.#publish(eventType, detail, timestamp);
  }

  #publish(eventType: string, detail: object, timestamp: number): void {
    let event: AuditEvent;
    try {
      // Redact first, then reduce to plain JSON: every bus, including a user's own, gets the
      // same safe, serialisable copy, and nothing the caller still holds is shared. Only the
      // detail varies per event; the ids were redacted once, in the constructor.
      const redacted = this.#redact({ detail });
      const plain = JSON.parse(toJson(redacted.detail)) as Record<string, unknown>;
      event = sealBuiltEvent({
        eventType,
        category: 'agent',
        result: 'allow',
        sessionId: this.#ids.sessionId,
        taskId: this.#ids.taskId,
        timestamp,
        detail: plain,
      });
    } catch (error) {
      this.#fail(error, { where: 'build', eventType });
      return;
    }
    if (this.#busy) this.#enqueue(event);
    else this.#deliver(event);
  }

  #deliver(event: AuditEvent): void {
    let result: unknown;
    try {
      result = this.#bus.publish(event);
    } catch (error) {
      this.#fail(error, { where: 'publish', eventType: event.eventType });
      return;
    }
    // What a bus returns is untrusted: a `then` getter that throws, a revoked proxy or a `then`
    // that throws or calls back twice all become one settled promise here.
    const pending = adoptThenable(result);
    if (pending === undefined) {
      this.#published += 1;
      return;
    }
    this.#busy = true;
    pending.then(
      () => {
        this.#published += 1;
        this.#settle();
      },
      (error: unknown) => {
        this.#fail(error, { where: 'publish', eventType: event.eventType });
        this.#settle();
      },
    );
  }

  #settle(): void {
    this.#busy = false;
    this.#drain();
  }

  #drain(): void {
    while (this.#head < this.#queue.length) {
      const next = this.#queue[this.#head];
      this.#head += 1;
      if (next !== undefined) this.#deliver(next);
      if (this.#busy) return;
    }
    this.#queue = [];
    this.#head = 0;
    this.#overflowing = false;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const w of waiters) w();
  }

  #enqueue(event: AuditEvent): void {
    if (this.#queue.length - this.#head >= this.#queueLimit) {
      this.#head += 1;
      this.#dropped += 1;
      if (!this.#overflowing) {
        // Reported once per backlog, not once per event: the count is in `dropped`.
        this.#overflowing = true;
        this.#fail(
          new AuditError('AUDIT_EVENTS_DROPPED', `The audit bus is more than ${this.#queueLimit} events behind; dropping the oldest`),
          { where: 'queue', eventType: event.eventType },
          false,
        );
      }
    }
    this.#queue.push(event);
    if (this.#head > this.#queueLimit) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
  }

  #fail(error: unknown, context: AuditReporterErrorContext, count = true): void {
    if (count) this.#failures += 1;
    const handler = this.#onInternalError;
    if (handler === undefined) return;
    try {
      handler(error, context);
    } catch {
      // The error callback may not break the run either.
    }
  }
}
