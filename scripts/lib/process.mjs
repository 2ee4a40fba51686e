// The scripts' child processes and pools: one way to run a command and collect what it printed
// (scripts/check-docs.mjs, scripts/publish.mjs), and one way to run work at most a few at once
// (createLimit, and inPool and settleInPool on top of it: scripts/check-docs.mjs,
// scripts/check-commands.mjs, scripts/publish.mjs).
import { spawn } from 'node:child_process';

/**
 * Runs a command and resolves, never rejects, with its exit code (1 when it was killed by a signal
 * or could not start), its stdout, and its stdout and stderr together in the order they came.
 * `input` is written to its stdin (otherwise stdin is closed); past `hangGuardMs` it is killed
 * (SIGKILL) and its output says so. `onSpawn` and `onExit` are told when it starts and when it has
 * exited (before its output is complete); every other option goes to `spawn`.
 * @param {string} cmd
 * @param {readonly string[]} argv
 * @param {import('node:child_process').SpawnOptions & {
 *   input?: string,
 *   hangGuardMs?: number,
 *   onSpawn?: (child: import('node:child_process').ChildProcess) => void,
 *   onExit?: (child: import('node:child_process').ChildProcess) => void,
 * }} [options]
 * @returns {Promise<{ code: number, stdout: string, out: string }>}
 */
export function run(cmd, argv, { input, hangGuardMs, onSpawn, onExit, ...options } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { ...options, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    onSpawn?.(child);
    let out = '';
    let stdout = '';
    child.stdout.on('data', (d) => {
      out += d;
      stdout += d;
    });
    child.stderr.on('data', (d) => (out += d));
    if (input !== undefined) {
      // A command that exits without reading its input is not an error of ours.
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);
    }
    const timer =
      hangGuardMs === undefined
        ? undefined
        : setTimeout(() => {
            out += `\n(still running after ${String(hangGuardMs / 1000)} s: stopped as hung)`;
            child.kill('SIGKILL');
          }, hangGuardMs);
    let settled = false;
    const settle = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    child.on('exit', () => onExit?.(child));
    child.on('close', (code, signal) => settle({ code: code ?? (signal ? 1 : 0), stdout, out }));
    child.on('error', (error) => settle({ code: 1, stdout, out: `${out}\n${error.message}` }));
  });
}

/**
 * A limit: at most `limit` of the functions it is given run at once; the others wait their turn,
 * first come first served. Each call resolves or rejects as its function does (a function that
 * throws rejects its call); a function that ends, either way, lets the next one start.
 * @param {number} limit
 * @returns {<T>(fn: () => T | Promise<T>) => Promise<T>}
 */
export function createLimit(limit) {
  let active = 0;
  const waiting = [];
  const next = () => {
    if (active >= limit || waiting.length === 0) return;
    active += 1;
    const { fn, resolve, reject } = waiting.shift();
    new Promise((started) => started(fn())).then(resolve, reject).finally(() => {
      active -= 1;
      next();
    });
  };
  return (fn) =>
    new Promise((resolve, reject) => {
      waiting.push({ fn, resolve, reject });
      next();
    });
}

/**
 * Runs `fn` on every item, at most `limit` at once, started in item order (see createLimit), and
 * resolves with the results in item order. Rejects as soon as one rejects (the others already
 * started still run, and so do the ones waiting their turn).
 * @template T, R
 * @param {readonly T[]} items
 * @param {number} limit
 * @param {(item: T, index: number) => Promise<R>} fn
 * @returns {Promise<R[]>}
 */
export function inPool(items, limit, fn) {
  const pool = createLimit(limit);
  return Promise.all(items.map((item, i) => pool(() => fn(item, i))));
}

/**
 * `inPool` that settles like `Promise.allSettled`: every item is run, and each result says
 * whether its call was fulfilled (`value`) or rejected (`reason`), in item order.
 * @template T, R
 * @param {readonly T[]} items
 * @param {number} limit
 * @param {(item: T, index: number) => Promise<R>} fn
 * @returns {Promise<PromiseSettledResult<R>[]>}
 */
export function settleInPool(items, limit, fn) {
  return inPool(items, limit, async (item, i) => {
    try {
      return { status: 'fulfilled', value: await fn(item, i) };
    } catch (reason) {
      return { status: 'rejected', reason };
    }
  });
}
