import { JSONReporterError } from './json-reporter-error.js';

/**
 * What a {@link JSONReporter} writes to: any Node `Writable` (`process.stdout`, a file, a
 * socket, a child's stdin) or anything shaped like one, such as pino's `SonicBoom`.
 * `write()` returning false means "wait for `drain`", as in Node's streams.
 */
export interface LineStream {
  write(chunk: string): boolean;
  on(event: 'drain' | 'error' | 'close', listener: (error?: unknown) => void): unknown;
  removeListener(event: 'drain' | 'error' | 'close', listener: (error?: unknown) => void): unknown;
  /** Node streams set this once destroyed; nothing can be written afterwards. */
  readonly destroyed?: boolean;
  /** Node streams set this once `end()` was called. */
  readonly writableEnded?: boolean;
  /** Node streams say how much they buffer before `write()` returns false; lines are held up to this many characters. */
  readonly writableHighWaterMark?: number;
}

/** Limits and callbacks of a {@link LineWriter}. */
export interface LineWriterOptions {
  maxBufferedBytes: number;
  maxBufferedLines: number;
  onWriteError: ((error: JSONReporterError, context: { where: 'write' }) => void) | undefined;
}

/** Counters of a {@link LineWriter}. */
export interface LineWriterStats {
  /** Lines handed to the stream. */
  written: number;
  /** Lines never handed to the stream: buffer overflow, or the consumer was gone. */
  dropped: number;
  /** Lines not handed to the stream yet: held for this turn of the event loop, or waiting for `drain`. */
  buffered: number;
  /** UTF-8 bytes of the `buffered` lines. */
  bufferedBytes: number;
  /** True once the consumer went away or the writer was closed: nothing more is written. */
  stopped: boolean;
}

/** What lines are held up to (UTF-16 units) when the stream does not say its `writableHighWaterMark`: Node's default. */
const DEFAULT_HOLD_LIMIT = 16 * 1024;

// Taken once: timers a test fakes later must not keep held lines from going out.
const atEndOfTurn: (fn: () => void) => NodeJS.Immediate = globalThis.setImmediate;
const cancelEndOfTurn: (handle: NodeJS.Immediate) => void = globalThis.clearImmediate;

/** Writers holding lines for the end of this turn; `process.exit()` before it writes them first. */
const holding = new Set<LineWriter>();
let exitHooked = false;

function releaseAllOnExit(): void {
  for (const writer of [...holding]) {
    try {
      writer.release();
    } catch {
      // One broken stream-like must not keep the others' lines from going out.
    }
  }
}

function holdLimitOf(stream: LineStream): number {
  try {
    const mark = stream.writableHighWaterMark;
    return typeof mark === 'number' && mark >= 0 ? mark : DEFAULT_HOLD_LIMIT;
  } catch {
    // A stream-like whose getter throws: hold what Node would.
    return DEFAULT_HOLD_LIMIT;
  }
}

function describe(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (typeof code === 'string') return code;
    if (typeof message === 'string') return message;
  }
  return String(error);
}

/**
 * Writes whole lines to a stream without ever throwing or blocking: the lines of one turn of
 * the event loop go out together as one `write()` at its end (`setImmediate`), or at once when
 * they reach the stream's high-water mark, on `flush()`/`close()`, or on `process.exit()`; a
 * bounded buffer while the stream is full that drops its oldest lines when over the bound; and
 * a quiet stop — reported once — when the consumer goes away.
 */
export class LineWriter {
  readonly #stream: LineStream;
  readonly #options: LineWriterOptions;
  /** Characters held before they go out at once (the stream's high-water mark). */
  readonly #holdLimit: number;
  /** Lines (without their newline) held for one write at the end of this turn; joined once when they go out. */
  #held: string[] = [];
  /** Characters held, newlines included. */
  #heldChars = 0;
  /** The end-of-turn write scheduled, if any. */
  #turnEnd: NodeJS.Immediate | undefined;
  /** Lines waiting for `drain`, oldest first, from `#head` on. */
  #queue: string[] = [];
  #queueBytes: number[] = [];
  #head = 0;
  #bufferedBytes = 0;
  /** `write()` returned false: later lines queue until `drain`. */
  #waiting = false;
  /** False after `close()` or once the consumer is gone. */
  #accepting = true;
  /** The consumer went away (already reported). */
  #gone = false;
  #attached = true;
  #written = 0;
  #dropped = 0;
  #idle: (() => void)[] = [];

