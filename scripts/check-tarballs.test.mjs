// node --test: no published package's tarball carries the test machinery (scripts/check-tarballs.mjs).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { plumbingIn, publishedPackageDirs } from './check-tarballs.mjs';

const root = new URL('..', import.meta.url).pathname;

test('a package that ships the plumbing is caught, by file name and by exported name', () => {
  const { files, offenders } = plumbingIn(join(root, 'scripts', 'fixtures', 'plumbing-package'));
  assert.deepEqual(files, ['lib/helpers.js', 'lib/index.js', 'lib/test-server.js', 'package.json']);
  assert.deepEqual(offenders, [
    'lib/helpers.js: names findTestPart',
    'lib/index.js: names findTestPart',
    'lib/test-server.js: a test machinery file',
  ]);
});

test('every published package is packed and none carries the plumbing', { timeout: 600_000 }, () => {
  const dirs = publishedPackageDirs();
  const names = dirs.map((d) => d.slice(join(root, 'packages').length + 1));
  // Every package folder but the private test machinery is checked.
  assert.deepEqual(
    names,
    readdirSync(join(root, 'packages'))
      .filter((n) => n !== 'test-utils')
      .sort(),
  );
  for (const dir of dirs) {
    const { files, offenders } = plumbingIn(dir);
    assert.ok(files.includes('package.json'), `${dir}: a tarball without package.json`);
    assert.deepEqual(offenders, [], `${dir} ships test machinery`);
  }
});
