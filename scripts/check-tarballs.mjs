#!/usr/bin/env node
// No published package ships the repository's test machinery: each one is packed as
// `pnpm publish` would pack it (`pnpm pack` into a temporary folder) and the tarball is read
// for the plumbing's file names and exported names (they live in the private
// @headway/test-utils). Run it after a build: `node scripts/check-tarballs.mjs`; the test
// command runs it through scripts/check-tarballs.test.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** File names of the test machinery (any folder, any extension). */
export const PLUMBING_FILES = /(^|\/)(test-part|test-server|test-process|test-timing|run-isolated)\.(ts|js|d\.ts|js\.map|d\.ts\.map)$/;
/** Names the test machinery exports. */
export const PLUMBING_NAMES = /\b(findTestPart|startTestServer|startLineProcess|runIsolated|createIsolatedRunner)\b/;

/** Workspace packages that are published (not `private`): their folders. */
export function publishedPackageDirs() {
  const base = join(root, 'packages');
  return readdirSync(base)
    .sort()
    .map((name) => join(base, name))
    .filter((dir) => existsSync(join(dir, 'package.json')) && !JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).private);
}

/**
 * Packs the package in `dir` and returns what in its tarball is plumbing: `{ files, offenders }`,
 * every file the tarball holds and `file: why` for each one that is plumbing.
 */
export function plumbingIn(dir) {
  const out = mkdtempSync(join(tmpdir(), 'headway-pack-'));
  try {
    const pnpm = join(root, 'node_modules', '.bin', 'pnpm');
    const packed = spawnSync(existsSync(pnpm) ? pnpm : 'pnpm', ['pack', '--pack-destination', out], { cwd: dir, encoding: 'utf8' });
    if (packed.status !== 0) throw new Error(`pnpm pack failed in ${dir}:\n${packed.stdout}${packed.stderr}`);
    const tarball = readdirSync(out).find((f) => f.endsWith('.tgz'));
    if (tarball === undefined) throw new Error(`pnpm pack wrote no tarball for ${dir}`);
    const tar = spawnSync('tar', ['-xzf', join(out, tarball), '-C', out], { encoding: 'utf8' });
    if (tar.status !== 0) throw new Error(`tar failed on ${tarball}: ${tar.stderr}`);
    const files = [];
    const walk = (d, rel) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const r = rel === '' ? e.name : `${rel}/${e.name}`;
        if (e.isDirectory()) walk(join(d, e.name), r);
        else files.push(r);
      }
    };
    walk(join(out, 'package'), '');
    const offenders = [];
    for (const file of files.sort()) {
      if (PLUMBING_FILES.test(file)) offenders.push(`${file}: a test machinery file`);
      else if (/\.(js|ts|mjs|cjs)$/.test(file)) {
        const name = readFileSync(join(out, 'package', file), 'utf8').match(PLUMBING_NAMES)?.[0];
        if (name !== undefined) offenders.push(`${file}: names ${name}`);
      }
    }
    return { files, offenders };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let bad = 0;
  for (const dir of publishedPackageDirs()) {
    const { files, offenders } = plumbingIn(dir);
    console.log(`${offenders.length === 0 ? 'ok  ' : 'FAIL'} ${dir.slice(root.length)} (${files.length} files)`);
    for (const o of offenders) console.log(`     ${o}`);
    bad += offenders.length;
  }
  process.exit(bad === 0 ? 0 : 1);
}
