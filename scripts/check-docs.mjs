#!/usr/bin/env node
// Docs are code: every TypeScript snippet in every package README (and the root README) is
// type-checked and run the way a new user would meet it, from a real npm registry.
//
// 1. The workspace is staged in a temporary directory and released there as `pnpm release`
//    does: `changeset version`, then scripts/publish.mjs (the publish `pnpm release` runs: pack,
//    refuse any `workspace:` range, publish, read back and compare) into a local verdaccio on
//    127.0.0.1 (random port, storage in the temporary directory). verdaccio serves @headway/*
//    only from what was published and proxies every other package to the registry npm is
//    configured with.
// 2. For each README with snippets, a fresh project runs the README's install line exactly as
//    written (`npm install a b@^1 …`; with pnpm, `pnpm add` with the same words, and a peer it
//    installs outside a package's range fails: pnpm takes a bare name's latest and warns) against that
//    registry — once with npm (hoisted layout) and once with pnpm (strict layout), no overrides,
//    no tarball paths — then every snippet is type-checked as `tsc --strict` would (no
//    skipLibCheck; the workspace's TypeScript, the version the projects would install) and the
//    ones that can run in Node are run.
// 3. From the same registry, in an empty directory: `npx @headway/cli --help` and
//    `npx @headway/cli watch` of a recorded stream (packages/cli/fixtures).
//
// better-sqlite3 has no prebuilt binary this machine can download (they live on GitHub), so
// every fresh install would compile it (about 100 s of two cores). Its install script
// (prebuild-install) can take a binary host instead: the check serves the binary the workspace's
// own install already compiled, for the same version, from 127.0.0.1
// (`npm_config_better_sqlite3_binary_host`). npm and pnpm then install it as a user's machine
// does, scripts and all, in a second; a version the workspace has not built is compiled as usual.
//
// Cost. Projects go through three stages at once, each bounded by the cores: installs (at most
// cores + 1 in flight: they wait on the registry as much as on the CPU), type checks (one worker
// thread per core, each keeping TypeScript's own lib files parsed between projects) and snippet
// runs (at most one per core). What a type check costs is checking declaration files: every
// project would check @types/node, zod and TypeScript's lib files again. A third-party
// declaration file is checked in full the first time it is met with a set of libs and types;
// once it checked clean, later projects (of either package manager) with that set skip it when it
// is the same file (package name, version, path, text) reaching the same files (each the same
// package, version, path and text, resolving its imports to the same files) through its imports.
// Snippets and every @headway/* declaration file are checked in full in every project, unless the
// whole program is one that checked clean before: the same tsconfig and the same files (each by
// package, version, path and text, with what its imports resolve to; the snippets by their place
// in the project), as npm's and pnpm's installs of one README usually are. Its output is then
// written as it was and nothing is checked again. Errors are never cached, so a failing file fails
// every project that has it. The snippets are emitted file by file (`program.emit()` of the whole
// program would check every declaration file first, the ones found clean before too). The run's first
// check, and each README's first check, run before the others that would start beside them, so
// those reuse what it found clean. Installs reuse the run's earlier registry answers
// (--prefer-offline, in caches of the run's own: see runCaches). Order: the two npx runs take the
// first turn among the installs, then every pnpm project, then every npm project (see main: the
// long chains start first). The last lines give the run's critical path (the stages of the
// project that ended last, in clock times, and the longest stages), how much CPU each part used
// (the type-check workers' own, from /proc/thread-self), and how often the compiled
// better-sqlite3 was served.
//
// Markers, on the line before a ```ts fence:
//   <!-- docs-check: browser -->     type-checked with the DOM library, not run
//   <!-- docs-check: no-run -->      type-checked, not run (needs a key, a server, user input…)
//   <!-- docs-check: skip -->        neither (a fragment shown for its shape); say why beside it
//
// Usage: node scripts/check-docs.mjs [--only=<package dir name>[,<another>…]] [--pm=npm|pnpm] [--force]
// Prints one line per README and package manager, writes .docs-check/results.json, exits 1 on
// any failure. A run whose READMEs, packages and changesets are unchanged since the last green
// run is skipped (the hash lives in node_modules/.cache/headway-docs-check); --force runs anyway.
// It prints how long each phase took: staging, the registry, `changeset version`, pack, publish,
// and for each README and package manager its install, type check and runs, then the totals.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { availableParallelism, homedir, tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, relative, sep } from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createLimit, run } from './lib/process.mjs';
import { publishWorkspace } from './publish.mjs';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const managers = args.has('pm') ? [args.get('pm')] : ['npm', 'pnpm'];
const { devDependencies: rootDev } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// Only a guard against a command that hangs: nothing here is expected to come near it, however
// busy the machine (an install that has to compile better-sqlite3 takes minutes there).
const HANG_GUARD_MS = 20 * 60_000;
const pnpmBin = join(root, 'node_modules', '.bin', 'pnpm');
const CORES = Math.max(1, availableParallelism());
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const changesetBin = join(root, 'node_modules', '.bin', 'changeset');

