#!/usr/bin/env node
// Docs are code: every TypeScript snippet in every package README (and the root README) is
// type-checked and run the way a new user would meet it. For each package with snippets, its
// packed tarball is installed alone, with exactly what its README's install line names, into a
// fresh temporary project — once with npm (hoisted layout) and once with pnpm (strict layout) —
// then every snippet is type-checked with `tsc --strict` (no skipLibCheck) and the ones that can
// run in Node are run.
//
// Markers, on the line before a ```ts fence:
//   <!-- docs-check: browser -->     type-checked with the DOM library, not run
//   <!-- docs-check: no-run -->      type-checked, not run (needs a key, a server, user input…)
//   <!-- docs-check: skip -->        neither (a fragment shown for its shape); say why beside it
//
// Usage: node scripts/check-docs.mjs [--only=<package dir name>] [--pm=npm|pnpm] [--force]
// Prints one line per README and package manager, writes .docs-check/results.json, exits 1 on
// any failure. A run whose READMEs and packages are unchanged since the last green run is skipped
// (the hash lives in node_modules/.cache/headway-docs-check); --force runs anyway.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const managers = args.has('pm') ? [args.get('pm')] : ['npm', 'pnpm'];
const { devDependencies: rootDev } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const RUN_TIMEOUT_MS = 60_000;
const INSTALL_TIMEOUT_MS = 300_000;

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

