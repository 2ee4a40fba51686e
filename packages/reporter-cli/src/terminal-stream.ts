/**
 * What the reporter needs of its output: `process.stderr`, `process.stdout`, a
 * `tty.WriteStream` or any writable with `write(string)`. `isTTY`, `columns`, `rows`,
 * `getWindowSize()`, `writableLength` and the `resize`/`error` events are used when present.
 */
export interface TerminalStream {
  write(chunk: string): unknown;
  readonly isTTY?: boolean | undefined;
  readonly columns?: number | undefined;
  readonly rows?: number | undefined;
  readonly writableLength?: number | undefined;
  /** A TTY's size asked of the terminal now (`tty.WriteStream`); fresher than `columns` right after a resize. */
  getWindowSize?(): [number, number];
  on?(event: 'resize' | 'error', listener: (...args: unknown[]) => void): unknown;
  off?(event: 'resize' | 'error', listener: (...args: unknown[]) => void): unknown;
}
