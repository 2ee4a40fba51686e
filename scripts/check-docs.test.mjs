// Tests of scripts/check-docs.mjs without a registry: how it reads a README, and its type check
// (what `tsc -p` would report, and which declaration files it checks again). Run:
// node --test scripts/check-docs.test.mjs (the root `npm test` runs it).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { createTypeCheckers, extractReadme, publishedManifestProblems, tsconfig } from './check-docs.mjs';

const limit = { timeout: 120_000 };
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
  const r = await checkers.check({ project: dir, configs: [{ file: 'tsconfig.json', emit: true }], clean: [], scope: 'npm' });
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
    scope: 'npm',
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
    scope: 'npm',
  });
  assert.equal(second.skipped, first.found.length);
  // The first project found TypeScript's libs, dep's and ours parsed (the test before had them at
  // the worker's place); the snippet and bad's file were new there, and are parsed before here.
  assert.equal(second.reused, first.reused + 2);
  assert.equal(second.output, first.output);
  assert.ok(existsSync(join(work, 'b', 'snippet-0.ts')));
  assert.equal(second.checked, 3); // the snippet, @headway/x, bad
  assert.match(second.output, /node_modules\/bad\/index\.d\.ts\(1,25\): error TS2304/);

  // Another package manager, another version of dep, or dep resolving its import elsewhere: checked again.
  const pnpm = await checkers.check({
    project: project('c', files),
    configs: [{ file: 'tsconfig.json', emit: false }],
    clean: first.found,
    scope: 'pnpm',
  });
  assert.equal(pnpm.skipped, 0);
  const bumped = { ...files, 'node_modules/dep/package.json': pkg('dep', '1.0.1') };
  const other = await checkers.check({
    project: project('d', bumped),
    configs: [{ file: 'tsconfig.json', emit: false }],
    clean: first.found,
    scope: 'npm',
  });
  assert.ok(other.found.some((k) => k.includes('|dep@1.0.1/index.d.ts|')));
  const broken = { ...bumped, 'node_modules/dep/index.d.ts': "import type { Gone } from 'gone';\nexport declare const n: Gone;\n" };
  const r = await checkers.check({
    project: project('e', broken),
    configs: [{ file: 'tsconfig.json', emit: false }],
    clean: other.found,
    scope: 'npm',
  });
  assert.match(r.output, /node_modules\/dep\/index\.d\.ts\(1,27\): error TS2307: Cannot find module 'gone'/);
});

test('what the registry serves must be the released version with the workspace ranges rewritten as pnpm publish does', () => {
  const staged = [
    { name: '@headway/a', version: '0.1.0', dependencies: { zod: '^4.1.0' } },
    {
      name: '@headway/b',
      version: '0.2.0',
      dependencies: { '@headway/a': 'workspace:^', zod: '^4.1.0' },
      peerDependencies: { '@headway/a': 'workspace:*' },
      devDependencies: { '@headway/a': 'workspace:~', vitest: '4.1.0' },
    },
  ];
  const packument = (manifest) => ({ 'dist-tags': { latest: manifest.version }, versions: { [manifest.version]: manifest } });
  const a = packument({ name: '@headway/a', version: '0.1.0', dependencies: { zod: '^4.1.0' } });
  const b = {
    name: '@headway/b',
    version: '0.2.0',
    dependencies: { '@headway/a': '^0.1.0', zod: '^4.1.0' },
    peerDependencies: { '@headway/a': '0.1.0' },
    devDependencies: { '@headway/a': '~0.1.0', vitest: '4.1.0' },
  };
  assert.deepEqual(publishedManifestProblems(staged, [a, packument(b)]), []);
  // A range left as written, a wrong rewrite, a dropped and an added dependency, another version.
  assert.deepEqual(
    publishedManifestProblems(staged, [
      a,
      packument({ ...b, dependencies: { '@headway/a': 'workspace:^', zod: '^4.1.0' }, peerDependencies: { '@headway/a': '^0.1.0' } }),
    ]),
    [
      '@headway/b@0.2.0: dependencies.@headway/a published as workspace:^',
      '@headway/b@0.2.0: peerDependencies.@headway/a published as ^0.1.0, expected 0.1.0 (workspace:*)',
    ],
  );
  assert.deepEqual(publishedManifestProblems(staged, [a, packument({ ...b, dependencies: { zod: '^4.1.0', left: '1.0.0' } })]), [
    '@headway/b@0.2.0: dependencies.@headway/a published as undefined, expected ^0.1.0 (workspace:^)',
    '@headway/b@0.2.0: dependencies.left published as 1.0.0, expected undefined (undefined)',
  ]);
  assert.deepEqual(publishedManifestProblems(staged, [packument({ name: '@headway/a', version: '0.0.0' }), packument(b)]), [
    '@headway/a@0.1.0: not published as latest (the registry has 0.0.0)',
  ]);
  assert.deepEqual(publishedManifestProblems(staged, [a, { error: 'not found' }]), [
    '@headway/b@0.2.0: not published as latest (the registry has nothing)',
  ]);
  // A private workspace package (the test machinery) in devDependencies: not released, so its
  // range reads as its version in the workspace, as pnpm writes it.
  const withPrivate = [
    staged[0],
    { ...staged[1], devDependencies: { ...staged[1].devDependencies, '@headway/test-utils': 'workspace:*' } },
  ];
  const bPrivate = { ...b, devDependencies: { ...b.devDependencies, '@headway/test-utils': '0.0.0' } };
  const others = new Map([['@headway/test-utils', '0.0.0']]);
  assert.deepEqual(publishedManifestProblems(withPrivate, [a, packument(bPrivate)], others), []);
  assert.deepEqual(publishedManifestProblems(withPrivate, [a, packument({ ...bPrivate, devDependencies: b.devDependencies })], others), [
    '@headway/b@0.2.0: devDependencies.@headway/test-utils published as undefined, expected 0.0.0 (workspace:*)',
  ]);
});
