#!/usr/bin/env node
// Docs are code: every TypeScript snippet in every package README (and the root README) is
// type-checked and run the way a new user would meet it, from a real npm registry.
//
// 1. The workspace is staged in a temporary directory and released there exactly as
//    `pnpm release` does (`changeset version`, then `changeset publish`, which runs
//    `pnpm publish` and so rewrites `workspace:` ranges) into a local verdaccio on 127.0.0.1
//    (random port, storage in the temporary directory). verdaccio serves @headway/* only from
//    what was published and proxies every other package to the registry npm is configured with.
// 2. For each README with snippets, a fresh project runs the README's install line exactly as
//    written (`npm install a b@^1 …`; with pnpm, `pnpm add` with the same words) against that
//    registry — once with npm (hoisted layout) and once with pnpm (strict layout), no overrides,
//    no tarball paths — then every snippet is type-checked with `tsc --strict` (no skipLibCheck)
//    and the ones that can run in Node are run.
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
// Markers, on the line before a ```ts fence:
//   <!-- docs-check: browser -->     type-checked with the DOM library, not run
//   <!-- docs-check: no-run -->      type-checked, not run (needs a key, a server, user input…)
//   <!-- docs-check: skip -->        neither (a fragment shown for its shape); say why beside it
//
// Usage: node scripts/check-docs.mjs [--only=<package dir name>[,<another>…]] [--pm=npm|pnpm] [--force]
// Prints one line per README and package manager, writes .docs-check/results.json, exits 1 on
// any failure. A run whose READMEs, packages and changesets are unchanged since the last green
// run is skipped (the hash lives in node_modules/.cache/headway-docs-check); --force runs anyway.
// HEADWAY_DOCS_CHECK_TIMINGS=1 prints how long staging, the registry and each changesets step took.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { basename, delimiter, join, relative, sep } from 'node:path';

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

