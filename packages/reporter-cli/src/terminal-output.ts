import type { TerminalStream } from './terminal-stream.js';

/** What every reporter writing to one stream shares: whether it is watched, and its first failure. */
interface StreamState {
  listening: boolean;
  failed: boolean;
  error: unknown;
}

// One 'error' listener per stream, however many reporters write to it: a listener per
// reporter on a long-lived stream like process.stderr would pile up run after run.
const states = new WeakMap<object, StreamState>();

/** The stream's shared state, its listener added on first sight: a write then reads a field, not a map. */
function watch(stream: TerminalStream): StreamState {
  let state = states.get(stream);
  if (state === undefined) {
    state = { listening: false, failed: false, error: undefined };
    states.set(stream, state);
  }
  if (state.listening || typeof stream.on !== 'function') return state;
  state.listening = true;
  const shared = state;
  // Without a listener, an EPIPE on a closed pipe would be an uncaught 'error' event.
  stream.on('error', (error: unknown) => {
    if (shared.failed) return;
    shared.failed = true;
    shared.error = error;
  });
  return state;
}

/**
 * Every byte the reporter writes goes through here, so that a broken or stuck stream can
 * never throw into, crash or grow the memory of the program being reported on.
 */
export class TerminalOutput {
  private closed = false;
  private dropped = 0;
  private readonly shared: StreamState;

  constructor(
    readonly stream: TerminalStream,
    private readonly maxBufferedBytes: number,
    private readonly reportError: (error: unknown) => void,
  ) {
    this.shared = watch(stream);
  }

  /** Writes `text`; false when it was dropped (stream failed, or backed up past the bound). */
  write(text: string): boolean {
    if (this.closed || text === '') return false;
    if (this.shared.failed) {
      this.fail(this.shared.error);
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
