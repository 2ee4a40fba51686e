#!/usr/bin/env node
// The publish step of every release: `pnpm release` runs it after `changeset version` and the
// build, and the docs check (scripts/check-docs.mjs) runs the same function against a local
// registry, so the test command rehearses exactly what a release sends.
//
// For every package under packages/ that is not private and whose version is not on the registry
// yet: `pnpm pack` (one `pnpm -r pack` for all of them: pnpm writes the real versions in place of
// `workspace:` ranges, as `pnpm publish` does), then what `npm publish <tarball>` does, with the
// npm on the PATH's own modules (pacote reads the tarball's manifest, libnpmpublish sends it), all
// in this process. Before anything is sent, every tarball's manifest is read: one with a
// `workspace:` range left, or a version below 0.1.0, stops the release. After the publish, what
// the registry serves is read back and compared with the manifests (see
// publishedManifestProblems); any difference fails the release.
//
// The registry and its credentials are npm's configuration, read the way npm reads them (the
// environment's `npm_config_*`, the project's .npmrc, the user's ~/.npmrc — where
// changesets/action writes NPM_TOKEN): `npm_config_registry=http://127.0.0.1:4873/ pnpm release`
// publishes to a local verdaccio. Packages go out with `access: public` (the changesets config)
// and the `latest` tag unless npm's configuration says otherwise.
//
// Usage: node scripts/publish.mjs [--no-git-tag]
// Prints `New tag: <name>@<version>` for each package it published (the line changesets/action
// reads to make GitHub releases) and, in a git work tree, makes that tag as `changeset publish`
// does. Exits 1 when anything was refused, failed, or reads back wrong.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve as resolvePath } from 'node:path';
import { run, settleInPool } from './lib/process.mjs';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');

/** Lifecycle scripts `pnpm publish` would run; a package with one is refused (they are not run here). */
export const PUBLISH_SCRIPTS = ['prepublishOnly', 'prepublish', 'prepack', 'postpack', 'publish', 'postpublish'];
const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'];
/** How many packages are sent at once (`changeset publish` sends ten at once). */
const AT_ONCE = 10;

