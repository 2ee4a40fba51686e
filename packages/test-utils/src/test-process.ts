// A helper process for the tests (a worker, a fixture server) that speaks in lines on stdout:
// its lines are kept, a test waits on the one it expects, writes lines to its stdin, kills it.
import { spawn, type ChildProcess } from 'node:child_process';

/** Options of {@link startLineProcess}. */
export interface LineProcessOptions<T> {
  /** The process's name in errors (default the command). */
  name?: string;
  /** Reads a line as an item; `undefined` skips it (default: every line, as it is). */
  parse?: (line: string) => T | undefined;
}

/** A process started by {@link startLineProcess}. */
export interface LineProcess<T> {
  readonly child: ChildProcess;
  /** Every item read from stdout so far, in order. */
  readonly lines: T[];
  /** Resolves with the first item (past or future) that `predicate` accepts; rejects when the process exits first. */
  waitFor(predicate: (item: T) => boolean): Promise<T>;
  /** Writes `line` and a newline to the process's stdin. */
  send(line: string): void;
  /** Resolves when the process has exited. */
  exited(): Promise<void>;
  /** Sends `signal` (default `SIGKILL`) unless it has exited, and resolves when it has. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/**
 * Starts `command` with `args` and reads its stdout line by line; the last 4,000 characters of
 * stderr are kept for errors. It is killed when the test process exits.
 *
 * @example
 * ```ts
 * const worker = startLineProcess(process.execPath, ['worker.mjs'], { parse: (l) => JSON.parse(l) as { type: string } });
 * await worker.waitFor((m) => m.type === 'ready');
 * ```
 */
export function startLineProcess<T = string>(
  command: string,
  args: readonly string[],
  options: LineProcessOptions<T> = {},
): LineProcess<T> {
  const name = options.name ?? command;
  const parse = options.parse ?? ((line: string) => line as T);
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  live.add(child);
  const lines: T[] = [];
  let waiters: { predicate: (item: T) => boolean; resolve: (item: T) => void; reject: (e: Error) => void }[] = [];
  let stderr = '';
  let buffer = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const item = parse(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
      if (item === undefined) continue;
      lines.push(item);
      waiters = waiters.filter((w) => {
        if (!w.predicate(item)) return true;
        w.resolve(item);
        return false;
      });
    }
  });
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      live.delete(child);
      for (const w of waiters) w.reject(new Error(`${name} exited (${String(code ?? signal)}) before the awaited line:\n${stderr}`));
      waiters = [];
      resolve();
    }),
  );
  const gone = (): boolean => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    lines,
    waitFor(predicate) {
      const found = lines.find(predicate);
      if (found !== undefined) return Promise.resolve(found);
      if (gone()) return Promise.reject(new Error(`${name} already exited:\n${stderr}`));
      return new Promise((resolve, reject) => waiters.push({ predicate, resolve, reject }));
    },
    send(line) {
      child.stdin.write(`${line}\n`);
    },
    exited: () => exit,
    async kill(signal = 'SIGKILL') {
      if (!gone()) child.kill(signal);
      await exit;
    },
  };
}
