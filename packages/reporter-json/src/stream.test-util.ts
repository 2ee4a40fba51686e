// Real Node streams for the reporter's tests: one that keeps what it gets, one whose
// writes finish only when the test says so (a consumer that is slow, on demand).
import { Writable } from 'node:stream';

/** A Writable that keeps every chunk and accepts at once. */
export function memoryStream(): { stream: Writable; text: () => string; lines: () => string[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  const text = (): string => chunks.join('');
  return { stream, text, lines: () => text().split('\n').slice(0, -1) };
}

/** Lets the stream machinery run its deferred work (`drain`, `close`, `error`). */
export function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A Writable with a small `highWaterMark` whose writes complete only when `release()`
 * is called, so backpressure happens exactly when a test wants it.
 */
export function gatedStream(highWaterMark: number): {
  stream: Writable;
  chunks: string[];
  /** Completes every pending write, turn by turn, until the stream is idle. */
  release: () => Promise<void>;
} {
  const chunks: string[] = [];
  const pending: (() => void)[] = [];
  const stream = new Writable({
    highWaterMark,
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      chunks.push(String(chunk));
      pending.push(() => {
        callback();
      });
    },
  });
  const release = async (): Promise<void> => {
    await turn();
    while (pending.length > 0) {
      pending.shift()?.();
      await turn();
    }
  };
  return { stream, chunks, release };
}
