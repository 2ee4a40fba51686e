import {
  isTerminalEvent,
  type InternalErrorContext,
  type ProgressEvent,
  type ProgressReporter,
  type RedactOptions,
} from '@headway/protocol';
import { JSONReporterError } from './json-reporter-error.js';
import { createLineEncoder, type LineEncoder } from './line-encoder.js';
import { LineWriter, type LineStream, type LineWriterStats } from './line-writer.js';

/** Where a failure the reporter survived happened: `write`, the consumer went away. */
export interface JSONReporterErrorContext extends InternalErrorContext {
  readonly where: 'write';
}

/** Options of {@link JSONReporter}. */
export interface JSONReporterOptions {
  /** Where lines go (default `process.stdout`). */
  stream?: LineStream;
  /**
   * Redaction applied to every value before it is written (protocol's `redact`): key
   * paths such as `args.apiKey`, values under secret-named keys, and secret-shaped text
   * (API keys, bearer tokens, private keys, …). On by default with the built-in
   * detectors; `false` writes values exactly as given.
   */
  redact?: RedactOptions | false;
  /**
   * Called once when the consumer goes away (EPIPE, a closed, ended or destroyed stream);
   * after that nothing more is written. Errors it throws are ignored.
   */
  onInternalError?: (error: JSONReporterError, context: JSONReporterErrorContext) => void;
  /** Bytes (UTF-8) buffered while the stream is full before the oldest lines are dropped (default 1 MiB). */
  maxBufferedBytes?: number;
  /** Lines buffered while the stream is full before the oldest are dropped (default 10 000). */
  maxBufferedLines?: number;
}

/** Counters of a {@link JSONReporter}. */
export type JSONReporterStats = LineWriterStats;

const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;
const DEFAULT_MAX_BUFFERED_LINES = 10_000;

