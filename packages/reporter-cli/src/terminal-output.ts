import type { TerminalStream } from './terminal-stream.js';

// One 'error' listener per stream, however many reporters write to it: a listener per
// reporter on a long-lived stream like process.stderr would pile up run after run.
const watched = new WeakSet<object>();
const failures = new WeakMap<object, unknown>();

function watch(stream: TerminalStream): void {
  if (watched.has(stream) || typeof stream.on !== 'function') return;
  watched.add(stream);
  // Without a listener, an EPIPE on a closed pipe would be an uncaught 'error' event.
  stream.on('error', (error: unknown) => {
    if (!failures.has(stream)) failures.set(stream, error);
  });
}

/**
 * Every byte the reporter writes goes through here, so that a broken or stuck stream can
 * never throw into, crash or grow the memory of the program being reported on.
 */
export class TerminalOutput {
  private closed = false;
  private dropped = 0;

  constructor(
    readonly stream: TerminalStream,
    private readonly maxBufferedBytes: number,
    private readonly reportError: (error: unknown) => void,
  ) {
    watch(stream);
  }

  /** Writes `text`; false when it was dropped (stream failed, or backed up past the bound). */
  write(text: string): boolean {
    if (this.closed || text === '') return false;
    if (failures.has(this.stream)) {
      this.fail(failures.get(this.stream));
      return false;
    }
    const buffered = this.stream.writableLength;
    if (typeof buffered === 'number' && buffered > this.maxBufferedBytes) {
      this.dropped += 1;
      return false;
    }
    try {
      this.stream.write(text);
      return true;
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  /** Writes dropped since the last call (and resets the count). */
  takeDropped(): number {
    const n = this.dropped;
    this.dropped = 0;
    return n;
  }

  private fail(error: unknown): void {
    if (this.closed) return;
    this.closed = true;
    this.reportError(error);
  }
}
