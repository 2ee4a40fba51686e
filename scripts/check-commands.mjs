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
// key). Commands run one at a time, in README order (the demo's `--continue` reads what the
// run before it wrote).
//
//   node scripts/check-commands.mjs [--only=examples/web-dashboard]
//
// Prints one line per command, writes .commands-check/results.json (the shape of vitest's JSON
// report, one entry per command, so the test command counts each as a test file), exits 1 on any
// failure.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join, sep } from 'node:path';

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
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const timeoutMs = Number(process.env.HEADWAY_COMMANDS_TIMEOUT_MS ?? 600_000);
  const env = userEnv();
  const results = [];
  let failed = 0;
  for (const readme of readmes()) {
    if (only !== undefined && !readme.file.startsWith(only)) continue;
    for (const { line, command, skip } of extractCommands(readFileSync(join(root, readme.file), 'utf8'), readme)) {
      const name = `${readme.file}:${line}: ${command}`;
      if (skip !== undefined) {
        console.log(`not run  ${name}`);
        continue;
      }
      const started = Date.now();
      const r = await runCommand(command, { cwd: root, env, timeoutMs });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`${r.ok ? 'ok      ' : 'FAILED  '} ${name}  (${r.why}, ${seconds} s)`);
      if (!r.ok) {
        failed += 1;
        console.log(
          r.output
            .trim()
            .split('\n')
            .slice(-40)
            .map((l) => `    ${l}`)
            .join('\n'),
        );
      }
      results.push({ name, status: r.ok ? 'passed' : 'failed' });
    }
  }
  rmSync(join(root, '.commands-check'), { recursive: true, force: true });
  mkdirSync(join(root, '.commands-check'), { recursive: true });
  writeFileSync(join(root, '.commands-check', 'results.json'), JSON.stringify({ testResults: results }, null, 2));
  console.log(`README commands: ${results.length - failed} passed, ${failed} failed`);
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