/** Workspace packages that are published: dir, name, manifest. */
function workspacePackages() {
  const out = [];
  for (const dir of readdirSync(join(root, 'packages')).sort()) {
    const file = join(root, 'packages', dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    if (manifest.private) continue;
    out.push({ dir: join(root, 'packages', dir), short: dir, name: manifest.name, manifest });
  }
  return out;
}

/**
 * The README's install line (`install`: the package names it installs; `installArgs`: every word
 * after `npm install`, flags and version ranges included, as written) and its TypeScript
 * snippets, with their line numbers and markers.
 */
export function extractReadme(text) {
  const lines = text.split('\n');
  const snippets = [];
  let installArgs;
  for (let i = 0; i < lines.length; i += 1) {
    const fence = /^```(\w*)\s*$/.exec(lines[i]);
    if (!fence) continue;
    const lang = fence[1];
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end += 1;
    const body = lines.slice(i + 1, end);
    if ((lang === 'sh' || lang === 'bash') && installArgs === undefined) {
      const line = body.find((l) => /^\s*npm install\b/.test(l));
      if (line) installArgs = line.replace(/#.*$/, '').trim().split(/\s+/).slice(2);
    }
    if (lang === 'ts' || lang === 'typescript') {
      const marker = /<!--\s*docs-check:\s*([\w-]+)/.exec(lines[i - 1] ?? '')?.[1] ?? 'run';
      snippets.push({ line: i + 2, code: body.join('\n'), marker });
    }
    i = end;
  }
  installArgs ??= [];
  const install = installArgs.filter((w) => !w.startsWith('-')).map((w) => w.replace(/(?<=.)@.*$/, ''));
  return { install, installArgs, snippets };
}

/**
 * CPU seconds of the child processes by what they were (`opts.cpu` of sh): read from the CPU
 * Linux adds up for this process's finished children (/proc/self/stat) when each one ends. Two
 * children reaped in the same turn of the event loop count for the first: a measure, not a check.
 */
const childCpu = new Map();
function finishedChildrenCpu() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, in USER_HZ ticks
  } catch {
    return 0; // not Linux: no such breakdown
  }
}
let childCpuSeen = 0;
/** CPU seconds the calling thread has used (/proc/thread-self/stat: utime + stime), 0 where that is not known. */
function threadCpu() {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
/** The commands running now: stopped with the check. */
const running = new Set();

/**
 * Runs a command (see run in scripts/lib/process.mjs: never rejects), stopped with the check and
 * past the hang guard; `cpu` says what its CPU counts as.
 */
function sh(cmd, argv, { cpu = 'other', ...opts } = {}) {
  return run(cmd, argv, {
    ...opts,
    hangGuardMs: HANG_GUARD_MS,
    onSpawn: (child) => running.add(child),
    onExit: (child) => {
      running.delete(child);
      const now = finishedChildrenCpu();
      childCpu.set(cpu, (childCpu.get(cpu) ?? 0) + now - childCpuSeen);
      childCpuSeen = now;
    },
  });
}

/** Every file under `dir` (relative paths, sorted), skipping symlinks. */
function walk(dir, base = dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(full, base));
    else if (e.isFile()) out.push(relative(base, full));
  }
  return out.sort();
}

const NOT_STAGED = /[/\\](node_modules|\.vitest|\.turbo|\.cache)$/;

/**
 * A copy of the workspace to release from: the root manifest, the changesets, the published
 * packages (built), and the private ones' manifests (the changesets config names them). Its
 * node_modules is the workspace's, for the changesets CLI and its changelog generator.
 */
function stage(pkgs, dir) {
  for (const file of ['package.json', 'pnpm-workspace.yaml']) cpSync(join(root, file), join(dir, file));
  cpSync(join(root, '.changeset'), join(dir, '.changeset'), { recursive: true });
  // Private packages (the test machinery) appear in published packages' devDependencies:
  // `pnpm publish` resolves those `workspace:` ranges too, so they are linked like the others.
  const privates = new Map();
  for (const p of pkgs) cpSync(p.dir, join(dir, relative(root, p.dir)), { recursive: true, filter: (src) => !NOT_STAGED.test(src) });
  for (const group of ['packages', 'examples']) {
    if (!existsSync(join(root, group))) continue;
    for (const name of readdirSync(join(root, group))) {
      const rel = join(group, name);
      if (existsSync(join(dir, rel)) || !existsSync(join(root, rel, 'package.json'))) continue;
      mkdirSync(join(dir, rel), { recursive: true });
      cpSync(join(root, rel, 'package.json'), join(dir, rel, 'package.json'));
      privates.set(JSON.parse(readFileSync(join(root, rel, 'package.json'), 'utf8')).name, join(dir, rel));
    }
  }
  if (existsSync(join(root, 'bench', 'package.json'))) {
    mkdirSync(join(dir, 'bench'));
    cpSync(join(root, 'bench', 'package.json'), join(dir, 'bench', 'package.json'));
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  // The workspace links `pnpm install` makes: `pnpm publish` reads the version it writes in place
  // of a `workspace:` range from the linked package.
  const staged = new Map(pkgs.map((p) => [p.name, join(dir, relative(root, p.dir))]));
  for (const p of pkgs) {
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies']) {
      for (const [name, range] of Object.entries(p.manifest[field] ?? {})) {
        const target = staged.get(name) ?? privates.get(name);
        const link = join(staged.get(p.name), 'node_modules', ...name.split('/'));
        if (!String(range).startsWith('workspace:') || target === undefined || existsSync(link)) continue;
        mkdirSync(join(link, '..'), { recursive: true });
        symlinkSync(target, link, 'dir');
      }
    }
  }
}

/** A registry to publish to and install from: verdaccio on 127.0.0.1, a random port. */
async function startRegistry(work) {
  const upstream = spawnSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).stdout?.trim() || 'https://registry.npmjs.org/';
  const dir = join(work, 'registry');
  mkdirSync(dir);
  const config = {
    storage: join(dir, 'storage'),
    auth: { htpasswd: { file: join(dir, 'htpasswd'), max_users: 10 } },
    // Generous: the uplink is the real registry, read by a machine that may be busy.
    // maxage: a package's metadata is asked upstream once per run, not again every 2 minutes.
    uplinks: { upstream: { url: upstream, timeout: '10m', max_fails: 20, fail_timeout: '10s', maxage: '30m' } },
    packages: {
      // Ours come only from what the release published here, never from upstream.
      '@headway/*': { access: '$all', publish: '$authenticated' },
      '**': { access: '$all', publish: '$authenticated', proxy: 'upstream' },
    },
    server: { keepAliveTimeout: 60 },
    middlewares: { audit: { enabled: false } },
    web: { enable: false },
    log: { type: 'stdout', format: 'pretty', level: 'error' },
  };
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  const require = createRequire(join(root, 'package.json'));
  // runServer leaves verdaccio's logger at its default (every request); set it first.
  require('verdaccio/build/lib/logger').setup(config.log);
  const { runServer } = require('verdaccio');
  const server = await runServer(file);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${server.address().port}/`;
  // A user for the release's `pnpm publish` (verdaccio's couchdb-style sign-up gives a token).
  const res = await fetch(new URL('-/user/org.couchdb.user:headway-release', url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'headway-release', password: createHash('sha256').update(work).digest('hex') }),
  });
  const { token } = await res.json();
  if (!res.ok || typeof token !== 'string') throw new Error(`local registry: could not sign up the release user (HTTP ${res.status})`);
  const close = () =>
    new Promise((resolve) => {
      server.close(resolve);
      // Idle keep-alive sockets of npm and pnpm would hold close() for the keep-alive timeout.
      server.closeAllConnections();
    });
  return { url, token, upstream, close };
}

/**
 * Serves the better-sqlite3 binary the workspace's install built as a prebuild-install download
 * (`/v<version>/better-sqlite3-v<version>-node-v<abi>-<platform>-<arch>.tar.gz`), so fresh
 * installs of the same version skip compiling it. Returns the host URL, or undefined when the
 * workspace has no built copy (installs then compile it, as on any machine without prebuilds).
 */