/** Runs a command; resolves with its exit code and its stdout + stderr, never rejects. */
function sh(cmd, argv, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { ...opts, stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let out = '';
    let stdout = '';
    child.stdout.on('data', (d) => {
      out += d;
      stdout += d;
    });
    child.stderr.on('data', (d) => (out += d));
    if (opts.input !== undefined) child.stdin.end(opts.input);
    const timer = setTimeout(() => {
      out += `\n(still running after ${HANG_GUARD_MS / 60_000} min: stopped as hung)`;
      child.kill('SIGKILL');
    }, HANG_GUARD_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 1 : 0), out, stdout });
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: 1, out: `${out}\n${error.message}`, stdout });
    });
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
    uplinks: { upstream: { url: upstream, timeout: '10m', max_fails: 20, fail_timeout: '10s' } },
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
  return { url, token, upstream, close: () => new Promise((resolve) => server.close(resolve)) };
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
  const server = createServer((req, res) => {
    const path = join(dir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (!path.startsWith(dir + sep) || !existsSync(path)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/gzip' });
    createReadStream(path).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  // prebuild-install keeps each download in npm's cache under a name made from its URL; this
  // run's port makes those names unique, so they are removed instead of piling up.
  const cache = join(process.env.npm_config_cache || join(homedir(), '.npm'), '_prebuilds');
  const cached = served.map((path) => {
    const digest = createHash('sha512')
      .update(url + path)
      .digest('hex')
      .slice(0, 6);
    return join(cache, `${digest}-${basename(path).replace(/[^a-zA-Z0-9.]+/g, '-')}`);
  });
  const close = async () => {
    await new Promise((resolve) => server.close(resolve));
    for (const file of cached) rmSync(file, { force: true });
  };
  return { url, close };
}

/**
 * The release, as `pnpm release` runs it: `changeset version`, then `changeset publish`.
 * Returns each package's released version, and what is wrong with them: a package released for
 * the first time (at 0.0.0 before) starts at exactly 0.1.0, and none goes out below 0.1.0.
 */
async function release(pkgs, stageDir, registry, work) {
  const userconfig = join(work, 'release.npmrc');
  const host = registry.url.replace(/^https?:/, '');
  writeFileSync(userconfig, `registry=${registry.url}\n${host}:_authToken=${registry.token}\n`);
  // changesets runs `pnpm publish`: the pinned pnpm (a root devDependency) must be on PATH.
  const PATH = `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`;
  const env = { ...process.env, PATH, npm_config_registry: registry.url, npm_config_userconfig: userconfig };
  const versionOf = (p) => JSON.parse(readFileSync(join(stageDir, relative(root, p.dir), 'package.json'), 'utf8')).version;
  const before = new Map(pkgs.map((p) => [p.name, versionOf(p)]));
  // No git tags here: the staged copy is not a repository (a real release tags).
  for (const argv of [['version'], ['publish', '--no-git-tag']]) {
    const t0 = Date.now();
    const r = await sh(changesetBin, argv, { cwd: stageDir, env });
    if (process.env.HEADWAY_DOCS_CHECK_TIMINGS) console.log(`changeset ${argv[0]}: ${String(Date.now() - t0)} ms`);
    if (r.code !== 0 || /packages failed to publish/.test(r.out)) throw new Error(`changeset ${argv[0]} failed:\n${r.out.trim()}`);
  }
  const versions = pkgs.map((p) => ({ name: p.name, before: before.get(p.name), after: versionOf(p) }));
  const problems = versions
    .filter((v) => (v.before === '0.0.0' && v.after !== '0.1.0') || /^0\.0\./.test(v.after))
    .map((v) => `${v.name}: ${v.before} -> ${v.after}; a first release is 0.1.0 (give the package a minor changeset)`);
  return { versions, problems };
}

/** A fresh project: a package.json with TypeScript for the check's own `tsc`, nothing else. */
function projectManifest(pm) {
  const manifest = {
    name: 'docs-check-project',
    private: true,
    type: 'module',
    devDependencies: { typescript: rootDev.typescript, '@types/node': rootDev['@types/node'] },
  };
  // pnpm 10 runs no dependency's install script unless allowed (`pnpm approve-builds`).
  if (pm === 'pnpm') manifest.pnpm = { onlyBuiltDependencies: ['better-sqlite3', 'esbuild'] };
  return manifest;
}

function tsconfig(include, lib, types) {
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

/** Maps `snippet-3.ts(12,5): error …` back to the README line. */
function explain(out, snippets, readme) {
  return out.replace(/snippet-(\d+)\.ts\((\d+),(\d+)\)/g, (_m, n, line, col) => {
    const s = snippets[Number(n)];
    return `${readme}:${s.line + Number(line) - 1}:${col}`;
  });
}

/** The README's install line, run as written in a fresh project, then its snippets. */
async function checkReadme(job, env, work) {
  const { rel: readme, installArgs, snippets, pm } = job;
  const project = mkdtempSync(join(work, `project-${pm}-`));
  const failures = [];
  writeFileSync(join(project, 'package.json'), JSON.stringify(projectManifest(pm), null, 2));
  const inst =
    pm === 'npm'
      ? await sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...installArgs], { cwd: project, env })
      : await sh(pnpmBin, ['add', '--reporter=append-only', ...installArgs], { cwd: project, env });
  if (inst.code !== 0) return [`${pm === 'npm' ? 'npm install' : 'pnpm add'} ${installArgs.join(' ')} failed:\n${inst.out.trim()}`];

  const node = [];
  const browser = [];
  snippets.forEach((s, i) => {
    if (s.marker === 'skip') return;
    writeFileSync(join(project, `snippet-${i}.ts`), `${s.code}\nexport {};\n`);
    (s.marker === 'browser' ? browser : node).push(`snippet-${i}.ts`);
  });
  const tsc = join(project, 'node_modules', '.bin', 'tsc');
  for (const [files, name, lib, types] of [
    [node, 'tsconfig.json', ['es2023'], ['node']],
    [browser, 'tsconfig.browser.json', ['es2023', 'dom', 'dom.iterable'], []],
  ]) {
    if (files.length === 0) continue;
    writeFileSync(join(project, name), JSON.stringify(tsconfig(files, lib, types), null, 2));
    const r = await sh(tsc, ['-p', name, ...(name === 'tsconfig.json' ? [] : ['--noEmit'])], { cwd: project, env });
    if (r.code !== 0) failures.push(`type errors (${pm}):\n${explain(r.out.trim(), snippets, readme)}`);
  }
  if (failures.length > 0) return failures;
  for (const [i, s] of snippets.entries()) {
    if (s.marker !== 'run') continue;
    const r = await sh(process.execPath, [join('out', `snippet-${i}.js`)], { cwd: project, env });
    if (r.code !== 0)
      failures.push(`${readme}:${s.line}: the snippet failed when run (${pm}):\n${r.out.trim().split('\n').slice(-15).join('\n')}`);
  }
  return failures;
}

/**
 * The zero-install CLI from the registry, in an empty directory: `--help`, and `watch` of a
 * recorded Claude Code stream. npx gets its own cache, so an earlier run's @headway/cli of the same
 * version (other bytes) cannot stand in for this one.
 */
async function checkCli(env, work) {
  const dir = mkdtempSync(join(work, 'npx-'));
  const npxEnv = { ...env, npm_config_cache: join(work, 'npx-cache') };
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
  const results = [];
  for (const c of checks) {
    const r = await sh('npx', ['-y', '@headway/cli', ...c.argv], { cwd: dir, env: npxEnv });
    const ok = c.expect(r);
    results.push({
      name: `${c.name} (npm)`,
      status: ok ? 'passed' : 'failed',
      failures: ok ? [] : [`unexpected result (exit ${r.code}):\n${r.out.trim().split('\n').slice(-15).join('\n')}`],
    });
  }
  return results;
}

async function pool(items, limit, fn) {
  const results = [];
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
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
  const closers = [];
  try {
    const stageDir = join(work, 'release');
    mkdirSync(stageDir);
    stage(pkgs, stageDir);

    const hash = createHash('sha256');
    hash.update(JSON.stringify(managers));
    for (const r of readmes) hash.update(readFileSync(r.file));
    for (const p of pkgs) {
      const dir = join(stageDir, relative(root, p.dir));
      for (const file of walk(dir)) hash.update(`${p.name}/${file}\0`).update(readFileSync(join(dir, file)));
    }
    for (const file of walk(join(stageDir, '.changeset'))) hash.update(file).update(readFileSync(join(stageDir, '.changeset', file)));
    hash.update(readFileSync(new URL(import.meta.url)));
    const digest = hash.digest('hex');
    const stamp = join(root, 'node_modules', '.cache', 'headway-docs-check', 'green');
    if (!args.has('force') && !args.has('only') && existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) {
      console.log('docs check: READMEs, packages and changesets unchanged since the last green run (use --force to run again)');
      writeResults(JSON.parse(readFileSync(`${stamp}.json`, 'utf8')));
      return 0;
    }

    const timing = (what) => {
      if (process.env.HEADWAY_DOCS_CHECK_TIMINGS) console.log(`${what}: ${String(Date.now() - started)} ms since start`);
    };
    timing('staged and hashed');
    const registry = await startRegistry(work);
    timing('registry up');
    closers.push(registry.close);
    const prebuilds = await startPrebuildHost(work);
    if (prebuilds) closers.push(prebuilds.close);
    const released = await release(pkgs, stageDir, registry, work);
    const releaseResult = {
      name: 'release: changeset version + publish to the local registry',
      status: released.problems.length === 0 ? 'passed' : 'failed',
      failures: released.problems,
    };
    report(releaseResult);
    console.log(
      `docs check: released ${String(released.versions.length)} packages to ${registry.url} (uplink ${registry.upstream}) in ${String(Math.round((Date.now() - started) / 1000))} s: ${released.versions.map((v) => `${v.name}@${v.after}`).join(', ')}`,
    );

    const env = { ...process.env, npm_config_registry: registry.url, npm_config_update_notifier: 'false' };
    if (prebuilds) env.npm_config_better_sqlite3_binary_host = prebuilds.url;
    const jobs = [];
    for (const r of readmes) {
      const rel = relative(root, r.file);
      const { installArgs, snippets } = extractReadme(readFileSync(r.file, 'utf8'));
      if (snippets.length === 0) continue;
      const line = installArgs.length > 0 ? installArgs : r.owner ? [r.owner.name] : [];
      for (const pm of managers) jobs.push({ rel, installArgs: line, snippets, pm });
    }
    const cli =
      !args.has('only') && managers.includes('npm') ? checkCli(env, work).then((rs) => (rs.forEach(report), rs)) : Promise.resolve([]);
    const readmeResults = await pool(jobs, 3, async (job) => {
      const failures = await checkReadme(job, env, work);
      const counted = job.snippets.filter((s) => s.marker !== 'skip').length;
      const ran = job.snippets.filter((s) => s.marker === 'run').length;
      const result = {
        name: `${job.rel} (${job.pm})`,
        line: `${job.rel} (${job.pm}): ${job.pm === 'npm' ? 'npm install' : 'pnpm add'} ${job.installArgs.join(' ')}; ${String(counted)} snippet(s) type-checked, ${String(ran)} run`,
        status: failures.length === 0 ? 'passed' : 'failed',
        failures,
      };
      report(result);
      return result;
    });
    const results = [releaseResult, ...readmeResults, ...(await cli)].map(({ name, status }) => ({ name, status }));
    const failed = results.filter((r) => r.status === 'failed').length;
    console.log(
      `docs check: ${String(results.length - failed)} passed, ${String(failed)} failed in ${String(Math.round((Date.now() - started) / 1000))} s`,
    );
    writeResults(results);
    if (failed === 0 && !args.has('only')) {
      mkdirSync(join(stamp, '..'), { recursive: true });
      writeFileSync(stamp, digest);
      writeFileSync(`${stamp}.json`, JSON.stringify(results));
    }
    return failed === 0 ? 0 : 1;
  } finally {
    for (const close of closers) await close();
    rmSync(work, { recursive: true, force: true });
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

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