function limit(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new JSONReporterError('REPORTER_JSON_INVALID_OPTIONS', `JSONReporter: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/**
 * A progress reporter that writes one JSON object per line, for programs and pipelines
 * that read a run's progress (`| jq`, a log shipper, a parent process).
 *
 * The seven {@link ProgressReporter} methods write fixed shapes, values unchanged:
 * `{"event":"start","task":…}`, `{"event":"progress","pct":…,"label":…}`,
 * `{"event":"tool_start","tool":…}`, `{"event":"tool_done","tool":…,"summary":…}`,
 * `{"event":"iteration","current":…,"max":…}`, `{"event":"complete","summary":…}`,
 * `{"event":"error","error":…}`. `handle(event)` writes the {@link ProgressEvent} itself,
 * which `parseProgressEvent` reads back.
 *
 * It never throws into, or blocks, its caller. The lines of one turn of the event loop go out
 * together, in order, as one `write()` of whole lines (never partial or interleaved) when the
 * turn ends (`setImmediate`), or sooner: as soon as they reach the stream's high-water mark,
 * on `flush()` or `close()`, on a run's terminal event (`run.finished`, `run.error`,
 * `run.cancelled`: nothing follows it), and on `process.exit()`. While the stream is full lines wait in a
 * bounded buffer whose oldest lines are dropped and counted (`dropped`); when the consumer
 * goes away it stops quietly and calls `onInternalError` once.
 *
 * @example
 * ```ts
 * import { createProgressHub } from '@headway/protocol';
 * import { JSONReporter } from '@headway/reporter-json';
 *
 * const reporter = new JSONReporter({ onInternalError: (e) => console.error(e.message) });
 * reporter.onStart('Summarize the README file'); // {"event":"start","task":"Summarize the README file"}
 * reporter.onIteration(0, 10); // {"event":"iteration","current":0,"max":10}
 *
 * const hub = createProgressHub({ runId: 'run-1' });
 * hub.add(reporter); // every event as one line
 * hub.emit({ type: 'progress', percent: 45, message: 'Analyzing input' });
 * ```
 */
export class JSONReporter implements ProgressReporter {
  readonly #encoder: LineEncoder;
  readonly #writer: LineWriter;

  /**
   * @throws {JSONReporterError} `REPORTER_JSON_INVALID_OPTIONS` for a bad buffer limit.
   * @throws {HeadwayError} `REDACT_INVALID_PATH` for a redaction path that cannot be parsed.
   */
  constructor(options: JSONReporterOptions = {}) {
    const maxBufferedBytes = limit('maxBufferedBytes', options.maxBufferedBytes, DEFAULT_MAX_BUFFERED_BYTES);
    const maxBufferedLines = limit('maxBufferedLines', options.maxBufferedLines, DEFAULT_MAX_BUFFERED_LINES);
    this.#encoder = createLineEncoder(options.redact ?? {});
    this.#writer = new LineWriter(options.stream ?? process.stdout, {
      maxBufferedBytes,
      maxBufferedLines,
      onWriteError: options.onInternalError,
    });
  }

  /** Writes `{"event":"start","task":…}`. */
  onStart(task: string): void {
    this.#write(() => this.#encoder.start(task));
  }

  /** Writes `{"event":"progress","pct":…,"label":…}`. */
  onProgress(pct: number, label: string): void {
    this.#write(() => this.#encoder.progress(pct, label));
  }

  /** Writes `{"event":"tool_start","tool":…}`. */
  onToolStart(name: string): void {
    this.#write(() => this.#encoder.toolStart(name));
  }

  /** Writes `{"event":"tool_done","tool":…,"summary":…}`. */
  onToolDone(name: string, summary: string): void {
    this.#write(() => this.#encoder.toolDone(name, summary));
  }

  /** Writes `{"event":"iteration","current":…,"max":…}`; `current` is zero-based, as given. */
  onIteration(i: number, maxIterations: number): void {
    this.#write(() => this.#encoder.iteration(i, maxIterations));
  }

  /** Writes `{"event":"complete","summary":…}`. */
  onComplete(summary: string): void {
    this.#write(() => this.#encoder.complete(summary));
  }

  /** Writes `{"event":"error","error":…}`. */
  onError(error: string): void {
    this.#write(() => this.#encoder.error(error));
  }

  /**
   * Writes the event itself as one line (a progress hub calls this for every event).
   * A value that is not an object is not written; it counts as dropped. A run's terminal event
   * hands the lines held for this turn, its own last, to the stream at once.
   */
  handle(event: ProgressEvent): void {
    // The same as #write, without a closure: a hub calls this for every event of a run.
    let line: string | undefined;
    let terminal: boolean;
    try {
      line = this.#encoder.event(event);
      terminal = isTerminalEvent(event);
    } catch {
      this.#writer.skip();
      return;
    }
    if (line === undefined) this.#writer.skip();
    else this.#writer.write(line);
    // Nothing follows a run's terminal event: its lines go out now, not when the turn ends.
    if (terminal) this.#writer.release();
  }

  /**
   * Writes the line `encode` makes. A line that is not an object (from an untyped caller, or an
   * unreadable proxy the redactor replaced whole) is no event, and one that cannot be made is
   * not written: either counts as dropped.
   */
  #write(encode: () => string | undefined): void {
    try {
      const line = encode();
      if (line === undefined) this.#writer.skip();
      else this.#writer.write(line);
    } catch {
      this.#writer.skip();
    }
  }

  /** Lines dropped so far: buffer overflow under backpressure, or written after the consumer went away. */
  get dropped(): number {
    return this.#writer.stats().dropped;
  }

  /** Lines written, dropped and waiting, and whether writing has stopped. */
  stats(): JSONReporterStats {
    return this.#writer.stats();
  }

  /**
   * Hands the lines held for this turn to the stream at once (synchronously, before it
   * returns), then resolves once every buffered line was handed to the stream, or the
   * consumer is gone; never rejects. It waits as long as the stream takes to drain: race it with a timer of
   * your own if the reader may hang.
   */
  flush(): Promise<void> {
    return this.#writer.flush();
  }

  /**
   * Stops writing: later calls are dropped, held and buffered lines still go out (the held
   * ones synchronously, before it returns), then the
   * reporter's listeners are removed from the stream (from then on its errors are the
   * stream owner's again). Use it when done with a reporter on a long-lived stream.
   */
  close(): Promise<void> {
    return this.#writer.close();
  }
}
