import { watch, type FSWatcher } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { systemClock, type Clock } from '@headway/protocol';
import { CliError } from '../cli-error.js';

/** A line longer than the limit: skipped unread up to its newline, then reported as this. */
export const TOO_LONG: unique symbol = Symbol('line too long');

/** Options of {@link readLines}. */
export interface ReadLinesOptions {
  /** Keep reading as the file grows, until `stop()` says so (not for stdin, which ends by itself). */
  follow?: boolean;
  /** Asked after each batch of lines while following: true ends the reading. */
  stop?: () => boolean;
  /** Longest line kept, in characters (default 4 MiB). */
  maxLineLength?: number;
  /** How often a followed file is checked when no change is signalled (default 250 ms). */
  pollMs?: number;
  /** Ends a follow early (Ctrl-C). */
  signal?: AbortSignal;
  /** Timers of the poll (default protocol's `systemClock`). */
  clock?: Clock;
}

const CHUNK = 64 * 1024;

/**
 * The lines of a file, or of stdin when `path` is `-`, as they can be read: a last line without
 * its newline is given at the end. A line over `maxLineLength` is given as {@link TOO_LONG}.
 *
 * @throws {CliError} `CLI_FILE_NOT_FOUND` or `CLI_FILE_UNREADABLE` naming the path.
 */
export async function* readLines(path: string, options: ReadLinesOptions = {}): AsyncGenerator<string | typeof TOO_LONG> {
  const max = options.maxLineLength ?? 4 * 1024 * 1024;
  const clock = options.clock ?? systemClock;
  const splitter = new LineSplitter(max);
  if (path === '-') {
    try {
      for await (const chunk of process.stdin) yield* splitter.push(chunk as Buffer);
    } catch (error) {
      // Ctrl-C destroys stdin to stop the read: that is the end of the input, not a failure.
      if (options.signal?.aborted !== true) throw error;
    }
    yield* splitter.end();
    return;
  }
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') throw new CliError('CLI_FILE_NOT_FOUND', `${path}: no such file`, { cause: error });
    throw new CliError('CLI_FILE_UNREADABLE', `${path}: cannot be read (${String(code ?? error)})`, { cause: error });
  }
  let watcher: FSWatcher | undefined;
  let wake: (() => void) | undefined;
  try {
    const buffer = Buffer.alloc(CHUNK);
    let position = 0;
    for (;;) {
      let bytes: number;
      try {
        ({ bytesRead: bytes } = await handle.read(buffer, 0, CHUNK, position));
      } catch (error) {
        throw new CliError('CLI_FILE_UNREADABLE', `${path}: cannot be read (${String((error as { code?: unknown }).code ?? error)})`, {
          cause: error,
        });
      }
      if (bytes > 0) {
        position += bytes;
        yield* splitter.push(buffer.subarray(0, bytes));
        continue;
      }
      if (options.follow !== true || options.stop?.() === true || options.signal?.aborted === true) break;
      // Wait for the file to change (or the poll interval, as some file systems signal nothing).
      if (watcher === undefined) {
        try {
          watcher = watch(path, () => wake?.());
          watcher.unref();
        } catch {
          // No change notifications here: polling alone.
        }
      }
      await new Promise<void>((resolve) => {
        const timer = clock.setTimeout(done, options.pollMs ?? 250);
        const onAbort = (): void => {
          done();
        };
        options.signal?.addEventListener('abort', onAbort, { once: true });
        wake = done;
        function done(): void {
          clock.clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
          wake = undefined;
          resolve();
        }
      });
      const { size } = await handle.stat();
      // A file truncated and rewritten: read it again from the start.
      if (size < position) position = 0;
    }
    yield* splitter.end();
  } finally {
    watcher?.close();
    await handle.close();
  }
}

/** Splits decoded text into lines, without ever holding more than `max` characters of one line. */
class LineSplitter {
  readonly #decoder = new StringDecoder('utf8');
  readonly #max: number;
  #rest = '';
  #skipping = false;

  constructor(max: number) {
    this.#max = max;
  }

  *push(chunk: Buffer): Generator<string | typeof TOO_LONG> {
    const text = this.#decoder.write(chunk);
    let start = 0;
    let nl = text.indexOf('\n');
    while (nl !== -1) {
      if (this.#skipping) {
        this.#skipping = false;
        yield TOO_LONG;
      } else {
        const line = this.#rest + text.slice(start, nl);
        this.#rest = '';
        yield line.length > this.#max ? TOO_LONG : line;
      }
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    if (!this.#skipping) {
      this.#rest += text.slice(start);
      if (this.#rest.length > this.#max) {
        this.#skipping = true;
        this.#rest = '';
      }
    }
  }

  *end(): Generator<string | typeof TOO_LONG> {
    const tail = this.#rest + this.#decoder.end();
    this.#rest = '';
    if (this.#skipping) {
      this.#skipping = false;
      yield TOO_LONG;
    } else if (tail !== '') {
      yield tail;
    }
  }
}
