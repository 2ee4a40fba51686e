#!/usr/bin/env node
// The one test command: installs, builds, lints, type-checks, checks packaging and runs
// every test, then prints the totals of all test files as its last line.
// Needs only Node.js 20 and npm: pnpm comes through npx at the version package.json pins.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// After the install, the pinned pnpm (a root devDependency) and turbo are on PATH for every task.
const env = {
  ...process.env,
  PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`,
  TURBO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
  COREPACK_ENABLE_STRICT: '0',
};
const bin = (name) => join(root, 'node_modules', '.bin', name);

function run(cmd, args, opts = {}) {
  console.log(`\n$ ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env, ...opts });
  return r.status ?? 1;
}

function summary() {
  let passed = 0;
  let failed = 0;
  for (const dir of ['packages', 'examples']) {
    const base = join(root, dir);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base)) {
      const file = join(base, name, '.vitest', 'results.json');
      if (!existsSync(file)) continue;
      const r = JSON.parse(readFileSync(file, 'utf8'));
      // One entry per test file (the suite counters also count describe blocks).
      for (const file of r.testResults ?? []) {
        if (file.status === 'passed') passed += 1;
        else failed += 1;
      }
      if ((r.numRuntimeErrorTestSuites ?? 0) > 0 && (r.testResults ?? []).length === 0) failed += r.numRuntimeErrorTestSuites;
    }
  }
  return { passed, failed };
}

const steps = [
  ['npx', ['-y', packageManager, 'install', '--frozen-lockfile']],
  [bin('turbo'), ['run', 'build', 'typecheck', 'lint', 'check', 'test', '--output-logs=errors-only', '--continue']],
  [bin('knip'), ['--no-progress']],
];
let failedSteps = 0;
for (const [cmd, args] of steps) {
  if (run(cmd, args) !== 0) {
    failedSteps += 1;
    if (cmd === 'npx') break; // nothing else can run without the install
  }
}
const { passed, failed } = summary();
const anyFailure = failedSteps > 0 || failed > 0;
if (failedSteps > 0) console.log(`\n${failedSteps} step(s) failed: a build, lint, type, packaging or test check (see above).`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(anyFailure ? 1 : 0);
