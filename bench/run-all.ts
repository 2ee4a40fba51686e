// Runs every benchmark in this folder, one after another: pnpm bench
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const here = import.meta.dirname;
let failed = 0;
for (const dir of readdirSync(here).sort()) {
  const full = join(here, dir);
  if (!statSync(full).isDirectory() || dir === 'lib' || dir === 'node_modules') continue;
  for (const file of readdirSync(full)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort()) {
    console.log(`\n## ${dir}/${file}`);
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(full, file)], { stdio: 'inherit' });
    if (r.status !== 0) failed += 1;
  }
}
// The growth check of every parser and redactor on its worst known inputs.
console.log('\n## adversarial/run.ts');
const growth = spawnSync(process.execPath, ['--import', 'tsx', join(here, 'adversarial', 'run.ts')], { stdio: 'inherit' });
if (growth.status !== 0) failed += 1;
process.exit(failed === 0 ? 0 : 1);