/** The README's install line and its TypeScript snippets, with their line numbers and markers. */
export function extractReadme(text) {
  const lines = text.split('\n');
  const snippets = [];
  let install;
  for (let i = 0; i < lines.length; i += 1) {
    const fence = /^```(\w*)\s*$/.exec(lines[i]);
    if (!fence) continue;
    const lang = fence[1];
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end += 1;
    const body = lines.slice(i + 1, end);
    if ((lang === 'sh' || lang === 'bash') && install === undefined) {
      const line = body.find((l) => /^\s*npm install\b/.test(l));
      if (line)
        install = line
          .replace(/#.*$/, '')
          .trim()
          .split(/\s+/)
          .slice(2)
          .filter((w) => !w.startsWith('-'));
    }
    if (lang === 'ts' || lang === 'typescript') {
      const marker = /<!--\s*docs-check:\s*([\w-]+)/.exec(lines[i - 1] ?? '')?.[1] ?? 'run';
      snippets.push({ line: i + 2, code: body.join('\n'), marker });
    }
    i = end;
  }
  return { install: install ?? [], snippets };
}

function sh(cmd, argv, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const limit = opts.timeout ?? INSTALL_TIMEOUT_MS;
    const timer = setTimeout(() => {
      out += `\n(timed out after ${limit} ms)`;
      child.kill('SIGKILL');
    }, limit);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 1 : 0), out });
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: 1, out: `${out}\n${error.message}` });
    });
  });
}

const pnpmBin = join(root, 'node_modules', '.bin', 'pnpm');

/** Packs every published package once; returns name → tarball path. */
function packAll(pkgs, dest) {
  const tarballs = new Map();
  for (const p of pkgs) {
    const r = spawnSync(pnpmBin, ['pack', '--pack-destination', dest], { cwd: p.dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`pnpm pack failed in ${relative(root, p.dir)}:\n${r.stdout}${r.stderr}`);
    const file = readdirSync(dest).find((f) => f.startsWith(p.name.replace('@', '').replace('/', '-') + '-'));
    if (!file) throw new Error(`no tarball for ${p.name} in ${dest}`);
    tarballs.set(p.name, join(dest, file));
  }
  return tarballs;
}

/** The version range our own manifests use for a third-party package, so snippets meet what users get. */
function rangeFor(name, pkgs) {
  for (const p of pkgs) {
    for (const field of ['dependencies', 'peerDependencies', 'devDependencies']) {
      const v = p.manifest[field]?.[name];
      if (v && !v.startsWith('workspace:')) return v;
    }
  }
  return rootDev?.[name] ?? 'latest';
}

function projectManifest(install, tarballs, pkgs, pm) {
  const dependencies = {};
  for (const name of install) {
    dependencies[name] = tarballs.has(name) ? `file:${tarballs.get(name)}` : rangeFor(name, pkgs);
  }
  const overrides = Object.fromEntries([...tarballs].map(([name, file]) => [name, `file:${file}`]));
  const manifest = {
    name: 'docs-check-project',
    private: true,
    type: 'module',
    dependencies,
    devDependencies: { typescript: rootDev.typescript, '@types/node': rootDev['@types/node'] },
  };
  if (pm === 'npm') manifest.overrides = overrides;
  else manifest.pnpm = { overrides, onlyBuiltDependencies: ['better-sqlite3', 'esbuild'] };
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

/**
 * npm compiles better-sqlite3 from source on every fresh install here (about 100 s on two cores:
 * its prebuilt binaries come from a host this machine cannot reach). The same version is already
 * built in the workspace's pnpm store, so its binary is reused; any other native package is built
 * the ordinary way with `npm rebuild`.
 */
async function buildNative(project) {
  const modules = join(project, 'node_modules');
  const sqlite = join(modules, 'better-sqlite3');
  if (existsSync(sqlite)) {
    const { version } = JSON.parse(readFileSync(join(sqlite, 'package.json'), 'utf8'));
    const prebuilt = join(root, 'node_modules', '.pnpm', `better-sqlite3@${version}`, 'node_modules', 'better-sqlite3', 'build');
    if (existsSync(join(prebuilt, 'Release', 'better_sqlite3.node'))) cpSync(prebuilt, join(sqlite, 'build'), { recursive: true });
    else {
      const r = await sh('npm', ['rebuild', 'better-sqlite3'], { cwd: project });
      if (r.code !== 0) return r.out.trim();
    }
  }
  return undefined;
}

async function checkReadme(readme, install, snippets, tarballs, pkgs, pm) {
  const project = mkdtempSync(join(tmpdir(), `headway-docs-${pm}-`));
  const failures = [];
  try {
    writeFileSync(join(project, 'package.json'), JSON.stringify(projectManifest(install, tarballs, pkgs, pm), null, 2));
    const inst =
      pm === 'npm'
        ? await sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--ignore-scripts'], { cwd: project })
        : await sh(pnpmBin, ['install', '--reporter=append-only'], { cwd: project });
    if (inst.code !== 0) return [`install failed (${pm}):\n${inst.out.trim()}`];
    if (pm === 'npm') {
      const built = await buildNative(project);
      if (built) return [`install failed (${pm}): ${built}`];
    }

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
      const r = await sh(tsc, ['-p', name, ...(name === 'tsconfig.json' ? [] : ['--noEmit'])], { cwd: project });
      if (r.code !== 0) failures.push(`type errors (${pm}):\n${explain(r.out.trim(), snippets, readme)}`);
    }
    if (failures.length > 0) return failures;
    for (const [i, s] of snippets.entries()) {
      if (s.marker !== 'run') continue;
      const r = await sh(process.execPath, [join('out', `snippet-${i}.js`)], { cwd: project, timeout: RUN_TIMEOUT_MS });
      if (r.code !== 0)
        failures.push(`${readme}:${s.line}: the snippet failed when run (${pm}):\n${r.out.trim().split('\n').slice(-15).join('\n')}`);
    }
    return failures;
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
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

async function main() {
  const pkgs = workspacePackages();
  const readmes = [{ file: join(root, 'README.md'), owner: undefined }, ...pkgs.map((p) => ({ file: join(p.dir, 'README.md'), owner: p }))]
    .filter((r) => existsSync(r.file))
    .filter((r) => !args.has('only') || r.owner?.short === args.get('only'));

  const work = mkdtempSync(join(tmpdir(), 'headway-docs-'));
  const tarDir = join(work, 'tarballs');
  mkdirSync(tarDir);
  try {
    const tarballs = packAll(pkgs, tarDir);
    const hash = createHash('sha256');
    hash.update(JSON.stringify(managers));
    for (const r of readmes) hash.update(readFileSync(r.file));
    for (const file of [...tarballs.values()].sort()) hash.update(readFileSync(file));
    hash.update(readFileSync(new URL(import.meta.url)));
    const digest = hash.digest('hex');
    const stamp = join(root, 'node_modules', '.cache', 'headway-docs-check', 'green');
    if (!args.has('force') && !args.has('only') && existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) {
      console.log('docs check: READMEs and packages unchanged since the last green run (use --force to run again)');
      writeResults(JSON.parse(readFileSync(`${stamp}.json`, 'utf8')));
      return 0;
    }

    const jobs = [];
    for (const r of readmes) {
      const rel = relative(root, r.file);
      const { install, snippets } = extractReadme(readFileSync(r.file, 'utf8'));
      if (snippets.length === 0) continue;
      const needed = install.length > 0 ? install : r.owner ? [r.owner.name] : [];
      for (const pm of managers) jobs.push({ rel, install: needed, snippets, pm });
    }
    const started = Date.now();
    const results = await pool(jobs, 3, async (job) => {
      const failures = await checkReadme(job.rel, job.install, job.snippets, tarballs, pkgs, job.pm);
      const counted = job.snippets.filter((s) => s.marker !== 'skip').length;
      const ran = job.snippets.filter((s) => s.marker === 'run').length;
      const status = failures.length === 0 ? 'passed' : 'failed';
      console.log(`${status === 'passed' ? '✓' : '✗'} ${job.rel} (${job.pm}): ${counted} snippet(s) type-checked, ${ran} run`);
      for (const f of failures) console.log(f.replace(/^/gm, '    '));
      return { name: `${job.rel} (${job.pm})`, status };
    });
    const failed = results.filter((r) => r.status === 'failed').length;
    console.log(`docs check: ${results.length - failed} passed, ${failed} failed in ${Math.round((Date.now() - started) / 1000)} s`);
    writeResults(results);
    if (failed === 0 && !args.has('only')) {
      mkdirSync(join(stamp, '..'), { recursive: true });
      writeFileSync(stamp, digest);
      writeFileSync(`${stamp}.json`, JSON.stringify(results));
    }
    return failed === 0 ? 0 : 1;
  } finally {
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