/** Name → manifest of every workspace package under `cwd` (packages/ and examples/), private ones too. */
export function workspaceManifests(cwd) {
  const out = new Map();
  for (const group of ['packages', 'examples']) {
    if (!existsSync(join(cwd, group))) continue;
    for (const name of readdirSync(join(cwd, group)).sort()) {
      const file = join(cwd, group, name, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      out.set(manifest.name, { dir: join(cwd, group, name), manifest });
    }
  }
  return out;
}

/**
 * What in a manifest about to be published (read from its tarball) stops the release: a
 * `workspace:` range left in any dependency field, or a version below 0.1.0 (a first release is
 * 0.1.0: the package needs a minor changeset).
 */
export function tarballManifestProblems(manifest) {
  const problems = [];
  const id = `${String(manifest?.name)}@${String(manifest?.version)}`;
  for (const field of DEPENDENCY_FIELDS)
    for (const [name, range] of Object.entries(manifest?.[field] ?? {}))
      if (String(range).startsWith('workspace:')) problems.push(`${id}: ${field}.${name} is ${String(range)} in the tarball`);
  if (typeof manifest?.version !== 'string' || /^0\.0\./.test(manifest.version))
    problems.push(`${id}: a release goes out at 0.1.0 or later (give the package a minor changeset)`);
  return problems;
}

/**
 * What is wrong with what the registry serves for the released packages (`packuments`, in the
 * order of `staged`, their manifests after `changeset version`): each must be there at its
 * released version as `latest`, with every dependency range as in its manifest except the
 * `workspace:` ones, which must read as `pnpm publish` writes them (`workspace:^` → `^<version>`,
 * `workspace:~` → `~<version>`, `workspace:*` → `<version>`, `workspace:<range>` → `<range>`,
 * with the released version of that package, or for a package that is not released (the private
 * test machinery in devDependencies) its version in `others`). No `workspace:` range may be left
 * anywhere.
 */
export function publishedManifestProblems(staged, packuments, others = new Map()) {
  const released = new Map([...others, ...staged.map((m) => [m.name, m.version])]);
  const problems = [];
  staged.forEach((m, i) => {
    const doc = packuments[i];
    const got = doc?.versions?.[m.version];
    if (got === undefined || doc?.['dist-tags']?.latest !== m.version) {
      problems.push(
        `${m.name}@${m.version}: not published as latest (the registry has ${Object.keys(doc?.versions ?? {}).join(', ') || 'nothing'})`,
      );
      return;
    }
    for (const field of DEPENDENCY_FIELDS) {
      const want = Object.fromEntries(
        Object.entries(m[field] ?? {}).map(([name, range]) => {
          const w = /^workspace:(.*)$/.exec(String(range));
          if (!w) return [name, range];
          const version = released.get(name) ?? '?';
          return [name, w[1] === '^' || w[1] === '~' ? `${w[1]}${version}` : w[1] === '*' || w[1] === '' ? version : w[1]];
        }),
      );
      for (const name of Object.keys({ ...want, ...(got[field] ?? {}) })) {
        if (String(got[field]?.[name]).startsWith('workspace:'))
          problems.push(`${m.name}@${m.version}: ${field}.${name} published as ${got[field][name]}`);
        else if (got[field]?.[name] !== want[name])
          problems.push(
            `${m.name}@${m.version}: ${field}.${name} published as ${String(got[field]?.[name])}, expected ${String(want[name])} (${String(m[field]?.[name])})`,
          );
      }
    }
  });
  return problems;
}

/** The npm on the PATH: its directory, and a loader for the modules it publishes with. */
function npmInstall() {
  const which = spawnSync('bash', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
  // bin/npm is a link to (or, on Windows, a wrapper beside) the npm package's bin/npm-cli.js.
  let dir = existsSync(which) ? dirname(dirname(realpathSync(which))) : '';
  if (!existsSync(join(dir, 'node_modules', 'libnpmpublish'))) dir = join(dirname(which), 'node_modules', 'npm');
  // Not dependencies of the workspace: npm's own copies, loaded from npm's directory.
  const require = createRequire(join(dir, 'package.json'));
  const load = (name) => {
    try {
      return require(join(dir, 'node_modules', name));
    } catch (error) {
      throw new Error(`could not load ${name} of the npm at ${which || '(no npm on the PATH)'}: ${error.message}`);
    }
  };
  return { dir, load };
}

/**
 * npm's configuration for `cwd`, read as npm reads it (`env`'s `npm_config_*`, the project's and
 * the user's .npmrc, npm's global and built-in ones), flattened as npm hands it to its publish.
 */
async function npmOptions(npm, cwd, env) {
  const Config = npm.load('@npmcli/config');
  const { definitions, flatten, nerfDarts, shorthands } = npm.load('@npmcli/config/lib/definitions');
  const config = new Config({ npmPath: npm.dir, definitions, flatten, nerfDarts, shorthands, argv: [], env, cwd, warn: false });
  await config.load();
  const access = JSON.parse(readFileSync(join(cwd, '.changeset', 'config.json'), 'utf8')).access ?? 'public';
  const flat = { ...config.flat, progress: false };
  if (flat.access === null || flat.access === undefined) flat.access = access;
  return { flat, flatten, credentialsFor: (registry) => config.getCredentialsByURI(registry) };
}

/**
 * Publishes the workspace at `cwd` (versions already set by `changeset version`, packages built)
 * to the registry npm's configuration names (read with `env`). Resolves with what it published,
 * what was on the registry already, what is wrong with what the registry serves now (empty when
 * all is well) and how long each part took. Rejects, before sending anything, when a package has
 * a lifecycle script `pnpm publish` would run, or a tarball keeps a `workspace:` range or a 0.0.x
 * version; and when the pack or a publish fails.
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, pnpm?: string, gitTag?: boolean, log?: (line: string) => void }} [options]
 */
export async function publishWorkspace({
  cwd = root,
  env = process.env,
  pnpm = join(root, 'node_modules', '.bin', 'pnpm'),
  gitTag = false,
  log = () => {},
} = {}) {
  const timings = {};
  const timed = async (name, fn) => {
    const t0 = Date.now();
    try {
      return await fn();
    } finally {
      timings[name] = Date.now() - t0;
    }
  };
  const workspace = workspaceManifests(cwd);
  const candidates = [...workspace.values()].filter((p) => !p.manifest.private && p.dir.startsWith(join(cwd, 'packages')));
  const npm = npmInstall();
  const pacote = npm.load('pacote');
  const libnpmpublish = npm.load('libnpmpublish');
  const npmFetch = npm.load('npm-registry-fetch');
  const { flat, flatten, credentialsFor } = await npmOptions(npm, cwd, env);

  // What is on the registry already (a 404 is a package never published).
  const onRegistry = await timed('registry lookup', () =>
    Promise.all(
      candidates.map(async ({ manifest }) => {
        try {
          const doc = await npmFetch.json(`/${manifest.name.replace('/', '%2f')}`, { ...flat, preferOnline: true, spec: manifest.name });
          return Object.hasOwn(doc.versions ?? {}, manifest.version);
        } catch (error) {
          if (error?.statusCode === 404 || error?.code === 'E404') return false;
          throw new Error(`${manifest.name}: could not ask the registry which versions it has: ${error?.message ?? String(error)}`);
        }
      }),
    ),
  );
  const skipped = candidates.filter((_, i) => onRegistry[i]).map((p) => ({ name: p.manifest.name, version: p.manifest.version }));
  for (const s of skipped) log(`${s.name}@${s.version} is on the registry already: not published`);
  const todo = candidates.filter((_, i) => !onRegistry[i]);
  if (todo.length === 0) return { published: [], skipped, problems: [], timings };

  const scripted = todo.filter((p) => PUBLISH_SCRIPTS.some((s) => p.manifest.scripts?.[s] !== undefined));
  if (scripted.length > 0)
    throw new Error(
      `${scripted.map((p) => p.manifest.name).join(', ')}: a ${PUBLISH_SCRIPTS.join('/')} script, which this publish does not run as \`pnpm publish\` would; run it in scripts/publish.mjs`,
    );

  const tarballs = mkdtempSync(join(tmpdir(), 'headway-publish-'));
  try {
    const packed = await timed('pnpm pack', () =>
      run(pnpm, ['-r', ...todo.flatMap((p) => ['--filter', p.manifest.name]), 'pack', '--pack-destination', tarballs, '--json'], {
        cwd,
        env,
      }),
    );
    let files;
    try {
      files = [JSON.parse(packed.stdout)].flat().map((f) => resolvePath(tarballs, f.filename));
    } catch {
      files = undefined;
    }
    if (packed.code !== 0 || files?.length !== todo.length) throw new Error(`pnpm -r pack failed:\n${packed.out.trim()}`);

    // Every tarball is read before any is sent: a release goes out whole or not at all.
    const manifests = await timed('read tarballs', () =>
      Promise.all(files.map((file) => pacote.manifest(file, { ...flat, fullMetadata: true, fullReadJson: true }))),
    );
    const refused = manifests.flatMap(tarballManifestProblems);
    if (refused.length > 0) throw new Error(`refused to publish:\n${refused.join('\n')}`);

    const sent = await timed('publish', () =>
      settleInPool(files, AT_ONCE, async (file) => {
        const manifest = manifests[files.indexOf(file)];
        // As npm publish does: a package's publishConfig holds npm settings for its publish.
        const opts = { ...flat, defaultTag: flat.defaultTag ?? 'latest' };
        if (manifest.publishConfig) flatten(manifest.publishConfig, opts);
        const registry = npmFetch.pickRegistry(manifest.name, opts);
        const creds = credentialsFor(registry);
        if (!creds.token && !creds.username && !(creds.certfile && creds.keyfile))
          throw new Error(`no credentials for ${registry} in npm's configuration (an _authToken in .npmrc, or npm_config_//…:_authToken)`);
        await libnpmpublish.publish(manifest, readFileSync(file), opts);
        return { name: manifest.name, version: manifest.version };
      }),
    );
    const failed = sent.flatMap((r, i) =>
      r.status === 'fulfilled' ? [] : [`publish of ${basename(files[i])} failed: ${r.reason?.message ?? String(r.reason)}`],
    );
    if (failed.length > 0) throw new Error(failed.join('\n'));
    const published = sent.map((r) => r.value);

    // Read back: what a user's npm will get, not what was meant to be sent.
    const staged = todo.map((p) => p.manifest);
    const packuments = await timed('read back', () =>
      Promise.all(
        staged.map((m) =>
          npmFetch
            .json(`/${m.name.replace('/', '%2f')}`, { ...flat, preferOnline: true, spec: m.name })
            .catch((error) => ({ error: error?.message ?? String(error) })),
        ),
      ),
    );
    const others = new Map([...workspace].map(([name, p]) => [name, p.manifest.version]));
    const problems = publishedManifestProblems(staged, packuments, others);

    for (const p of published) {
      if (gitTag) {
        const tag = `${p.name}@${p.version}`;
        const exists = spawnSync('git', ['rev-parse', '-q', '--verify', `refs/tags/${tag}`], { cwd }).status === 0;
        if (!exists && spawnSync('git', ['tag', tag, '-m', tag], { cwd, stdio: 'inherit' }).status !== 0)
          problems.push(`${tag}: published, but the git tag could not be made`);
      }
      log(`New tag: ${p.name}@${p.version}`);
    }
    return { published, skipped, problems, timings };
  } finally {
    rmSync(tarballs, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const inGit =
    spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: process.cwd(), encoding: 'utf8' }).stdout?.trim() === 'true';
  publishWorkspace({ cwd: process.cwd(), gitTag: inGit && !process.argv.includes('--no-git-tag'), log: (line) => console.log(line) }).then(
    ({ published, skipped, problems }) => {
      for (const p of problems) console.error(p);
      console.log(
        `publish: ${String(published.length)} published, ${String(skipped.length)} on the registry already${problems.length > 0 ? `, ${String(problems.length)} problem(s) reading them back` : ''}`,
      );
      process.exit(problems.length === 0 ? 0 : 1);
    },
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
