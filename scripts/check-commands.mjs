#!/usr/bin/env node
// Every command a README tells a user to type, run as written. Reads the ```sh and ```bash blocks
// of the example READMEs and of the root README (all but its two set-up commands, `git clone …`
// and `npm test`, which are the suite itself), and runs each line from the repository root — where
// those READMEs say to run them — with bash, the way a user with only Node.js and npm has it: no
// `node_modules/.bin` on the PATH, no API keys (the examples' scripted models), plain output (CI=1).
//
// A command passes when it exits 0, or, for a server, when the page it prints
// (`http://127.0.0.1:PORT/…`) answers 200 — then its process group is stopped. A command that
// neither exits nor serves within the hang timeout (HEADWAY_COMMANDS_TIMEOUT_MS, default 10 min)
// fails. A line with `[not run by the suite: WHY]` in its comment is listed, not run (a real API
// key).
//
// Order: each README's commands run one at a time, in README order (the demo's `--continue` reads
// what the run before it wrote). The root README's go first and alone up to its last install
// command (`npm run demo`, `npx pnpm@… install`): they install and build the workspace the examples
// run from, and the demo's run they look at is not rewritten meanwhile by the examples' demo. Its
// commands after that (one package's tests and types: they only read the workspace) run as one
// more group beside the examples' READMEs. The examples' READMEs run side by side, at most one more
// than the cores at once (their commands mostly wait: scripted models, step delays, servers
// starting), and two commands that name the same fixed port (`--port 8080`,
// `http://127.0.0.1:8787/…`) never run at the same time. Each line says how long its command took;
// the last lines say how long each README took and the whole check.
//
//   node scripts/check-commands.mjs [--only=examples/web-dashboard] [--part=set-up|rest]
//
// `--part=set-up` runs only the root README's commands up to its last install, `--part=rest` only
// the others: the test command runs the set-up alone first, because its installs (`npm run demo`
// on a checkout it never ran in, `npx pnpm@… install`) recreate every `node_modules/.bin` link,
// which the docs check runs pnpm and changesets from.
//
// Prints one line per command, writes .commands-check/results.json (results-set-up.json or
// results-rest.json for a part; the shape of vitest's JSON report, one entry per command, so the
// test command counts each as a test file), exits 1 on any failure.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, join, sep } from 'node:path';
import { inPool } from './lib/process.mjs';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');

