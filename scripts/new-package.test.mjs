// Tests of scripts/new-package.mjs: it scaffolds into a temporary root inside node_modules/.cache
// (so the repository's own TypeScript, vitest and tsdown resolve), then the new package must have
// every file a package has, the same scripts as the others, and type-check under the repository's
// strict settings. Run: node --test scripts/new-package.test.mjs (the root `npm test` runs it).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { scaffoldPackage } from './new-package.mjs';

const repo = new URL('..', import.meta.url).pathname;
const cache = join(repo, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const root = mkdtempSync(join(cache, 'new-package-test-'));
after(() => {
  rmSync(root, { recursive: true, force: true });
});
copyFileSync(join(repo, 'tsconfig.base.json'), join(root, 'tsconfig.base.json'));
writeFileSync(join(root, 'README.md'), '| package | what |\n|---|---|\n| [`@headway/protocol`](packages/protocol) | events |\n\nAfter.\n');

test('scaffolds every file a package has, with the scripts every package runs', () => {
  const written = scaffoldPackage({ root, name: 'event-counter', description: 'Counts progress events by type.' });
  for (const file of [
    'package.json',
    'README.md',
    'tsconfig.json',
    'tsdown.config.ts',
    'vitest.config.ts',
    'src/index.ts',
    'src/event-counter.ts',
    'src/event-counter.test.ts',
    'src/event-counter-error.ts',
  ]) {
    assert.ok(existsSync(join(root, 'packages/event-counter', file)), `packages/event-counter/${file}`);
  }
  assert.ok(written.includes('.changeset/event-counter-initial.md'));
  const pkg = JSON.parse(readFileSync(join(root, 'packages/event-counter/package.json'), 'utf8'));
  const model = JSON.parse(readFileSync(join(repo, 'packages/reporter-json/package.json'), 'utf8'));
  assert.deepEqual(pkg.scripts, model.scripts);
  assert.deepEqual(pkg.exports, model.exports);
  assert.deepEqual(pkg.files, model.files);
  assert.deepEqual(pkg.engines, model.engines);
  assert.deepEqual(pkg.repository, { type: 'git', directory: 'packages/event-counter' });
  assert.equal(pkg.sideEffects, false);
  assert.equal(pkg.type, 'module');
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  assert.match(
    readme,
    /\| \[`@headway\/protocol`\]\(packages\/protocol\) \| events \|\n\| \[`@headway\/event-counter`\]\(packages\/event-counter\) \| Counts progress events by type\. \| new \|\n/,
  );
});

test('the scaffolded package type-checks under the repository settings', () => {
  const dir = join(root, 'packages/event-counter');
  // The new package is not installed yet: its one workspace dependency is read from source.
  writeFileSync(
    join(dir, 'tsconfig.check.json'),
    JSON.stringify({
      extends: './tsconfig.json',
      compilerOptions: { paths: { '@headway/protocol': [join(repo, 'packages/protocol/src/index.ts')] } },
      include: ['src', '*.ts'],
    }),
  );
  const tsc = spawnSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.check.json')], {
    encoding: 'utf8',
  });
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
});

test('refuses a bad name and an existing package', () => {
  assert.throws(() => scaffoldPackage({ root, name: 'Bad_Name', description: 'x' }), /not a package name/);
  assert.throws(() => scaffoldPackage({ root, name: 'event-counter', description: 'x' }), /exists already/);
});