async function startPrebuildHost(work) {
  const store = join(root, 'node_modules', '.pnpm');
  const glibc = process.report?.getReport?.().header?.glibcVersionRuntime !== undefined;
  if (process.platform === 'linux' && !glibc) return undefined; // musl builds are named differently
  const dir = join(work, 'prebuilds');
  const served = [];
  for (const entry of existsSync(store) ? readdirSync(store) : []) {
    const m = /^better-sqlite3@(\d+\.\d+\.\d+)$/.exec(entry);
    const pkg = join(store, entry, 'node_modules', 'better-sqlite3');
    if (!m || !existsSync(join(pkg, 'build', 'Release', 'better_sqlite3.node'))) continue;
    const version = m[1];
    mkdirSync(join(dir, `v${version}`), { recursive: true });
    const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
    const r = spawnSync('tar', ['-czf', join(dir, `v${version}`, name), '-C', pkg, 'build/Release/better_sqlite3.node'], {
      encoding: 'utf8',
    });
    if (r.status === 0) served.push(`/v${version}/${name}`);
  }
  if (served.length === 0) return undefined;
  /** Downloads served: the installs that took the compiled binary instead of compiling one. */
  const stats = { downloads: 0 };
  const server = createServer((req, res) => {
    const path = join(dir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (!path.startsWith(dir + sep) || !existsSync(path)) {
      res.writeHead(404).end();
      return;
    }
    stats.downloads += 1;
    res.writeHead(200, { 'content-type': 'application/gzip' });
    createReadStream(path).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  // prebuild-install keeps each download in npm's cache (npm_config_cache): the run's own (see
  // runCaches), removed with it.
  const close = () =>
    new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections();
    });
  return { url, close, served, stats };
}

/**
 * The release, as `pnpm release` runs it: `changeset version`, then scripts/publish.mjs (the same
 * function `pnpm release` runs: one `pnpm -r pack`, the tarballs' manifests read and any
 * `workspace:` range refused, each sent as `npm publish <tarball>` sends it, then what the
 * registry serves read back and compared), with npm's configuration pointing at the local
 * registry and its release user's token.
 * Returns each package's released version, and what is wrong with them: a package released for
 * the first time (at 0.0.0 before) starts at exactly 0.1.0, and none goes out below 0.1.0.
 */
async function release(pkgs, stageDir, registry, work) {
  const userconfig = join(work, 'release.npmrc');
  const host = registry.url.replace(/^https?:/, '');
  writeFileSync(userconfig, `registry=${registry.url}\n${host}:_authToken=${registry.token}\n`);
  const PATH = `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`;
  const env = { ...process.env, PATH, npm_config_registry: registry.url, npm_config_userconfig: userconfig };
  const manifestOf = (p) => JSON.parse(readFileSync(join(stageDir, relative(root, p.dir), 'package.json'), 'utf8'));
  const before = new Map(pkgs.map((p) => [p.name, manifestOf(p).version]));
  const t0 = Date.now();
  const v = await sh(changesetBin, ['version'], { cwd: stageDir, env, cpu: 'changeset version' });
  const timings = { 'changeset version': Date.now() - t0 };
  if (v.code !== 0) throw new Error(`changeset version failed:\n${v.out.trim()}`);
  const staged = pkgs.map(manifestOf);
  const published = await publishWorkspace({ cwd: stageDir, env, pnpm: pnpmBin });
  Object.assign(timings, published.timings);
  const at = Date.now();
  const versions = staged.map((m) => ({ name: m.name, before: before.get(m.name), after: m.version }));
  const missing = versions.filter((x) => !published.published.some((p) => p.name === x.name && p.version === x.after));
  const problems = [
    ...versions
      .filter((x) => x.before === '0.0.0' && x.after !== '0.1.0')
      .map((x) => `${x.name}: ${x.before} -> ${x.after}; a first release is 0.1.0 (give the package a minor changeset)`),
    ...missing.map((x) => `${x.name}@${x.after}: not published (the registry had it already?)`),
    ...published.problems,
  ];
  return { versions, problems, timings, at };
}

/**
 * A fresh project: a package.json with Node's types, as a TypeScript project for Node has, and
 * nothing else (the type check uses the workspace's TypeScript, the version pinned here).
 */
function projectManifest(pm) {
  const manifest = {
    name: 'docs-check-project',
    private: true,
    type: 'module',
    devDependencies: { '@types/node': rootDev['@types/node'] },
  };
  // pnpm 10 runs no dependency's install script unless allowed (`pnpm approve-builds`).
  if (pm === 'pnpm') manifest.pnpm = { onlyBuiltDependencies: ['better-sqlite3', 'esbuild'] };
  return manifest;
}

export function tsconfig(include, lib, types) {
  return {
    compilerOptions: {
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      lib,
      types,
      strict: true,
      skipLibCheck: false,
      outDir: 'out',
      rootDir: '.',
      noEmitOnError: false,
    },
    include,
  };
}

/**
 * The peer dependency issues pnpm reported (its `Issues with peer dependencies found` tree: an
 * unmet or missing peer), or undefined when there are none.
 */
function peerIssues(out) {
  const lines = out.split('\n');
  const at = lines.findIndex((l) => /\bIssues with peer dependencies found\b/.test(l));
  if (at < 0) return undefined;
  const tree = [];
  for (const line of lines.slice(at + 1)) {
    if (!/^[.│├└─┬ ✕]/.test(line) || line.trim() === '') break;
    tree.push(line);
  }
  return tree.some((l) => /✕ (unmet|missing) peer /.test(l)) ? tree.join('\n') : undefined;
}

/** Maps `snippet-3.ts(12,5): error …` back to the README line. */
function explain(out, snippets, readme) {
  return out.replace(/snippet-(\d+)\.ts\((\d+),(\d+)\)/g, (_m, n, line, col) => {
    const s = snippets[Number(n)];
    return `${readme}:${s.line + Number(line) - 1}:${col}`;
  });
}

/** A promise with its resolve function beside it (Promise.withResolvers needs Node 22). */
function deferred() {
  let resolve;
  const promise = new Promise((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Type checkers: `size` worker threads, each running this file as a type-check worker with its
 * own place in `dir` to check projects at. `check(task)` resolves with the worker's answer (see
 * typeCheckWorker); `task.clean` is the keys of the declaration files found clean and
 * `task.programs` the outputs of the whole programs found clean, by key (each, or a function that
 * gives it when a worker takes the task).
 */
export function createTypeCheckers(size, dir) {
  const idle = [];
  const queue = [];
  const pending = new Map();
  let nextId = 0;
  let live = size;
  const cpu = new Array(size).fill(0);
  const workers = Array.from({ length: size }, (_, i) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { place: join(dir, `type-check-${String(i)}`) } });
    worker.on('message', (msg) => {
      cpu[i] = msg.cpu ?? cpu[i];
      const settle = pending.get(msg.id);
      pending.delete(msg.id);
      settle?.(msg);
      idle.push(worker);
      dispatch();
    });
    worker.on('error', (error) => {
      const why = `type-check worker crashed: ${error.stack ?? error.message}`;
      for (const [id, settle] of pending) {
        pending.delete(id);
        settle({ id, error: why });
      }
      // With no worker left, what waits fails instead of waiting for ever.
      live -= 1;
      if (live === 0) for (const { resolve } of queue.splice(0)) resolve({ error: why });
    });
    idle.push(worker);
    return worker;
  });
  function dispatch() {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.shift();
      const { task, resolve } = queue.shift();
      const id = (nextId += 1);
      pending.set(id, resolve);
      // What was found clean so far (a task's functions) is read when the check starts, not when
      // it was queued: a project that waited for a worker gains from every check that ended meanwhile.
      worker.postMessage({
        ...Object.fromEntries(Object.entries(task).map(([k, v]) => [k, typeof v === 'function' ? v() : v])),
        id,
      });
    }
  }
  return {
    check: (task) =>
      new Promise((resolve) => {
        queue.push({ task, resolve });
        dispatch();
      }),
    close: () => Promise.all(workers.map((w) => w.terminate())),
    /** CPU seconds the workers had used by their last answers. */
    cpu: () => cpu.reduce((a, b) => a + b, 0),
  };
}

