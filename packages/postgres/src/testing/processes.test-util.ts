import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** A fixture process speaking lines on stdout. */
export interface Fixture {
  readonly child: ChildProcess;
  readonly lines: string[];
  /** Resolves with the first line (past or future) that `predicate` accepts. */
  waitFor(predicate: (line: string) => boolean): Promise<string>;
  send(line: string): void;
  /** Resolves when the process has exited. */
  exited(): Promise<void>;
  kill(): Promise<void>;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Bundles `worker.fixture.ts` (pg stays external) into a temp dir; returns its path and a cleanup. */
export async function bundleWorker(): Promise<{ file: string; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'headway-pg-worker-'));
  const entry = fileURLToPath(new URL('./worker.fixture.ts', import.meta.url));
  const require = createRequire(entry);
  const file = join(dir, 'worker.mjs');
  await build({
    entryPoints: [entry],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    plugins: [
      {
        name: 'pg-external',
        setup: (b) => {
          b.onResolve({ filter: /^pg$/ }, () => ({ path: require.resolve('pg'), external: true }));
        },
      },
    ],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return {
    file,
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts the bundled worker with `args`. */
export function startWorker(file: string, args: string[]): Fixture {
  const child = spawn(process.execPath, [file, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  live.add(child);
  const lines: string[] = [];
  let waiters: { predicate: (l: string) => boolean; resolve: (l: string) => void; reject: (e: Error) => void }[] = [];
  let stderr = '';
  let buffer = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
      lines.push(line);
      waiters = waiters.filter((w) => {
        if (!w.predicate(line)) return true;
        w.resolve(line);
        return false;
      });
    }
  });
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      live.delete(child);
      for (const w of waiters) w.reject(new Error(`worker exited before the awaited line:\n${lines.join('\n')}\n${stderr}`));
      waiters = [];
      resolve();
    }),
  );
  return {
    child,
    lines,
    waitFor(predicate) {
      const found = lines.find(predicate);
      if (found !== undefined) return Promise.resolve(found);
      if (child.exitCode !== null || child.signalCode !== null) return Promise.reject(new Error(`worker already exited:\n${stderr}`));
      return new Promise((resolve, reject) => waiters.push({ predicate, resolve, reject }));
    },
    send(line) {
      child.stdin.write(`${line}\n`);
    },
    exited: () => exit,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exit;
    },
  };
}
