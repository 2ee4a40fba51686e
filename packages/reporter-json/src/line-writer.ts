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
  /** Lines waiting for `drain`. */
  buffered: number;
  /** UTF-8 bytes of the lines waiting for `drain`. */
  bufferedBytes: number;
  /** True once the consumer went away or the writer was closed: nothing more is written. */
  stopped: boolean;
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
 * Writes whole lines to a stream without ever throwing or blocking: one `write()` per
 * line (or per batch of whole lines after a `drain`), a bounded buffer while the stream
 * is full that drops its oldest lines when over the bound, and a quiet stop — reported
 * once — when the consumer goes away.
 */
export class LineWriter {
  readonly #stream: LineStream;
  readonly #options: LineWriterOptions;
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

  constructor(stream: LineStream, options: LineWriterOptions) {
    this.#stream = stream;
    this.#options = options;
    // Without an 'error' listener an EPIPE on a Node stream is an uncaught exception.
    stream.on('error', this.#onError);
    stream.on('close', this.#onClose);
  }

  /** Writes one line; `line` must not contain a newline (it is added here). */
  write(line: string): void {
    if (!this.#accepting) this.#dropped += 1;
    else if (this.#waiting) this.#enqueue(`${line}\n`);
    else this.#send(`${line}\n`, 1);
  }

  /** Counts a line that could not be encoded as dropped. */
  skip(): void {
    this.#dropped += 1;
  }

  stats(): LineWriterStats {
    return {
      written: this.#written,
      dropped: this.#dropped,
      buffered: this.#queue.length - this.#head,
      bufferedBytes: this.#bufferedBytes,
      stopped: !this.#accepting,
    };
  }

  /** Resolves once nothing is buffered: every line went to the stream, or the consumer is gone. */
  flush(): Promise<void> {
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
    this.#dropped += this.#queue.length - this.#head;
    this.#clearQueue();
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