/**
 * A type-check worker: for each project it is sent, does what `tsc -p <config>` does there
 * (reports the same diagnostics, writes the same output), with two savings. Parsing: the project
 * is moved to the worker's own place for the check (and back after), so a file of the same path
 * and text as in a recent project (@types/node, zod, TypeScript's libs…) is the same parsed file,
 * as TypeScript's language service shares them between programs. Checking: a third-party
 * declaration file already checked clean (its key in `clean`) is not checked again, and a whole
 * program that checked clean before (its key in `programs`) is not checked at all: its output is
 * written as it was. Answers with the formatted diagnostics, the keys of the declaration files and
 * programs it found clean (with each program's output), counts, and how long each part took.
 */
function typeCheckWorker() {
  const ts = createRequire(join(root, 'package.json'))('typescript');
  const libDir = dirname(ts.getDefaultLibFilePath({}));
  const { place } = workerData;
  /** Parsed files by path and parse options: the file, its text, the last project that used it. */
  const parsedFiles = new Map();
  let round = 0;
  const packages = new Map();
  /** The package a file is in (nearest package.json with a name below the last node_modules). */
  function packageOf(file) {
    const at = file.lastIndexOf(`${sep}node_modules${sep}`);
    if (at < 0) return undefined;
    const rest = file.slice(at + 14).split(sep);
    const base = file.slice(0, at + 14) + (rest[0].startsWith('@') ? join(rest[0], rest[1] ?? '') : rest[0]);
    if (!packages.has(base)) {
      let identity;
      try {
        const m = JSON.parse(readFileSync(join(base, 'package.json'), 'utf8'));
        identity = `${m.name}@${m.version}`;
      } catch {
        identity = undefined;
      }
      packages.set(base, identity);
    }
    const identity = packages.get(base);
    return identity === undefined ? undefined : { identity, path: relative(base, file), ours: identity.startsWith('@headway/') };
  }
  const where = (file) => {
    if (file.startsWith(libDir + sep)) return `typescript-lib:${basename(file)}`;
    const p = packageOf(file);
    if (p !== undefined) return `${p.identity}/${p.path}`;
    // The snippets (and anything else of the project's own): where they are in it.
    return file.startsWith(place + sep) ? `./${relative(place, file)}` : `?${file}`;
  };

  // `cpu`: the CPU this worker has used so far (loading TypeScript included), for the run's totals.
  parentPort.on('message', (task) => {
    try {
      const answer = checkProject(task);
      parentPort.postMessage({ id: task.id, ...answer, cpu: threadCpu() });
    } catch (error) {
      parentPort.postMessage({
        id: task.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        cpu: threadCpu(),
      });
    }
  });

  function checkProject(task) {
    renameSync(task.project, place);
    try {
      return checkAt(place, task);
    } finally {
      renameSync(place, task.project);
    }
  }

  function checkAt(project, { configs, clean: cleanKeys, programs }) {
    const started = Date.now();
    round += 1;
    packages.clear();
    let reused = 0;
    const clean = new Set(cleanKeys);
    const found = [];
    let checked = 0;
    let skipped = 0;
    let same = 0;
    const cleanPrograms = [];
    let output = '';
    /** Milliseconds of each part of the check (program: parse and resolve; keys: what a file reaches; check; emit). */
    const parts = { program: 0, keys: 0, check: 0, emit: 0 };
    const part = (name, fn) => {
      const t0 = performance.now();
      try {
        return fn();
      } finally {
        parts[name] += performance.now() - t0;
      }
    };
    for (const { file, emit } of configs) {
      const parsed = ts.getParsedCommandLineOfConfigFile(
        join(project, file),
        {},
        {
          ...ts.sys,
          onUnRecoverableConfigFileDiagnostic: (d) => {
            throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
          },
        },
      );
      const options = parsed.options;
      const host = ts.createCompilerHost(options);
      host.getCurrentDirectory = () => project;
      const read = host.getSourceFile.bind(host);
      host.getSourceFile = (fileName, language, onError, create) => {
        const l = typeof language === 'object' ? language : { languageVersion: language };
        const key = `${fileName}\0${l.languageVersion}\0${l.impliedNodeFormat}\0${l.jsDocParsingMode}`;
        const text = host.readFile(fileName);
        const hit = parsedFiles.get(key);
        if (hit !== undefined && text !== undefined && hit.text === text) {
          hit.round = round;
          reused += 1;
          return hit.file;
        }
        const file = read(fileName, language, onError, create);
        if (file !== undefined && text !== undefined) parsedFiles.set(key, { file, text, round });
        return file;
      };
      const program = part('program', () =>
        ts.createProgram({
          rootNames: parsed.fileNames,
          options,
          host,
          configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
        }),
      );
      // The program's own module resolutions (a file's imports are asked again below): the same
      // answers, without looking for each file on disk again.
      const resolution = program.getModuleResolutionCache?.() ?? ts.createModuleResolutionCache(project, (f) => f, options);
      // What a declaration file's check depends on: the file, and every file it reaches through
      // its imports, references and type references (each by package, version, path and text,
      // with what its own imports resolve to), under these libs and types. Where a package
      // manager lays the files out is no part of it: a file that reaches the same files checks
      // the same under npm's layout and pnpm's, and one that resolves anything elsewhere (pnpm's
      // strict layout leaving a phantom dependency unresolved, another version) is checked again.
      const described = new Map();
      const describe = (sf) => {
        let d = described.get(sf.fileName);
        if (d !== undefined) return d;
        const info = ts.preProcessFile(sf.text, true, true);
        const next = [];
        const to = (file) => {
          if (file === undefined) return '-';
          next.push(file);
          return where(file);
        };
        const deps = [
          ...info.importedFiles.map((f) => {
            const r = ts.resolveModuleName(f.fileName, sf.fileName, options, host, resolution, undefined, sf.impliedNodeFormat);
            return `m:${f.fileName}=${to(r.resolvedModule?.resolvedFileName)}`;
          }),
          ...info.typeReferenceDirectives.map((f) => {
            const r = ts.resolveTypeReferenceDirective(f.fileName, sf.fileName, options, host);
            return `t:${f.fileName}=${to(r.resolvedTypeReferenceDirective?.resolvedFileName ?? undefined)}`;
          }),
          ...info.referencedFiles.map((f) => `r:${to(join(dirname(sf.fileName), f.fileName))}`),
          ...info.libReferenceDirectives.map((f) => `l:${f.fileName}`),
        ].sort();
        const text = createHash('sha256').update(sf.text).digest('hex');
        d = { line: `${where(sf.fileName)}|${text}|${deps.join(',')}`, next };
        described.set(sf.fileName, d);
        return d;
      };
      const keyOf = (sf) => {
        const p = sf.fileName.startsWith(libDir + sep) ? undefined : packageOf(sf.fileName);
        if (!sf.isDeclarationFile || p?.ours || (p === undefined && !sf.fileName.startsWith(libDir + sep))) return undefined;
        const seen = new Set([sf.fileName]);
        const lines = [];
        for (const todo = [sf]; todo.length > 0;) {
          const d = describe(todo.pop());
          lines.push(d.line);
          for (const file of d.next) {
            const target = program.getSourceFile(file);
            if (target === undefined || seen.has(target.fileName)) continue;
            seen.add(target.fileName);
            todo.push(target);
          }
        }
        const reached = createHash('sha256').update(lines.sort().join('\n')).digest('hex');
        return `${JSON.stringify(options.lib)}|${JSON.stringify(options.types)}|${describe(sf).line}|${reached}`;
      };
      // The whole program: this config, and every file in it with what it reaches (see describe).
      // One that checked clean before, in any project, checks clean again: its output is written
      // as it was, and nothing is checked.
      const programKey = part('keys', () => {
        const lines = program
          .getSourceFiles()
          .map((sf) => `${describe(sf).line}|${String(sf.impliedNodeFormat)}`)
          .sort();
        return createHash('sha256')
          .update(readFileSync(join(project, file)))
          .update(lines.join('\n'))
          .digest('hex');
      });
      const outputs = programs?.[programKey];
      if (outputs !== undefined) {
        for (const [name, text] of outputs) {
          mkdirSync(dirname(join(project, name)), { recursive: true });
          writeFileSync(join(project, name), text);
        }
        skipped += program.getSourceFiles().length;
        same += 1;
        continue;
      }
      const diagnostics = [
        ...program.getConfigFileParsingDiagnostics(),
        ...program.getOptionsDiagnostics(),
        ...program.getSyntacticDiagnostics(),
      ];
      for (const sf of program.getSourceFiles()) {
        const key = part('keys', () => keyOf(sf));
        if (key !== undefined && clean.has(key)) {
          skipped += 1;
          continue;
        }
        const d = part('check', () => program.getSemanticDiagnostics(sf));
        checked += 1;
        diagnostics.push(...d);
        if (key !== undefined && d.length === 0) {
          clean.add(key);
          found.push(key);
        }
      }
      diagnostics.push(...part('check', () => program.getGlobalDiagnostics()));
      // Each snippet's output, file by file: `program.emit()` of the whole program would first
      // check every file in it, the declaration files found clean before too.
      const written = [];
      if (emit)
        part('emit', () => {
          for (const sf of program.getSourceFiles())
            if (!sf.isDeclarationFile)
              program.emit(sf, (name, text, ...rest) => {
                host.writeFile(name, text, ...rest);
                written.push([relative(project, name), text]);
              });
        });
      if (diagnostics.length === 0) cleanPrograms.push({ key: programKey, outputs: written });
      if (diagnostics.length > 0)
        output += ts.formatDiagnostics(ts.sortAndDeduplicateDiagnostics(diagnostics), {
          getCanonicalFileName: (f) => f,
          getCurrentDirectory: () => project,
          getNewLine: () => '\n',
        });
    }
    // Kept while recent projects use them: memory stays bounded.
    for (const [key, entry] of parsedFiles) if (entry.round < round - 3) parsedFiles.delete(key);
    return { output, found, programs: cleanPrograms, checked, skipped, same, reused, parts, at: started, ms: Date.now() - started };
  }
}

