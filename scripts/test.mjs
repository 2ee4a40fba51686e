#!/usr/bin/env node
// The one test command: finds (as root on Debian, installs) the programs the tests drive,
// installs, builds, lints, type-checks, checks packaging and runs every test, then prints
// the totals of all test files as its last line. Needs only Node.js 20 and npm: pnpm comes
// through npx at the version package.json pins. Extra arguments go to turbo
// (`npm test -- --force` runs every task again instead of replaying turbo's cache).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { createTails } from './lib/tails.mjs';
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

const tails = createTails();

/**
 * Runs a step with its output shown as it comes and its tail kept under `key`; `onStdout` also
 * gets what it prints on stdout. Resolves with the exit code.
 */
function run(cmd, args, key, { onStdout } = {}) {
  console.log(`\n$ ${[cmd, ...args].join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    // Decoded as UTF-8 across chunks: a character split between two is never cut in the tail.
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (text) => {
      process.stdout.write(text);
      tails.keep(key, text);
      onStdout?.(text);
    });
    child.stderr.on('data', (text) => {
      process.stderr.write(text);
      tails.keep(key, text);
    });
    child.on('error', (error) => {
      tails.keep(key, `${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
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
  const commandResults = existsSync(join(root, '.commands-check'))
    ? readdirSync(join(root, '.commands-check'))
        .filter((f) => f.endsWith('.json'))
        .map((f) => join(root, '.commands-check', f))
    : [];
  for (const results of [join(root, '.docs-check', 'results.json'), ...commandResults]) {
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
      join(root, 'scripts', 'lib', 'tails.test.mjs'),
    ],
  ],
  [bin('knip'), ['--no-progress']],
];
/**
 * The docs check and the README commands side by side: both mostly wait (the registry, scripted
 * models, servers starting), so together they take less than one after the other. First, alone,
 * the root README's set-up commands: their installs (`npm run demo` on a checkout it never ran
 * in, `npx pnpm@… install`) recreate every link in `node_modules/.bin`, and the docs check runs
 * pnpm and changesets from there. The other README commands rebuild the packages, so they start
 * once the docs check has copied them, and after its release, which is on its critical path and
 * took 5× as long beside the examples' builds and tests (its `docs check: released …` line, or
 * its end). Resolves with the tail keys of those that failed.
 */
async function docsAndCommands([docsArgs, commandsArgs]) {
  /** `promise`'s exit code, once its stage time (from `since`) is recorded under `name`. */
  const timed = (name, since, promise) =>
    promise.then((code) => {
      stageTimes.push([name, Date.now() - since]);
      return code;
    });
  const setUp = await timed(
    'README set-up commands',
    Date.now(),
    run(process.execPath, [...commandsArgs, '--part=set-up'], 'README commands (set-up)'),
  );
  const t1 = Date.now();
  let commands;
  const startCommands = () =>
    (commands ??= timed('README commands', t1, run(process.execPath, [...commandsArgs, '--part=rest'], 'README commands')));
  let seen = '';
  const docs = await timed(
    'docs check',
    t1,
    run(process.execPath, docsArgs, 'docs check', {
      onStdout: (text) => {
        seen = `${seen}${text}`.slice(-4096);
        if (/^docs check: (released|READMEs, packages and changesets unchanged)/m.test(seen)) startCommands();
      },
    }),
  );
  const codes = [setUp, docs, await startCommands()];
  return ['README commands (set-up)', 'docs check', 'README commands'].filter((_, i) => codes[i] !== 0);
}

/** How long each stage took (wall time), printed at the end: where the test command's time goes. */
const stageTimes = [];
const stageName = (cmd, args) => {
  if (cmd === docsAndCommands) return 'README set-up commands, then the docs check and README commands side by side';
  if (cmd === process.execPath) return 'script tests';
  if (cmd === 'npx') return 'pnpm install';
  return [cmd.split('/').pop(), ...args.filter((a) => !a.startsWith('-') && !a.includes('/')).slice(0, 8)].join(' ');
};
const suiteStarted = Date.now();
/** The tail key of each failed step (or part of one), for the end of the run. */
const failures = [];
for (const [cmd, args] of steps) {
  const t0 = Date.now();
  const name = stageName(cmd, args);
  const key = cmd === bin('turbo') ? 'turbo' : name;
  const failed = cmd === docsAndCommands ? await docsAndCommands(args) : (await run(cmd, args, key)) !== 0 ? [key] : [];
  stageTimes.push([name, Date.now() - t0]);
  failures.push(...failed);
  if (failed.length > 0 && cmd === 'npx') break; // nothing else can run without the install
}
console.log(
  `\nstage times: ${stageTimes.map(([n, ms]) => `${n} ${(ms / 1000).toFixed(1)} s`).join(', ')}; total ${((Date.now() - suiteStarted) / 1000).toFixed(1)} s`,
);
const { passed, failed, skipped } = summary();
const anyFailure = failures.length > 0 || failed > 0;
if (failures.length > 0) {
  // What failed, again at the end, where a log cut to its last lines still shows it.
  console.log(`\n${failures.length} step(s) failed: a build, lint, type, packaging or test check. The end of each:`);
  for (const key of failures) console.log(tails.report(key));
}
if (missing.length > 0) console.log(`\n${missing.map((m) => m.line).join('\n')}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(anyFailure ? 1 : 0);