/** The root README's set-up commands: the suite is what they start. */
const SUITE_ITSELF = new Set(['npm test']);
const SKIP_MARKER = /\[not run by the suite: ([^\]]+)\]/;
const URL_PATTERN = /http:\/\/127\.0\.0\.1:\d+(?:\/[^\s'"`)]*)?/;

/**
 * The shell commands of a README's ```sh/```bash blocks: one per line (a line ending in `\` goes
 * on), with the line number; blank and comment-only lines are not commands.
 * @param {string} text the README
 * @param {{ setUp?: boolean }} [options] `setUp: true` (the root README) leaves out `git clone …` and `npm test`
 * @returns {{ line: number, command: string, skip?: string }[]}
 */
export function extractCommands(text, options = {}) {
  const lines = text.split('\n');
  const commands = [];
  for (let i = 0; i < lines.length; i += 1) {
    const fence = /^```(\w*)\s*$/.exec(lines[i]);
    if (!fence) continue;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end += 1;
    if (fence[1] === 'sh' || fence[1] === 'bash') {
      for (let j = i + 1; j < end; j += 1) {
        const start = j;
        let command = lines[j];
        while (command.endsWith('\\') && j + 1 < end) {
          j += 1;
          command = `${command.slice(0, -1)}${lines[j]}`;
        }
        command = command.trim();
        if (command === '' || command.startsWith('#')) continue;
        const bare = command.replace(/\s+#.*$/, '').trim();
        if (options.setUp === true && (bare.startsWith('git clone ') || SUITE_ITSELF.has(bare))) continue;
        const skip = SKIP_MARKER.exec(command)?.[1];
        commands.push({ line: start + 1, command, ...(skip === undefined ? {} : { skip }) });
      }
    }
    i = end;
  }
  return commands;
}

/** A command that installs or builds the workspace: `npm run demo`, `npm install`/`ci`, `(npx) pnpm(@…) install`. */
const SET_UP = /(^|[\s;&|])(npm\s+run\s+demo\b|npm\s+(install|i|ci)\b|(npx\s+(-y\s+)?)?pnpm(@\S+)?\s+(install|i)\b)/;

/**
 * The root README's commands split where its set-up ends: `setUp` is every command up to and
 * including the last one that installs or builds the workspace (run alone, before the examples),
 * `after` the ones after it (they only read the workspace, and run beside the examples).
 * @param {{ command: string }[]} commands
 */
export function splitSetUp(commands) {
  let last = -1;
  commands.forEach((c, i) => {
    if (SET_UP.test(c.command.replace(/\s+#.*$/, ''))) last = i;
  });
  return { setUp: commands.slice(0, last + 1), after: commands.slice(last + 1) };
}

/** The READMEs whose commands are checked, repository-relative: the root's, then each example's. */
export function readmes(base = root) {
  const found = [{ file: 'README.md', setUp: true }];
  const examples = join(base, 'examples');
  if (existsSync(examples))
    for (const name of readdirSync(examples).sort())
      if (existsSync(join(examples, name, 'README.md'))) found.push({ file: join('examples', name, 'README.md'), setUp: false });
  return found;
}

/**
 * The environment of a user who has only Node.js and npm: the PATH without any `node_modules/.bin`
 * (the test command puts the workspace's first), no API keys, no npm lifecycle variables of the
 * command that started this one.
 */
export function userEnv(env = process.env) {
  const out = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined || key.startsWith('npm_') || key === 'INIT_CWD') continue;
    if (/^(OPENAI|ANTHROPIC)_/.test(key)) continue;
    out[key] = value;
  }
  out.PATH = (env.PATH ?? '')
    .split(delimiter)
    .filter((p) => p !== '' && !p.split(sep).includes('node_modules'))
    .join(delimiter);
  out.CI = '1';
  return out;
}

/**
 * The fixed ports a command names: `--port N`, `PORT=N`, `http://127.0.0.1:N/…` or
 * `localhost:N`. Two commands that share one do not run at the same time.
 * @param {string} command
 * @returns {number[]}
 */
export function portsOf(command) {
  const ports = new Set();
  for (const m of command.matchAll(/(?:--port[=\s]+|\bPORT=|(?:127\.0\.0\.1|localhost):)(\d{2,5})\b/g)) ports.add(Number(m[1]));
  return [...ports].sort((a, b) => a - b);
}

/** Waits until none of `keys` is held, then holds them all until `fn` settles. */
function createKeyedLock() {
  const held = new Set();
  const waiting = [];
  const wake = () => {
    for (let i = 0; i < waiting.length; i += 1) {
      const w = waiting[i];
      if (w.keys.some((k) => held.has(k))) continue;
      waiting.splice(i, 1);
      i -= 1;
      for (const k of w.keys) held.add(k);
      w.resolve();
    }
  };
  return async (keys, fn) => {
    await new Promise((resolve) => {
      waiting.push({ keys, resolve });
      wake();
    });
    try {
      return await fn();
    } finally {
      for (const k of keys) held.delete(k);
      wake();
    }
  };
}

/**
 * Runs one command with bash in `cwd` and says whether it passed: it exited 0, or it printed a
 * `http://127.0.0.1:PORT/…` page that answered 200 (then its whole process group is stopped).
 * Never hangs: past `timeoutMs` the group is killed and the command fails.
 * @returns {Promise<{ ok: boolean, why: string, output: string }>}
 */
export function runCommand(command, { cwd, env, timeoutMs }) {
  return new Promise((resolvePromise) => {
    const child = spawn('bash', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let settled = false;
    let probing = false;
    let url;
    const stopGroup = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // the group is gone already
      }
    };
    const finish = (ok, why) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      stopGroup('SIGTERM');
      // A server that ignores SIGTERM is not left behind.
      setTimeout(() => stopGroup('SIGKILL'), 2000).unref();
      resolvePromise({ ok, why, output });
    };
    const onData = (chunk) => {
      // Kept bounded: only the end is shown on failure.
      output = `${output}${chunk.toString()}`.slice(-200_000);
      url ??= URL_PATTERN.exec(output)?.[0];
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    // A printed page is asked for until it answers, the command exits, or time is up.
    const poll = setInterval(() => {
      if (url === undefined || probing || settled) return;
      probing = true;
      fetch(url, { signal: AbortSignal.timeout(10_000) })
        .then(async (res) => {
          const body = await res.text();
          if (res.status === 200 && body.length > 0) finish(true, `served ${url}`);
        })
        .catch(() => undefined)
        .finally(() => {
          probing = false;
        });
    }, 250);
    const timer = setTimeout(() => finish(false, `neither exited nor served a page within ${timeoutMs} ms`), timeoutMs);
    child.on('error', (error) => finish(false, error.message));
    child.on('close', (code, signal) => {
      if (code === 0) finish(true, 'exit 0');
      else finish(false, signal === null ? `exit ${code}` : `killed by ${signal}`);
    });
  });
}

async function main() {
  const started = Date.now();
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const part = process.argv.find((a) => a.startsWith('--part='))?.slice('--part='.length);
  if (part !== undefined && part !== 'set-up' && part !== 'rest') throw new Error(`--part: set-up or rest, not "${part}"`);
  const label = part === undefined ? 'README commands' : `README commands (${part})`;
  const timeoutMs = Number(process.env.HEADWAY_COMMANDS_TIMEOUT_MS ?? 600_000);
  const limit = availableParallelism() + 1;
  const env = userEnv();
  const lock = createKeyedLock();
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const groups = readmes()
    .filter((readme) => only === undefined || readme.file.startsWith(only))
    .map((readme) => ({ readme, commands: extractCommands(readFileSync(join(root, readme.file), 'utf8'), readme) }));

  /** One README's commands, in order; resolves with their results and how long they took. */
  async function runReadme({ readme, commands }) {
    const t0 = Date.now();
    const results = [];
    for (const { line, command, skip } of commands) {
      const name = `${readme.file}:${line}: ${command}`;
      if (skip !== undefined) {
        console.log(`not run  ${name}`);
        continue;
      }
      const r = await lock(portsOf(command), async () => {
        const t1 = Date.now();
        return { ...(await runCommand(command, { cwd: root, env, timeoutMs })), ms: Date.now() - t1 };
      });
      const head = `${r.ok ? 'ok      ' : 'FAILED  '} ${name}  (${r.why}, ${seconds(r.ms)})`;
      const tail = r.output
        .trim()
        .split('\n')
        .slice(-40)
        .map((l) => `    ${l}`)
        .join('\n');
      // One write per command: lines of READMEs running side by side do not interleave.
      console.log(r.ok ? head : `${head}\n${tail}`);
      results.push({ name, status: r.ok ? 'passed' : 'failed', ...(r.ok ? {} : { tail }) });
    }
    return { readme: readme.file, results, ms: Date.now() - t0 };
  }

  // The root README's commands up to its last install run alone, first; the rest beside the examples.
  const first = [];
  const rest = [];
  for (const g of groups) {
    if (!g.readme.setUp) {
      rest.push(g);
      continue;
    }
    const { setUp, after } = splitSetUp(g.commands);
    first.push({ ...g, commands: setUp });
    if (after.length > 0) rest.unshift({ readme: { ...g.readme, file: `${g.readme.file} (after its set-up)` }, commands: after });
  }
  const done = [];
  if (part !== 'rest') for (const g of first) done.push(await runReadme(g));
  if (part !== 'set-up') done.push(...(await inPool(rest, limit, runReadme)));
  const results = done.flatMap((d) => d.results);
  const failed = results.filter((r) => r.status === 'failed').length;
  const out = join(root, '.commands-check', part === undefined ? 'results.json' : `results-${part}.json`);
  // A whole run replaces every results file; a part only its own.
  if (part === undefined) rmSync(join(root, '.commands-check'), { recursive: true, force: true });
  mkdirSync(join(root, '.commands-check'), { recursive: true });
  writeFileSync(out, JSON.stringify({ testResults: results.map(({ name, status }) => ({ name, status })) }, null, 2));
  console.log(`${label}, per README: ${done.map((d) => `${d.readme} ${seconds(d.ms)}`).join(', ')}`);
  console.log(
    `${label}: ${results.length - failed} passed, ${failed} failed in ${seconds(Date.now() - started)} (examples at most ${limit} at once)`,
  );
  // Again at the end, where a log cut to its last lines still shows them.
  for (const r of results.filter((x) => x.status === 'failed'))
    console.log(`${label}: failed: ${r.name}\n${r.tail.split('\n').slice(-12).join('\n')}`);
  return failed === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
