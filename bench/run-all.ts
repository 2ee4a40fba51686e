// Runs every benchmark in this folder, one after another, then prints every target's verdict
// together (met / missed) and exits non-zero when a target was missed or a bench failed: pnpm bench
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatVerdict, type Verdict } from './lib/verdict.js';

const here = import.meta.dirname;
const scratch = mkdtempSync(join(tmpdir(), 'headway-bench-'));
const verdictFile = join(scratch, 'verdicts.jsonl');
const env = { ...process.env, HEADWAY_BENCH_VERDICTS: verdictFile };
const crashed: string[] = [];

function runBench(name: string, file: string): void {
  console.log(`\n## ${name}`);
  const before = readVerdicts().length;
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit', env });
  // A bench that exits non-zero without a missed verdict crashed (or skipped with an error).
  if (
    r.status !== 0 &&
    !readVerdicts()
      .slice(before)
      .some((v) => !v.met)
  )
    crashed.push(name);
}

function readVerdicts(): Verdict[] {
  if (!existsSync(verdictFile)) return [];
  return readFileSync(verdictFile, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Verdict);
}

for (const dir of readdirSync(here).sort()) {
  const full = join(here, dir);
  if (!statSync(full).isDirectory() || dir === 'lib' || dir === 'node_modules' || dir === 'adversarial') continue;
  for (const file of readdirSync(full)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort())
    runBench(`${dir}/${file}`, join(full, file));
}
// The growth check of every parser and redactor on its worst known inputs.
runBench('adversarial/run.ts', join(here, 'adversarial', 'run.ts'));

const verdicts = readVerdicts();
rmSync(scratch, { recursive: true, force: true });
const missed = verdicts.filter((v) => !v.met);
console.log(
  `\n## Verdicts: ${verdicts.length - missed.length} met, ${missed.length} missed${crashed.length > 0 ? `, ${crashed.length} bench(es) failed` : ''}`,
);
for (const v of verdicts) console.log(formatVerdict(v));
for (const name of crashed) console.log(`failed: ${name} (exited non-zero without a missed target)`);
process.exit(missed.length === 0 && crashed.length === 0 ? 0 : 1);