/**
 * The README's install line, run as written in a fresh project, then its snippets: type-checked
 * (the project's tsconfig.json, and tsconfig.browser.json for the browser ones), then run.
 * Returns the failures and how long each stage took.
 */
export async function checkReadme(job, context) {
  const project = mkdtempSync(join(context.work, `project-${job.pm}-`));
  try {
    return await checkReadmeIn(project, job, context);
  } finally {
    // Removed as soon as it is done with (hundreds of MB for npm), not all at the end.
    await rm(project, { recursive: true, force: true });
  }
}

/**
 * What npm, pnpm and verdaccio print when the network between them and the upstream registry
 * failed (a reset, a timeout, a 5xx from the uplink), not when the install itself is wrong.
 */
export const NETWORK_ERROR =
  /\b(ECONNRESET|ETIMEDOUT|ESOCKETTIMEDOUT|EAI_AGAIN|ECONNREFUSED|ENOTFOUND|EPIPE|socket hang up|network timeout|fetch failed|ERR_PNPM_META_FETCH_FAIL|ERR_PNPM_FETCH_5\d\d|ERR_SOCKET_TIMEOUT|(?:GET|fetch) \S+ (?:error \()?5\d\d|\b50[234] (?:Bad Gateway|Service Unavailable|Gateway Time-?out)|uplink is offline|one of the uplinks is down)\b/i;

/**
 * Runs `attempt` (an install) and, while it fails with a network error ({@link NETWORK_ERROR}),
 * again, at most `times` more times: a reset between the local registry and its uplink is not a
 * broken README. Resolves with the last result and how many retries it took, with what each failed
 * attempt printed about the network kept in `out`, so the log says it happened.
 */
export async function retryingNetworkErrors(attempt, times = 2) {
  const notes = [];
  for (let retries = 0; ; retries++) {
    const r = await attempt();
    const network = r.code === 0 ? null : NETWORK_ERROR.exec(r.out);
    if (network === null || retries >= times) {
      if (notes.length === 0) return { ...r, retries };
      return { ...r, retries, out: `${notes.join('\n')}\n${r.out}` };
    }
    notes.push(`(attempt ${String(retries + 1)} failed with a network error, "${network[0]}"; tried again)`);
  }
}

async function checkReadmeIn(project, job, { env, limits, types, clean, programs, caches, checkOrder }) {
  const { rel: readme, installArgs, snippets, pm } = job;
  const failures = [];
  // `spans`: when each stage started and ended (clock times), for the run's critical path.
  const time = { install: 0, types: 0, run: 0, checked: 0, skipped: 0, same: 0, reused: 0, spans: {} };
  writeFileSync(join(project, 'package.json'), JSON.stringify(projectManifest(pm), null, 2));
  // Times are of the work itself, not of waiting for a turn.
  const timed = async (stage, fn) => {
    const t0 = Date.now();
    try {
      return await fn();
    } finally {
      time[stage] = Date.now() - t0;
      time.spans[stage] = [t0, Date.now()];
    }
  };
  const inst = await limits.install(() =>
    timed('install', () =>
      retryingNetworkErrors(() =>
        pm === 'npm'
          ? sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...installArgs], {
              cwd: project,
              env,
              cpu: 'npm install',
            })
          : sh(pnpmBin, ['add', '--reporter=append-only', '--prefer-offline', `--cache-dir=${caches.pnpm}`, ...installArgs], {
              cwd: project,
              env,
              cpu: 'pnpm add',
            }),
      ),
    ),
  );
  time.retries = inst.retries;
  if (inst.code !== 0)
    return { failures: [`${pm === 'npm' ? 'npm install' : 'pnpm add'} ${installArgs.join(' ')} failed:\n${inst.out.trim()}`], time };
  // A peer the line installs outside a package's range: pnpm takes a bare name's latest (npm looks
  // for a version the peer ranges allow) and only warns, even with strict-peer-dependencies
  // (`pnpm add` does not fail on it: pnpm/pnpm#10824). The user of pnpm would run what it installed.
  const peers = peerIssues(inst.out);
  if (peers !== undefined) return { failures: [`pnpm add ${installArgs.join(' ')} installed peers outside their ranges:\n${peers}`], time };

  const node = [];
  const browser = [];
  snippets.forEach((s, i) => {
    if (s.marker === 'skip') return;
    writeFileSync(join(project, `snippet-${i}.ts`), `${s.code}\nexport {};\n`);
    (s.marker === 'browser' ? browser : node).push(`snippet-${i}.ts`);
  });
  const configs = [];
  for (const [files, name, lib, libTypes] of [
    [node, 'tsconfig.json', ['es2023'], ['node']],
    [browser, 'tsconfig.browser.json', ['es2023', 'dom', 'dom.iterable'], []],
  ]) {
    if (files.length === 0) continue;
    writeFileSync(join(project, name), JSON.stringify(tsconfig(files, lib, libTypes), null, 2));
    configs.push({ file: name, emit: name === 'tsconfig.json' });
  }
  if (configs.length > 0) {
    // A check gains from the checks that ended before it starts (the files they found clean), not
    // from those running beside it: the first check of the run (TypeScript's libs, Node's types,
    // zod: what every project has) and the first check of a README (what its other package
    // manager installed too) are waited for.
    const first = (checkOrder.first ??= deferred());
    const sameReadme = checkOrder.byReadme.get(readme);
    const mine = deferred();
    checkOrder.byReadme.set(readme, mine.promise);
    if (first.started) await first.promise;
    first.started = true;
    if (sameReadme !== undefined) await sameReadme;
    let r;
    try {
      r = await types.check({ project, configs, clean: () => [...clean], programs: () => Object.fromEntries(programs) });
      // Before the checks that wait for this one start.
      for (const key of r.found ?? []) clean.add(key);
      for (const p of r.programs ?? []) programs.set(p.key, p.outputs);
    } finally {
      first.resolve();
      mine.resolve();
    }
    if (r.at !== undefined) time.spans.types = [r.at, r.at + r.ms];
    Object.assign(time, {
      types: r.ms ?? 0,
      checked: r.checked ?? 0,
      skipped: r.skipped ?? 0,
      same: r.same ?? 0,
      reused: r.reused ?? 0,
      parts: r.parts,
    });
    if (r.error) failures.push(`type check (${pm}) failed to run:\n${r.error}`);
    else if (r.output.trim() !== '') failures.push(`type errors (${pm}):\n${explain(r.output.trim(), snippets, readme)}`);
  }
  if (failures.length > 0) return { failures, time };
  await limits.run(() =>
    timed('run', async () => {
      for (const [i, s] of snippets.entries()) {
        if (s.marker !== 'run') continue;
        const r = await sh(process.execPath, [join('out', `snippet-${i}.js`)], { cwd: project, env, cpu: 'snippet runs' });
        if (r.code !== 0)
          failures.push(`${readme}:${s.line}: the snippet failed when run (${pm}):\n${r.out.trim().split('\n').slice(-15).join('\n')}`);
      }
    }),
  );
  return { failures, time };
}

