import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A fixture process speaking JSON lines on stdout. */
export interface Fixture {
  readonly child: ChildProcess;
  readonly messages: Record<string, unknown>[];
  /** Resolves with the first message (past or future) that `predicate` accepts. */
  waitFor(predicate: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  send(line: string): void;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Starts `file` (a .fixture.ts beside this one) under tsx with `args` as JSON. */
export function startFixture(file: string, args: object): Fixture {
  const path = fileURLToPath(new URL(file, import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', path, JSON.stringify(args)], { stdio: ['pipe', 'pipe', 'pipe'] });
  live.add(child);
  const messages: Record<string, unknown>[] = [];
  let waiters: {
    predicate: (m: Record<string, unknown>) => boolean;
    resolve: (m: Record<string, unknown>) => void;
    reject: (e: Error) => void;
  }[] = [];
  let stderr = '';
  let buffer = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      messages.push(message);
      waiters = waiters.filter((w) => {
        if (!w.predicate(message)) return true;
        w.resolve(message);
        return false;
      });
    }
  });
  child.on('exit', (code, signal) => {
    live.delete(child);
    for (const w of waiters) w.reject(new Error(`${file} exited (${String(code ?? signal)}) before the awaited message:\n${stderr}`));
    waiters = [];
  });
  return {
    child,
    messages,
    waitFor(predicate) {
      const found = messages.find(predicate);
      if (found !== undefined) return Promise.resolve(found);
      if (child.exitCode !== null || child.signalCode !== null) return Promise.reject(new Error(`${file} already exited:\n${stderr}`));
      return new Promise((resolve, reject) => waiters.push({ predicate, resolve, reject }));
    },
    send(line) {
      child.stdin.write(`${line}\n`);
    },
    async kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) =>
        child.once('exit', () => {
          resolve();
        }),
      );
      child.kill(signal);
      await exited;
    },
  };
}
