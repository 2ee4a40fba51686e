// node --test: the API reference check of scripts/typedoc-package-pages.mjs (links between pages,
// README page names) finds exactly what is wrong.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { referenceProblems } from './typedoc-package-pages.mjs';

function write(file, text) {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
}

test('a broken link, a README naming a missing page and a README without its page are each reported', () => {
  const dir = mkdtempSync(join(tmpdir(), 'headway-typedoc-'));
  try {
    const out = join(dir, 'out');
    write(join(out, 'index.html'), '<a href="modules/_headway_a.html">a</a> <a href="https://example.com/x">x</a>');
    write(
      join(out, 'modules', '_headway_a.html'),
      '<h2 id="createa">createA</h2> <a href="#createa">self</a> <a href="../index.html">home</a> <a href="_headway_b.html#gone">b</a> <a href="#missing">m</a>',
    );
    write(join(out, 'modules', '_headway_b.html'), '<h2 id="b">b</h2> <a href="../assets/icons.svg#icon-1">icon</a>');
    write(join(dir, 'packages', 'a', 'package.json'), JSON.stringify({ name: '@headway/a' }));
    write(join(dir, 'packages', 'a', 'README.md'), 'Open `docs/api/modules/_headway_a.html`.');
    write(join(dir, 'packages', 'b', 'package.json'), JSON.stringify({ name: '@headway/b' }));
    write(join(dir, 'packages', 'b', 'README.md'), 'Open `docs/api/modules/_headway_b_testing.html`.');
    write(join(dir, 'packages', 'utils', 'package.json'), JSON.stringify({ name: '@headway/utils', private: true }));
    write(join(dir, 'packages', 'utils', 'README.md'), 'Private: no page.');
    assert.deepEqual(referenceProblems(out, dir), [
      'modules/_headway_a.html links to _headway_b.html#gone: no such anchor',
      'modules/_headway_a.html links to #missing: no such anchor',
      'packages/b/README.md names docs/api/modules/_headway_b_testing.html, which is not a page of the reference',
      'packages/b/README.md does not name its page, docs/api/modules/_headway_b.html',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