/**
 * The package managers' caches for this run. npm: a cache of its own (`npm_config_cache`: its
 * index of registry answers, npx's installs, prebuild-install's downloads), so an earlier run's
 * answers for the same registry address (another run on the same port, other bytes of
 * @headway/* at the same version) can never stand in for this run's, while later projects of
 * this run reuse its answers (`--prefer-offline`: the registry is this run's, and nothing in it
 * changes once the release is published). Its content store is the user's npm content store:
 * entries there are found by their sha512 and verified against it when read, so a tarball npm
 * has downloaded before is not downloaded again. pnpm: a metadata cache of its own
 * (`--cache-dir`), for the same reason; its store is the user's (content-addressed, verified).
 */
export function runCaches(work) {
  const npm = join(work, 'npm-cache');
  const content = join(process.env.npm_config_cache || join(homedir(), '.npm'), '_cacache', 'content-v2');
  mkdirSync(content, { recursive: true });
  mkdirSync(join(npm, '_cacache'), { recursive: true });
  symlinkSync(content, join(npm, '_cacache', 'content-v2'), 'dir');
  return { npm, pnpm: join(work, 'pnpm-cache') };
}

/**
 * The zero-install CLI from the registry, in an empty directory: `--help`, and `watch` of a
 * recorded Claude Code stream, with the run's npm cache (see runCaches: no earlier run's
 * @headway/cli of the same version can stand in for this one).
 */