  readonly #onDrain = (): void => {
    this.#stream.removeListener('drain', this.#onDrain);
    this.#waiting = false;
    const lines = this.#queue.length - this.#head;
    if (lines > 0 && !this.#gone) {
      // One write of whole lines: a reader never sees a partial or interleaved line.
      const chunk = this.#queue.slice(this.#head).join('');
      this.#clearQueue();
      this.#send(chunk, lines);
    }
    // #send may have found the stream full again; flush() waits for the next drain then.
    this.#settleUnlessWaiting();
  };
  readonly #onError = (error?: unknown): void => {
    this.#stop(
      new JSONReporterError(
        'REPORTER_JSON_WRITE_FAILED',
        `JSONReporter: the stream failed (${describe(error)}); no more lines will be written`,
        {
          cause: error,
        },
      ),
    );
  };
  readonly #onClose = (): void => {
    this.#stop(new JSONReporterError('REPORTER_JSON_STREAM_CLOSED', 'JSONReporter: the stream was closed; no more lines will be written'));
  };

  readonly #onTurnEnd = (): void => {
    this.#turnEnd = undefined;
    holding.delete(this);
    try {
      this.release();
    } catch {
      // Nothing may escape into the event loop: #send already turns a failing stream into a stop.
    }
  };

  constructor(stream: LineStream, options: LineWriterOptions) {
    this.#stream = stream;
    this.#options = options;
    this.#holdLimit = holdLimitOf(stream);
    // Without an 'error' listener an EPIPE on a Node stream is an uncaught exception.
    stream.on('error', this.#onError);
    stream.on('close', this.#onClose);
  }

  /**
   * Writes one line; `line` must not contain a newline (it is added here). It goes out with
   * the other lines of this turn, in order, at the end of the turn or as soon as the lines held
   * reach the stream's high-water mark.
   */
  write(line: string): void {
    if (!this.#accepting) this.#dropped += 1;
    else if (this.#waiting) this.#enqueue(`${line}\n`);
    else {
      this.#held.push(line);
      this.#heldChars += line.length + 1;
      if (this.#heldChars >= this.#holdLimit) this.release();
      else if (this.#turnEnd === undefined) {
        holding.add(this);
        if (!exitHooked) {
          exitHooked = true;
          process.on('exit', releaseAllOnExit);
        }
        this.#turnEnd = atEndOfTurn(this.#onTurnEnd);
      }
    }
  }

  /**
   * Hands the held lines to the stream now, as one write. The end-of-turn callback is cancelled
   * with them: in a loop that never leaves its microtasks (a mock model, a test) it would keep
   * this writer, its stream and every line after it alive until the loop yields.
   */
  release(): void {
    const turnEnd = this.#turnEnd;
    if (turnEnd !== undefined) {
      this.#turnEnd = undefined;
      holding.delete(this);
      cancelEndOfTurn(turnEnd);
    }
    const held = this.#held;
    if (held.length === 0) return;
    const lines = held.length;
    // An empty last item gives the chunk its final newline without another copy of it.
    held.push('');
    const chunk = held.join('\n');
    this.#held = [];
    this.#heldChars = 0;
    if (this.#gone) this.#dropped += lines;
    else this.#send(chunk, lines);
  }

  /** Counts a line that could not be encoded as dropped. */
  skip(): void {
    this.#dropped += 1;
  }

  stats(): LineWriterStats {
    return {
      written: this.#written,
      dropped: this.#dropped,
      buffered: this.#queue.length - this.#head + this.#held.length,
      bufferedBytes: this.#held.reduce((bytes, line) => bytes + Buffer.byteLength(line) + 1, this.#bufferedBytes),
      stopped: !this.#accepting,
    };
  }

  /**
   * Hands the held lines to the stream at once, then resolves once nothing is buffered: every
   * line went to the stream, or the consumer is gone.
   */
  flush(): Promise<void> {
    this.release();
    if (!this.#waiting) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /**
   * Stops accepting lines, lets the buffered ones go out, then removes this writer's
   * listeners from the stream. Resolves when done; never rejects.
   */
  async close(): Promise<void> {
    this.#accepting = false;
    await this.flush();
    if (!this.#attached) return;
    this.#attached = false;
    this.#stream.removeListener('error', this.#onError);
    this.#stream.removeListener('close', this.#onClose);
    this.#stream.removeListener('drain', this.#onDrain);
  }

  /** Hands `chunk` (whole lines, `lines` of them) to the stream. */
  #send(chunk: string, lines: number): void {
    const stream = this.#stream;
    if (stream.destroyed === true || stream.writableEnded === true) {
      this.#dropped += lines;
      this.#onClose();
      return;
    }
    let ok: boolean;
    try {
      ok = stream.write(chunk);
    } catch (error) {
      this.#dropped += lines;
      this.#onError(error);
      return;
    }
    this.#written += lines;
    if (!ok && !this.#gone) {
      this.#waiting = true;
      stream.on('drain', this.#onDrain);
    }
  }

  #enqueue(line: string): void {
    const bytes = Buffer.byteLength(line);
    const { maxBufferedBytes, maxBufferedLines } = this.#options;
    if (bytes > maxBufferedBytes) {
      this.#dropped += 1;
      return;
    }
    // Over the bound the oldest lines go: the newest state (and a run's last event) matters most.
    while (this.#queue.length - this.#head >= maxBufferedLines || this.#bufferedBytes + bytes > maxBufferedBytes) {
      this.#bufferedBytes -= this.#queueBytes[this.#head] ?? 0;
      this.#head += 1;
      this.#dropped += 1;
    }
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#queueBytes = this.#queueBytes.slice(this.#head);
      this.#head = 0;
    }
    this.#queue.push(line);
    this.#queueBytes.push(bytes);
    this.#bufferedBytes += bytes;
  }

  #clearQueue(): void {
    this.#queue = [];
    this.#queueBytes = [];
    this.#head = 0;
    this.#bufferedBytes = 0;
  }

  /** The consumer went away: drop what is buffered, write nothing more, report it once. */
  #stop(error: JSONReporterError): void {
    if (this.#gone) return;
    this.#gone = true;
    this.#accepting = false;
    this.#dropped += this.#queue.length - this.#head + this.#held.length;
    this.#clearQueue();
    this.#held = [];
    this.#heldChars = 0;
    if (this.#waiting) {
      this.#waiting = false;
      this.#stream.removeListener('drain', this.#onDrain);
    }
    this.#settle();
    try {
      this.#options.onWriteError?.(error, { where: 'write' });
    } catch {
      // The caller's handler must not reach the code that reports progress.
    }
  }

  #settleUnlessWaiting(): void {
    if (!this.#waiting) this.#settle();
  }

  #settle(): void {
    const idle = this.#idle;
    this.#idle = [];
    for (const resolve of idle) resolve();
  }
}
