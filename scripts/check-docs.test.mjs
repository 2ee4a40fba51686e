// Tests of scripts/check-docs.mjs without a registry: how it reads a README, and its type check
// (what `tsc -p` would report, and which declaration files it checks again). Run:
// node --test scripts/check-docs.test.mjs (the root `npm test` runs it).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { checkReadme, createTypeCheckers, extractReadme, retryingNetworkErrors, runCaches, tsconfig } from './check-docs.mjs';
import { createLimit } from './lib/process.mjs';

const limit = { timeout: 120_000 };
// Tests that install from a registry: real npm and pnpm runs, which a busy machine slows to minutes.
const installLimit = { timeout: 900_000 };
const work = mkdtempSync(join(tmpdir(), 'headway-docs-test-'));
const checkers = createTypeCheckers(1, work);
after(async () => {
  await checkers.close();
  rmSync(work, { recursive: true, force: true });
});

/** A project on disk: `files` maps a path in it to its text. */
function project(name, files) {
  const dir = join(work, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const pkg = (name, version) => JSON.stringify({ name, version, types: 'index.d.ts' });
const cleanDep = {
  'node_modules/dep/package.json': pkg('dep', '1.0.0'),
  'node_modules/dep/index.d.ts': 'export declare const n: number;\n',
};
const ours = {
  'node_modules/@headway/x/package.json': pkg('@headway/x', '0.1.0'),
  'node_modules/@headway/x/index.d.ts': "import { n } from 'dep';\nexport declare const x: typeof n;\n",
};
const config = (files) => ({ 'tsconfig.json': JSON.stringify(tsconfig(files, ['es2023'], [])) });

test('reads the install line as written and the snippets with their markers and line numbers', () => {
  const readme = [
    '# x', // 1
    '```sh', // 2
    'npm install @headway/x zod@^4 -D   # with a comment', // 3
    '```', // 4
    '<!-- docs-check: no-run -->', // 5
    '```ts', // 6
    'const a = 1;', // 7
    '```', // 8
  ].join('\n');
  assert.deepEqual(extractReadme(readme), {
    install: ['@headway/x', 'zod'],
    installArgs: ['@headway/x', 'zod@^4', '-D'],
    snippets: [{ line: 7, code: 'const a = 1;', marker: 'no-run' }],
  });
});

test('a snippet with a type error fails with what tsc says, at its line', limit, async () => {
  const dir = project('broken', {
    ...cleanDep,
    ...ours,
    ...config(['snippet-0.ts']),
    'snippet-0.ts': "import { x } from '@headway/x';\nconst s: string = x;\nexport {};\n",
  });
  const r = await checkers.check({ project: dir, configs: [{ file: 'tsconfig.json', emit: true }], clean: [] });
  assert.equal(r.error, undefined);
  assert.match(r.output, /^snippet-0\.ts\(2,7\): error TS2322: Type 'number' is not assignable to type 'string'\.\n/);
});

test('a clean third-party declaration file is checked once; ours and the snippets every time; errors every time', limit, async () => {
  const files = {
    ...cleanDep,
    ...ours,
    'node_modules/bad/package.json': pkg('bad', '2.0.0'),
    'node_modules/bad/index.d.ts': 'export declare const b: Missing;\n',
    ...config(['snippet-0.ts']),
    'snippet-0.ts': "import { x } from '@headway/x';\nimport { b } from 'bad';\nexport const y = [x, b];\n",
  };
  const first = await checkers.check({
    project: project('a', files),
    configs: [{ file: 'tsconfig.json', emit: false }],
    clean: [],
  });
  assert.match(first.output, /node_modules\/bad\/index\.d\.ts\(1,25\): error TS2304: Cannot find name 'Missing'\./);
  // dep's file and TypeScript's lib files checked clean; not bad's (an error), not ours, not the snippet.
  assert.ok(first.found.some((k) => k.includes('|dep@1.0.0/index.d.ts|')));
  assert.ok(first.found.some((k) => k.includes('|typescript-lib:lib.es5.d.ts|')));
  assert.ok(!first.found.some((k) => /bad@|@headway\/x@|snippet/.test(k)));
  assert.equal(first.skipped, 0);

  // Another project with the same files: the parsed files are reused, the project is back where it was.
  const second = await checkers.check({
    project: project('b', files),
    configs: [{ file: 'tsconfig.json', emit: false }],
    clean: first.found,
  });
  assert.equal(second.skipped, first.found.length);
  // The first project found TypeScript's libs, dep's and ours parsed (the test before had them at
  // the worker's place); the snippet and bad's file were new there, and are parsed before here.
  assert.equal(second.reused, first.reused + 2);
  assert.equal(second.output, first.output);
  assert.ok(existsSync(join(work, 'b', 'snippet-0.ts')));
  assert.equal(second.checked, 3); // the snippet, @headway/x, bad
  assert.match(second.output, /node_modules\/bad\/index\.d\.ts\(1,25\): error TS2304/);

  // The same files laid out another way (pnpm's store instead of npm's tree): skipped as well.
  const pnpmLayout = Object.fromEntries(
    Object.entries(files).map(([path, text]) => [
      path.replace(/^node_modules\/dep\//, 'node_modules/.pnpm/dep@1.0.0/node_modules/dep/'),
      text,
    ]),
  );
  pnpmLayout['node_modules/@headway/x/index.d.ts'] =
    "import { n } from '../../.pnpm/dep@1.0.0/node_modules/dep/index.js';\nexport declare const x: typeof n;\n";
  const pnpm = await checkers.check({
    project: project('c', pnpmLayout),
    configs: [{ file: 'tsconfig.json', emit: false }],
    clean: first.found,
  });
  assert.equal(pnpm.skipped, first.found.length);
  assert.equal(pnpm.checked, 3);
  const bumped = { ...files, 'node_modules/dep/package.json': pkg('dep', '1.0.1') };
  const other = await checkers.check({
    project: project('d', bumped),
    configs: [{ file: 'tsconfig.json', emit: false }],
    clean: first.found,
  });
  assert.ok(other.found.some((k) => k.includes('|dep@1.0.1/index.d.ts|')));
  const broken = { ...bumped, 'node_modules/dep/index.d.ts': "import type { Gone } from 'gone';\nexport declare const n: Gone;\n" };
  const r = await checkers.check({
    project: project('e', broken),
    configs: [{ file: 'tsconfig.json', emit: false }],
    clean: other.found,
  });
  assert.match(r.output, /node_modules\/dep\/index\.d\.ts\(1,27\): error TS2307: Cannot find module 'gone'/);
});

test('a clean declaration file is checked again when a file it reaches through another changes', limit, async () => {
  const files = (dep2Version, dep2Type) => ({
    'node_modules/dep/package.json': pkg('dep', '1.0.0'),
    'node_modules/dep/index.d.ts': "import type { T } from 'dep2';\nexport declare const n: T;\n",
    'node_modules/dep2/package.json': pkg('dep2', dep2Version),
    'node_modules/dep2/index.d.ts': `export type T = ${dep2Type};\n`,
    ...config(['snippet-0.ts']),
    'snippet-0.ts': "import { n } from 'dep';\nexport const y = n;\n",
  });
  const configs = [{ file: 'tsconfig.json', emit: false }];
  const first = await checkers.check({ project: project('t1', files('1.0.0', 'number')), configs, clean: [] });
  assert.equal(first.output, '');
  const depKey = first.found.find((k) => k.includes('|dep@1.0.0/index.d.ts|'));
  assert.ok(depKey);
  // dep is the same file, resolving 'dep2' to the same path, but dep2 is another version: dep is
  // checked again (its key is another), and dep2's new text is checked.
  const second = await checkers.check({ project: project('t2', files('1.0.1', 'Missing')), configs, clean: first.found });
  assert.ok(!second.found.includes(depKey));
  assert.match(second.output, /node_modules\/dep2\/index\.d\.ts\(1,17\): error TS2304: Cannot find name 'Missing'\./);
  // The same tree again: dep is skipped.
  const third = await checkers.check({ project: project('t3', files('1.0.0', 'number')), configs, clean: first.found });
  assert.equal(third.skipped, first.found.length);
});

test(
  'a whole program that checked clean is not checked again in another project or layout: its output is written as it was',
  limit,
  async () => {
    const files = {
      ...cleanDep,
      ...ours,
      ...config(['snippet-0.ts']),
      'package.json': JSON.stringify({ type: 'module' }),
      'snippet-0.ts': "import { x } from '@headway/x';\nexport const y: number = x + 1;\n",
    };
    const configs = [{ file: 'tsconfig.json', emit: true }];
    const first = await checkers.check({ project: project('w1', files), configs, clean: [], programs: {} });
    assert.equal(first.output, '');
    assert.equal(first.same, 0);
    assert.ok(first.checked > 0);
    assert.deepEqual(
      first.programs.map((p) => p.outputs),
      [[['out/snippet-0.js', "import { x } from '@headway/x';\nexport const y = x + 1;\n"]]],
    );
    const programs = Object.fromEntries(first.programs.map((p) => [p.key, p.outputs]));

    // The same files in another project, and laid out as pnpm does: nothing is checked, the output is there.
    const pnpmLayout = Object.fromEntries(
      Object.entries(files).map(([path, text]) => [
        path.replace(/^node_modules\/dep\//, 'node_modules/.pnpm/dep@1.0.0/node_modules/dep/'),
        text,
      ]),
    );
    mkdirSync(join(work, 'w2', 'node_modules'), { recursive: true });
    const w2 = project('w2', pnpmLayout);
    symlinkSync('.pnpm/dep@1.0.0/node_modules/dep', join(w2, 'node_modules', 'dep'));
    const second = await checkers.check({ project: w2, configs, clean: [], programs });
    assert.deepEqual([second.output, second.same, second.checked, second.programs], ['', 1, 0, []]);
    assert.equal(readFileSync(join(w2, 'out', 'snippet-0.js'), 'utf8'), "import { x } from '@headway/x';\nexport const y = x + 1;\n");

    // A snippet changed by one character is another program: checked, and its error found.
    const broken = { ...files, 'snippet-0.ts': "import { x } from '@headway/x';\nexport const y: string = x + 1;\n" };
    const third = await checkers.check({ project: project('w3', broken), configs, clean: [], programs });
    assert.equal(third.same, 0);
    assert.match(third.output, /^snippet-0\.ts\(2,14\): error TS2322: Type 'number' is not assignable to type 'string'\.\n/);
    assert.deepEqual(third.programs, []);
    // A program with an error is never recorded: the same broken program fails every time.
    const fourth = await checkers.check({ project: project('w4', broken), configs, clean: [], programs });
    assert.equal(fourth.output, third.output);

    // Another version of a package the snippet reaches (the same text): another program.
    const bumped = { ...files, 'node_modules/dep/package.json': pkg('dep', '1.0.1') };
    const fifth = await checkers.check({ project: project('w5', bumped), configs, clean: [], programs });
    assert.equal(fifth.same, 0);
    assert.equal(fifth.output, '');
  },
);

test('an install line that does not install fails its README, with what npm and pnpm said', installLimit, async () => {
  // A registry that has nothing: every package is a 404, as a name the README got wrong would be.
  const asked = [];
  const server = createServer((req, res) => {
    asked.push(req.url);
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const place = mkdtempSync(join(work, 'install-'));
    const caches = runCaches(place);
    const env = {
      ...process.env,
      npm_config_registry: `http://127.0.0.1:${String(server.address().port)}/`,
      npm_config_cache: caches.npm,
      npm_config_update_notifier: 'false',
    };
    const context = {
      env,
      work: place,
      limits: { install: createLimit(1), run: createLimit(1) },
      types: checkers,
      clean: new Set(),
      programs: new Map(),
      caches,
      checkOrder: { first: undefined, byReadme: new Map() },
    };
    const snippets = [{ line: 7, code: 'export const a: string = 1;', marker: 'run' }];
    for (const [pm, command, code] of [
      ['npm', 'npm install', /\bE404\b/],
      ['pnpm', 'pnpm add', /\bERR_PNPM_FETCH_404\b/],
    ]) {
      const r = await checkReadme({ rel: 'packages/x/README.md', installArgs: ['@headway/not-published@^1'], snippets, pm }, context);
      assert.equal(r.failures.length, 1, `${pm}: ${r.failures.join('\n')}`);
      assert.ok(r.failures[0].startsWith(`${command} @headway/not-published@^1 failed:\n`), r.failures[0]);
      assert.match(r.failures[0], code);
      // Nothing after a failed install: no type check, no run.
      assert.deepEqual([r.time.types, r.time.run], [0, 0]);
    }
    assert.ok(asked.some((url) => url.includes('not-published')));
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/**
 * A registry serving `packages` (name → version → manifest fields): each version's tarball holds
 * its package.json; `latest` is the last version given.
 */
async function fakeRegistry(packages) {
  const tarballs = new Map();
  const packuments = new Map();
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).slice(1);
    const body = tarballs.get(path) ?? packuments.get(path);
    if (body === undefined) res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    else res.writeHead(200, { 'content-type': typeof body === 'string' ? 'application/json' : 'application/octet-stream' }).end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${String(server.address().port)}/`;
  for (const [name, versions] of Object.entries(packages)) {
    const packument = { name, 'dist-tags': {}, versions: {} };
    for (const [version, fields] of Object.entries(versions)) {
      const dir = mkdtempSync(join(work, 'tarball-'));
      const manifest = { name, version, ...fields };
      mkdirSync(join(dir, 'package'));
      writeFileSync(join(dir, 'package', 'package.json'), JSON.stringify(manifest));
      const file = `${name.replace('/', '-')}-${version}.tgz`;
      assert.equal(spawnSync('tar', ['-czf', join(dir, file), '-C', dir, 'package']).status, 0);
      const bytes = readFileSync(join(dir, file));
      tarballs.set(`-/${file}`, bytes);
      packument.versions[version] = {
        ...manifest,
        dist: {
          tarball: `${url}-/${file}`,
          shasum: createHash('sha1').update(bytes).digest('hex'),
          integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
        },
      };
      packument['dist-tags'].latest = version;
    }
    packuments.set(name, JSON.stringify(packument));
  }
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { url, close };
}

test("an install line whose words install a peer outside its package's range fails with pnpm", installLimit, async () => {
  // `dep` 2.0.0 is the latest, but @headway/x supports only dep 1: what `pnpm add @headway/x dep`
  // picks, and what a user of pnpm would then run.
  // Every fresh project has Node's types (the workspace's range): a version of them that it takes.
  const typesNode = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).devDependencies['@types/node'];
  const registry = await fakeRegistry({
    '@types/node': { [typesNode.replace(/^[\^~]/, '')]: {} },
    dep: { '1.0.0': {}, '2.0.0': {} },
    '@headway/x': { '0.1.0': { peerDependencies: { dep: '^1.0.0' } } },
  });
  try {
    const place = mkdtempSync(join(work, 'peers-'));
    const caches = runCaches(place);
    const context = {
      env: { ...process.env, npm_config_registry: registry.url, npm_config_cache: caches.npm, npm_config_update_notifier: 'false' },
      work: place,
      limits: { install: createLimit(1), run: createLimit(1) },
      types: checkers,
      clean: new Set(),
      programs: new Map(),
      caches,
      checkOrder: { first: undefined, byReadme: new Map() },
    };
    const snippets = [{ line: 7, code: 'export {};', marker: 'skip' }];
    const job = (installArgs, pm) => ({ rel: 'packages/x/README.md', installArgs, snippets, pm });
    const loose = await checkReadme(job(['@headway/x', 'dep'], 'pnpm'), context);
    assert.equal(loose.failures.length, 1, loose.failures.join('\n'));
    assert.equal(
      loose.failures[0],
      'pnpm add @headway/x dep installed peers outside their ranges:\n.\n└─┬ @headway/x 0.1.0\n  └── ✕ unmet peer dep@^1.0.0: found 2.0.0',
    );
    // The line that pins the supported major installs with pnpm as with npm.
    for (const pm of ['pnpm', 'npm']) {
      const pinned = await checkReadme(job(['@headway/x', 'dep@^1'], pm), context);
      assert.deepEqual(pinned.failures, [], `${pm}`);
    }
  } finally {
    await registry.close();
  }
});

test('an install that fails with a network error is tried again, at most twice; one that fails otherwise is not', async () => {
  const script = (results) => {
    const calls = [];
    return {
      calls,
      attempt: async () => {
        calls.push(calls.length);
        return results[Math.min(calls.length - 1, results.length - 1)];
      },
    };
  };
  const reset = { code: 1, out: 'npm error code ECONNRESET\nnpm error network aborted' };
  const gateway = { code: 1, out: ' ERR_PNPM_FETCH_502  GET http://127.0.0.1:4873/zod: Bad Gateway - 502' };
  const ok = { code: 0, out: 'added 3 packages' };
  const wrong = { code: 1, out: 'npm error code ETARGET\nnpm error notarget No matching version found for ai@^9.' };

  const once = script([reset, ok]);
  const r1 = await retryingNetworkErrors(once.attempt);
  assert.equal(once.calls.length, 2);
  assert.equal(r1.code, 0);
  assert.equal(r1.retries, 1);
  assert.match(r1.out, /attempt 1 failed with a network error, "ECONNRESET"; tried again\)\nadded 3 packages$/);

  const always = script([gateway]);
  const r2 = await retryingNetworkErrors(always.attempt);
  assert.equal(always.calls.length, 3);
  assert.equal(r2.code, 1);
  assert.equal(r2.retries, 2);
  assert.match(r2.out, /ERR_PNPM_FETCH_502/);

  const broken = script([wrong, ok]);
  const r3 = await retryingNetworkErrors(broken.attempt);
  assert.equal(broken.calls.length, 1);
  assert.deepEqual(r3, { ...wrong, retries: 0 });
});