async function checkCli(env, work, limits) {
  const dir = mkdtempSync(join(work, 'npx-'));
  const npxEnv = env;
  const fixture = join(root, 'packages', 'cli', 'fixtures', 'claude-code-todo.jsonl');
  const checks = [
    {
      name: 'npx @headway/cli --help',
      argv: ['--help'],
      expect: (r) => r.code === 0 && r.stdout.startsWith('headway — progress you can see for LLM agent runs\n'),
    },
    {
      name: `npx @headway/cli watch --plain ${relative(root, fixture)}`,
      argv: ['watch', '--plain', fixture],
      expect: (r) =>
        r.code === 0 &&
        r.out.includes('\n  [progress] Plan: 3/3 done\n') &&
        r.out.includes('\n  [progress] Complete: Fixed the off-by-one in sum(): the loop started at 1.'),
    },
  ];
  // One turn among the installs for both, taken first (the check starts this before the projects):
  // the cold `--help` is the run's longest install, and the `watch` after it, from npx's cache,
  // does not queue again behind every project's.
  const runs = await limits.install(async () => {
    const out = [];
    for (const c of checks) {
      const t0 = Date.now();
      const r = await retryingNetworkErrors(() => sh('npx', ['-y', '@headway/cli', ...c.argv], { cwd: dir, env: npxEnv, cpu: 'npx' }));
      out.push({ r, span: [t0, Date.now()] });
    }
    return out;
  });
  const results = [];
  for (const [i, c] of checks.entries()) {
    const { r, span } = runs[i];
    const took = span[1] - span[0];
    const ok = c.expect(r);
    results.push({
      name: `${c.name} (npm)`,
      spans: { npx: span },
      line: `${c.name} (npm) (${seconds(took)})`,
      status: ok ? 'passed' : 'failed',
      failures: ok ? [] : [`unexpected result (exit ${r.code}):\n${r.out.trim().split('\n').slice(-15).join('\n')}`],
    });
  }
  return results;
}

/**
 * The run's critical path, in clock times from the start: the release, then the stages of the
 * project (or npx run) that ended last, each from when it started to when it ended (what lies
 * between them is waiting: for a turn, or for the check it had to follow); then the longest single
 * stages of the run.
 */
function criticalPath(items, started, releasedAt) {
  const at = (ms) => ((ms - started) / 1000).toFixed(1);
  const stages = items.flatMap((item) => Object.entries(item.spans ?? {}).map(([stage, [from, to]]) => ({ item, stage, from, to })));
  if (stages.length === 0) return `critical path: the release, ended at ${at(releasedAt)} s`;
  const last = stages.reduce((a, b) => (b.to > a.to ? b : a));
  const chain = stages
    .filter((s) => s.item === last.item)
    .sort((a, b) => a.from - b.from)
    .map((s) => `${s.stage} ${at(s.from)}–${at(s.to)} s`);
  const longest = [...stages]
    .sort((a, b) => b.to - b.from - (a.to - a.from))
    .slice(0, 3)
    .map((s) => `${s.item.name} ${s.stage} ${seconds(s.to - s.from)}`);
  return `critical path: release 0.0–${at(releasedAt)} s, then ${last.item.name}: ${chain.join(', ')}; ended at ${at(last.to)} s. Longest stages: ${longest.join(', ')}`;
}

function report(result) {
  console.log(`${result.status === 'passed' ? '✓' : '✗'} ${result.line ?? result.name}`);
  for (const f of result.failures) console.log(f.replace(/^/gm, '    '));
}

