// Tests of scripts/publish.mjs without a registry: what it refuses to send, and how it judges what
// the registry serves back. (The docs check publishes the whole workspace with it to a local
// registry on every run of the test command.) Run: node --test scripts/publish.test.mjs.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { publishWorkspace, publishedManifestProblems, tarballManifestProblems } from './publish.mjs';

test('a tarball whose manifest keeps a workspace: range, or goes out below 0.1.0, is refused', () => {
  assert.deepEqual(
    tarballManifestProblems({
      name: '@headway/b',
      version: '0.1.0',
      dependencies: { '@headway/a': '^0.1.0', zod: '^4.1.0' },
      devDependencies: { '@headway/test-utils': '0.0.0' },
    }),
    [],
  );
  assert.deepEqual(
    tarballManifestProblems({
      name: '@headway/b',
      version: '0.1.0',
      dependencies: { '@headway/a': 'workspace:^' },
      peerDependencies: { '@headway/c': 'workspace:*' },
      optionalDependencies: { '@headway/d': 'workspace:~1.0.0' },
      devDependencies: { '@headway/test-utils': 'workspace:*' },
    }),
    [
      '@headway/b@0.1.0: dependencies.@headway/a is workspace:^ in the tarball',
      '@headway/b@0.1.0: peerDependencies.@headway/c is workspace:* in the tarball',
      '@headway/b@0.1.0: optionalDependencies.@headway/d is workspace:~1.0.0 in the tarball',
      '@headway/b@0.1.0: devDependencies.@headway/test-utils is workspace:* in the tarball',
    ],
  );
  assert.deepEqual(tarballManifestProblems({ name: '@headway/a', version: '0.0.3' }), [
    '@headway/a@0.0.3: a release goes out at 0.1.0 or later (give the package a minor changeset)',
  ]);
  assert.deepEqual(tarballManifestProblems({ name: '@headway/a' }), [
    '@headway/a@undefined: a release goes out at 0.1.0 or later (give the package a minor changeset)',
  ]);
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

test(
  'publishWorkspace reads every tarball before it sends any: one with a workspace: range stops the release',
  { timeout: 120_000 },
  async () => {
    const work = mkdtempSync(join(tmpdir(), 'headway-publish-test-'));
    // A registry that has nothing and records what is sent to it.
    const requests = [];
    const server = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const ws = join(work, 'ws');
      mkdirSync(join(ws, '.changeset'), { recursive: true });
      writeFileSync(join(ws, '.changeset', 'config.json'), '{"access":"public"}');
      const manifest = (name, deps) => JSON.stringify({ name, version: '0.1.0', dependencies: deps });
      for (const [dir, text] of [
        ['a', manifest('@headway/a', {})],
        ['b', manifest('@headway/b', { '@headway/a': 'workspace:^' })],
      ]) {
        mkdirSync(join(ws, 'packages', dir), { recursive: true });
        writeFileSync(join(ws, 'packages', dir, 'package.json'), text);
      }
      // A pack that leaves b's range as written (what `npm pack` does with workspace: ranges).
      const pack = join(work, 'pack.mjs');
      writeFileSync(
        pack,
        `import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
const dest = process.argv[process.argv.indexOf('--pack-destination') + 1];
const out = [];
for (const name of ['a', 'b']) {
  const tmp = mkdtempSync(join(dest, 'src-'));
  cpSync(join(process.cwd(), 'packages', name), join(tmp, 'package'), { recursive: true });
  execFileSync('tar', ['-czf', join(dest, name + '.tgz'), '-C', tmp, 'package']);
  out.push({ filename: join(dest, name + '.tgz') });
}
console.log(JSON.stringify(out));
`,
      );
      const fakePnpm = join(work, 'pnpm');
      writeFileSync(fakePnpm, `#!/bin/sh\nexec "${process.execPath}" "${pack}" "$@"\n`, { mode: 0o755 });
      const registry = `http://127.0.0.1:${String(server.address().port)}/`;
      const env = { PATH: process.env.PATH, HOME: work, npm_config_registry: registry, npm_config_userconfig: join(work, 'npmrc') };
      writeFileSync(join(work, 'npmrc'), `${registry.replace(/^http:/, '')}:_authToken=t\n`);
      await assert.rejects(publishWorkspace({ cwd: ws, env, pnpm: fakePnpm }), {
        message: 'refused to publish:\n@headway/b@0.1.0: dependencies.@headway/a is workspace:^ in the tarball',
      });
      // It asked which versions the registry has, and sent nothing.
      assert.deepEqual(requests.sort(), ['GET /@headway%2fa', 'GET /@headway%2fb']);
    } finally {
      server.close();
      rmSync(work, { recursive: true, force: true });
    }
  },
);
