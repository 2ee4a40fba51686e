import type { TerminalStream } from './terminal-stream.js';

/**
 * Every byte the reporter writes goes through here, so that a broken or stuck stream can
 * never throw into, crash or grow the memory of the program being reported on.
 */
export class TerminalOutput {
  private closed = false;
  private dropped = 0;
  private listening = false;
  private readonly onStreamError = (error: unknown): void => {
    this.fail(error);
  };

  constructor(
    readonly stream: TerminalStream,
    private readonly maxBufferedBytes: number,
    private readonly reportError: (error: unknown) => void,
  ) {}

  /** Writes `text`; false when it was dropped (stream failed, or backed up past the bound). */
  write(text: string): boolean {
    if (this.closed || text === '') return false;
    this.listen();
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

  /** Stops listening for stream errors; later writes still go through the same guards. */
  release(): void {
    if (!this.listening) return;
    this.listening = false;
    this.stream.off?.('error', this.onStreamError);
  }

  private listen(): void {
    // Without a listener, an EPIPE on a closed pipe would be an uncaught 'error' event.
    if (this.listening || this.closed || typeof this.stream.on !== 'function') return;
    this.listening = true;
    this.stream.on('error', this.onStreamError);
  }

  private fail(error: unknown): void {
    if (this.closed) return;
    this.closed = true;
    this.reportError(error);
  }
}