async function main() {
  const started = Date.now();
  const pkgs = workspacePackages();
  const readmes = [{ file: join(root, 'README.md'), owner: undefined }, ...pkgs.map((p) => ({ file: join(p.dir, 'README.md'), owner: p }))]
    .filter((r) => existsSync(r.file))
    .filter(
      (r) =>
        !args.has('only') ||
        args
          .get('only')
          .split(',')
          .includes(r.owner?.short ?? ''),
    );

  const work = mkdtempSync(join(tmpdir(), 'headway-docs-'));
  // Stopped from outside (Ctrl-C, the test command stopped): the projects do not stay behind.
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => {
      for (const child of running) child.kill('SIGKILL');
      rmSync(work, { recursive: true, force: true });
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    });
  const closers = [];
  try {
    const stageDir = join(work, 'release');
    mkdirSync(stageDir);
    stage(pkgs, stageDir);
    console.log(`docs check: staged the workspace in ${seconds(Date.now() - started)}`);

    const hash = createHash('sha256');
    hash.update(JSON.stringify(managers));
    for (const r of readmes) hash.update(readFileSync(r.file));
    for (const p of pkgs) {
      const dir = join(stageDir, relative(root, p.dir));
      for (const file of walk(dir)) hash.update(`${p.name}/${file}\0`).update(readFileSync(join(dir, file)));
    }
    for (const file of walk(join(stageDir, '.changeset'))) hash.update(file).update(readFileSync(join(stageDir, '.changeset', file)));
    for (const script of [import.meta.url, './publish.mjs', './lib/process.mjs'])
      hash.update(readFileSync(new URL(script, import.meta.url)));
    const digest = hash.digest('hex');
    const stamp = join(root, 'node_modules', '.cache', 'headway-docs-check', 'green');
    if (!args.has('force') && !args.has('only') && existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) {
      console.log('docs check: READMEs, packages and changesets unchanged since the last green run (use --force to run again)');
      writeResults(JSON.parse(readFileSync(`${stamp}.json`, 'utf8')));
      return 0;
    }

    const phases = { 'stage and hash': Date.now() - started };
    const t0 = Date.now();
    const registry = await startRegistry(work);
    phases['registry start'] = Date.now() - t0;
    closers.push(registry.close);
    const prebuilds = await startPrebuildHost(work);
    if (prebuilds) closers.push(prebuilds.close);
    const released = await release(pkgs, stageDir, registry, work);
    Object.assign(phases, released.timings);
    const releaseResult = {
      name: 'release: changeset version, then scripts/publish.mjs to the local registry',
      status: released.problems.length === 0 ? 'passed' : 'failed',
      failures: released.problems,
    };
    report(releaseResult);
    // The test command starts the README commands (which rebuild the packages) on this line.
    console.log(
      `docs check: released ${String(released.versions.length)} packages to ${registry.url} (uplink ${registry.upstream}) in ${seconds(Date.now() - started)}: ${released.versions.map((v) => `${v.name}@${v.after}`).join(', ')}`,
    );
    console.log(
      `docs check: ${Object.entries(phases)
        .map(([k, v]) => `${k} ${seconds(v)}`)
        .join(', ')}`,
    );

    const caches = runCaches(work);
    const env = { ...process.env, npm_config_registry: registry.url, npm_config_update_notifier: 'false', npm_config_cache: caches.npm };
    if (prebuilds) env.npm_config_better_sqlite3_binary_host = prebuilds.url;
    const jobs = [];
    for (const r of readmes) {
      const rel = relative(root, r.file);
      const { installArgs, snippets } = extractReadme(readFileSync(r.file, 'utf8'));
      if (snippets.length === 0) continue;
      const line = installArgs.length > 0 ? installArgs : r.owner ? [r.owner.name] : [];
      for (const pm of managers) jobs.push({ rel, installArgs: line, snippets, pm });
    }
    // Every pnpm project first, then every npm project. A pnpm install takes a third of npm's
    // time, and a README's first type check (which checks what is new in it) is its pnpm
    // project's: the long chains (install, then a check of hundreds of new declaration files)
    // all start early, and the run ends with npm installs, whose checks are mostly the same
    // program found clean before (written as it was), so nothing long waits at the end.
    jobs.sort((a, b) => Number(a.pm === 'npm') - Number(b.pm === 'npm'));
    // Installs wait on the registry as much as on the CPU: one more than the cores. Type checks
    // and runs are CPU: one per core each.
    const limits = { install: createLimit(CORES + 1), run: createLimit(CORES) };
    const types = createTypeCheckers(CORES, work);
    closers.push(types.close);
    const clean = new Set();
    const programs = new Map();
    const checkOrder = { first: undefined, byReadme: new Map() };
    const cli =
      !args.has('only') && managers.includes('npm')
        ? checkCli(env, work, limits).then((rs) => (rs.forEach(report), rs))
        : Promise.resolve([]);
    const totals = { install: 0, types: 0, run: 0 };
    const typeParts = {};
    const readmeResults = await Promise.all(
      jobs.map(async (job) => {
        const { failures, time } = await checkReadme(job, { env, work, limits, types, clean, programs, caches, checkOrder });
        for (const k of Object.keys(totals)) totals[k] += time[k];
        for (const [k, v] of Object.entries(time.parts ?? {})) typeParts[k] = (typeParts[k] ?? 0) + v;
        const counted = job.snippets.filter((s) => s.marker !== 'skip').length;
        const ran = job.snippets.filter((s) => s.marker === 'run').length;
        const result = {
          name: `${job.rel} (${job.pm})`,
          spans: time.spans,
          line: `${job.rel} (${job.pm}): ${job.pm === 'npm' ? 'npm install' : 'pnpm add'} ${job.installArgs.join(' ')}; ${String(counted)} snippet(s) type-checked, ${String(ran)} run (install ${seconds(time.install)}${time.retries > 0 ? ` after ${String(time.retries)} network retry(ies)` : ''}, types ${seconds(time.types)} [${String(time.reused)} files parsed before; ${String(time.checked)} checked, ${String(time.skipped)} already clean${time.same > 0 ? `; ${String(time.same)} program(s) the same as one checked clean before` : ''}], run ${seconds(time.run)})`,
          status: failures.length === 0 ? 'passed' : 'failed',
          failures,
        };
        report(result);
        return result;
      }),
    );
    const cliResults = await cli;
    console.log(`docs check: ${criticalPath([...readmeResults, ...cliResults], started, released.at)}`);
    const results = [releaseResult, ...readmeResults, ...cliResults].map(({ name, status }) => ({ name, status }));
    const failed = results.filter((r) => r.status === 'failed').length;
    console.log(
      `docs check: ${String(jobs.length)} projects: installs ${seconds(totals.install)}, type checks ${seconds(totals.types)}, runs ${seconds(totals.run)} (summed; type checks: ${Object.entries(
        typeParts,
      )
        .map(([k, v]) => `${k} ${seconds(v)}`)
        .join(', ')}; at most ${String(CORES + 1)} installs, ${String(CORES)} type checks, ${String(CORES)} runs at once)`,
    );
    const usage = process.cpuUsage();
    const own = (usage.user + usage.system) / 1e6;
    const typeCpu = types.cpu();
    const mainCpu = threadCpu();
    // V8's GC and compiler threads and libuv's pool work for every thread: they are not in either.
    console.log(
      `docs check: CPU: this process ${seconds(own * 1000)} (main thread: registry, publish, the check ${seconds(mainCpu * 1000)}; type-check worker threads ${seconds(typeCpu * 1000)}; V8 and libuv helper threads: GC, compiling, file I/O ${seconds((own - mainCpu - typeCpu) * 1000)}); child processes ${[
        ...childCpu,
      ]
        .map(([k, v]) => `${k} ${seconds(v * 1000)}`)
        .join(', ')}`,
    );
    console.log(
      prebuilds
        ? `docs check: better-sqlite3: the workspace's compiled ${prebuilds.served.map((p) => basename(p)).join(', ')} served ${String(prebuilds.stats.downloads)} time(s) to prebuild-install (npm keeps a download in the run's cache for the later installs; pnpm keeps a build in its store)`
        : 'docs check: better-sqlite3: no compiled copy in the workspace to serve (installs compile it)',
    );
    console.log(`docs check: ${String(results.length - failed)} passed, ${String(failed)} failed in ${seconds(Date.now() - started)}`);
    // Again at the end, where a log cut to its last lines still shows them: what failed, and how.
    for (const r of [releaseResult, ...readmeResults, ...cliResults].filter((x) => x.status === 'failed'))
      console.log(`docs check: failed: ${r.name}: ${(r.failures ?? []).join('\n').split('\n').slice(0, 12).join('\n    ')}`);
    writeResults(results);
    if (failed === 0 && !args.has('only')) {
      mkdirSync(join(stamp, '..'), { recursive: true });
      writeFileSync(stamp, digest);
      writeFileSync(`${stamp}.json`, JSON.stringify(results));
    }
    return failed === 0 ? 0 : 1;
  } finally {
    const t0 = Date.now();
    for (const close of closers) await close();
    rmSync(work, { recursive: true, force: true });
    console.log(`docs check: stopped the registry and removed the projects in ${seconds(Date.now() - t0)}`);
  }
}

/** The same shape as vitest's JSON report, so the test command counts each README as a test file. */
function writeResults(results) {
  mkdirSync(join(root, '.docs-check'), { recursive: true });
  writeFileSync(
    join(root, '.docs-check', 'results.json'),
    JSON.stringify({ testResults: results.map((r) => ({ name: r.name, status: r.status })) }, null, 2),
  );
}

if (!isMainThread) typeCheckWorker();
else if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
