#!/usr/bin/env node
// The one test command: finds (as root on Debian, installs) the programs the tests drive,
// installs, builds, lints, type-checks, checks packaging and runs every test, then prints
// the totals of all test files as its last line. Needs only Node.js 20 and npm: pnpm comes
// through npx at the version package.json pins. Extra arguments go to turbo
// (`npm test -- --force` runs every task again instead of replaying turbo's cache).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { provision } from './provision.mjs';

const root = new URL('..', import.meta.url).pathname;
const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// First, so what is missing and which files skip because of it is said at the start.
const { variables, missing } = provision({ root });
for (const m of missing) console.log(m.line);

// After the install, the pinned pnpm (a root devDependency) and turbo are on PATH for every task.
const env = {
  ...process.env,
  ...variables,
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

/**
 * Test files by outcome, from each package's vitest JSON report. A file that did not fail
 * counts as skipped when none of its tests ran, or when it needs a part that is missing and
 * some of its tests did not run. (A test a suite skips as not applicable, in a file whose
 * other tests ran, leaves the file passed.)
 */
function summary() {
  const needsMissing = new Set(missing.flatMap((m) => m.files.map((f) => join(root, f))));
  const skippedTest = (t) => t.status === 'skipped' || t.status === 'pending' || t.status === 'todo';
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const dir of ['packages', 'examples']) {
    const base = join(root, dir);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base)) {
      const file = join(base, name, '.vitest', 'results.json');
      if (!existsSync(file)) continue;
      const r = JSON.parse(readFileSync(file, 'utf8'));
      for (const result of r.testResults ?? []) {
        const tests = result.assertionResults ?? [];
        if (result.status !== 'passed') failed += 1;
        else if (tests.every(skippedTest) || (needsMissing.has(result.name) && tests.some(skippedTest))) skipped += 1;
        else passed += 1;
      }
      if ((r.numRuntimeErrorTestSuites ?? 0) > 0 && (r.testResults ?? []).length === 0) failed += r.numRuntimeErrorTestSuites;
    }
  }
  // Each README, checked with one package manager, counts as one test file; so does each README
  // command (scripts/check-commands.mjs).
  for (const results of [join(root, '.docs-check', 'results.json'), join(root, '.commands-check', 'results.json')]) {
    if (!existsSync(results)) continue;
    for (const result of JSON.parse(readFileSync(results, 'utf8')).testResults ?? []) {
      if (result.status === 'passed') passed += 1;
      else failed += 1;
    }
  }
  return { passed, failed, skipped };
}

// A results file left by an earlier run must not count in this one.
rmSync(join(root, '.docs-check'), { recursive: true, force: true });
rmSync(join(root, '.commands-check'), { recursive: true, force: true });

const steps = [
  ['npx', ['-y', packageManager, 'install', '--frozen-lockfile']],
  // One format for the whole tree (prettier; see CONTRIBUTING.md): `npm run format` fixes it.
  [bin('prettier'), ['--check', '.']],
  [
    bin('turbo'),
    // `docs:api`: the API reference (typedoc.config.mjs), warnings as errors.
    ['run', 'build', 'typecheck', 'lint', 'check', 'test', 'docs:api', '--output-logs=errors-only', '--continue', ...process.argv.slice(2)],
  ],
  // Docs are code: the release published to a local registry, every README's install line
  // installed from it as written (npm and pnpm), its snippets type-checked and run, and
  // `npx @headway/cli` run from it (skipped when neither the READMEs, the packages nor the
  // changesets changed since its last green run). Beside it, every command in the READMEs, run
  // as written from where they say, as a user with Node.js and npm.
  [docsAndCommands, [[join(root, 'scripts', 'check-docs.mjs')], [join(root, 'scripts', 'check-commands.mjs')]]],
  // The package scaffolder (`pnpm new-package`) makes a package that type-checks; the README
  // checks read, judge and type-check as they say; no published package's tarball carries the
  // test machinery (scripts/check-tarballs.mjs).
  [
    process.execPath,
    [
      '--test',
      join(root, 'scripts', 'new-package.test.mjs'),
      join(root, 'scripts', 'check-commands.test.mjs'),
      join(root, 'scripts', 'check-docs.test.mjs'),
      join(root, 'scripts', 'publish.test.mjs'),
      join(root, 'scripts', 'check-tarballs.test.mjs'),
      join(root, 'scripts', 'typedoc-package-pages.test.mjs'),
      join(root, 'scripts', 'lib', 'process.test.mjs'),
    ],
  ],
  [bin('knip'), ['--no-progress']],
];
/**
 * The docs check and the README commands side by side: both mostly wait (the registry, scripted
 * models, servers starting), so together they take less than one after the other. The README
 * commands rebuild the packages, so they start once the docs check has copied them (its
 * `docs check: staged …` line, or its end). Resolves with the number of the two that failed.
 */
function docsAndCommands([docsArgs, commandsArgs]) {
  console.log(`\n$ ${['node', ...docsArgs].join(' ')} & ${['node', ...commandsArgs].join(' ')}`);
  const t0 = Date.now();
  const exited = (child, name) =>
    new Promise((resolve) =>
      child.on('close', (code) => {
        stageTimes.push([name, Date.now() - t0]);
        resolve(code ?? 1);
      }),
    );
  const docs = spawn(process.execPath, docsArgs, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const docsExited = exited(docs, 'docs check');
  let commands;
  const startCommands = () =>
    (commands ??= exited(spawn(process.execPath, commandsArgs, { cwd: root, env, stdio: 'inherit' }), 'README commands'));
  let seen = '';
  docs.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    seen = `${seen}${chunk}`.slice(-4096);
    if (/^docs check: (staged|READMEs, packages and changesets unchanged)/m.test(seen)) startCommands();
  });
  return docsExited.then(async (code) => [code, await startCommands()].filter((c) => c !== 0).length);
}

/** How long each stage took (wall time), printed at the end: where the test command's time goes. */
const stageTimes = [];
const stageName = (cmd, args) => {
  if (cmd === docsAndCommands) return 'docs check and README commands side by side';
  if (cmd === process.execPath) return 'script tests';
  if (cmd === 'npx') return 'pnpm install';
  return [cmd.split('/').pop(), ...args.filter((a) => !a.startsWith('-') && !a.includes('/')).slice(0, 8)].join(' ');
};
const suiteStarted = Date.now();
let failedSteps = 0;
for (const [cmd, args] of steps) {
  const t0 = Date.now();
  const failed = cmd === docsAndCommands ? await docsAndCommands(args) : run(cmd, args) !== 0 ? 1 : 0;
  stageTimes.push([stageName(cmd, args), Date.now() - t0]);
  failedSteps += failed;
  if (failed > 0 && cmd === 'npx') break; // nothing else can run without the install
}
console.log(
  `\nstage times: ${stageTimes.map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`).join(', ')}; total ${((Date.now() - suiteStarted) / 1000).toFixed(1)} s`,
);
const { passed, failed, skipped } = summary();
const anyFailure = failedSteps > 0 || failed > 0;
if (failedSteps > 0) console.log(`\n${failedSteps} step(s) failed: a build, lint, type, packaging or test check (see above).`);
if (missing.length > 0) console.log(`\n${missing.map((m) => m.line).join('\n')}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(anyFailure ? 1 : 0);
