#!/usr/bin/env node
// The demo command: installs what is needed, builds the packages the demo uses, and runs
// examples/cli-agent. Needs only Node.js 20 and npm. Extra arguments go to the agent:
//   npm run demo -- --max-iterations 2
// It exits with the agent's code, the headway CLI's: 0 answered, 1 failed, 2 bad usage, 3 stopped
// short with a report saved (.headway/reports/), 130 cancelled.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const env = {
  ...process.env,
  PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`,
  TURBO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
};

/** Runs a step quietly; when it fails, shows everything it printed, then exits with its code. */
function step(label, cmd, args) {
  process.stderr.write(`${label}…\n`);
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) {
    const output = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
    const why = r.error === undefined ? `exit ${r.status ?? r.signal}` : r.error.message;
    process.stderr.write(`${output === '' ? '' : `${output}\n`}${label} failed (${[cmd, ...args].join(' ')}: ${why})\n`);
    process.exit(r.status ?? 1);
  }
}

/** What the install depends on: the lockfile, the workspace file and every package.json. */
function installInputs() {
  const hash = createHash('sha256').update(packageManager);
  const files = ['pnpm-lock.yaml', 'pnpm-workspace.yaml', 'package.json'];
  for (const group of ['packages', 'examples']) {
    const dir = join(root, group);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort())
      if (existsSync(join(dir, name, 'package.json'))) files.push(join(group, name, 'package.json'));
  }
  for (const file of files) {
    hash.update(`\0${file}\0`);
    if (existsSync(join(root, file))) hash.update(readFileSync(join(root, file)));
  }
  return hash.digest('hex');
}

// pnpm writes node_modules/.modules.yaml when it installs; the stamp beside it says from which
// inputs the demo last installed, so an unchanged checkout starts without running pnpm at all.
const stamp = join(root, 'node_modules', '.headway-demo-install');
const inputs = installInputs();
const installed = existsSync(join(root, 'node_modules', '.modules.yaml'));
const last = existsSync(stamp) ? readFileSync(stamp, 'utf8') : undefined;
if (!installed || last !== inputs) {
  let label = 'Checking dependencies'; // installed by something else (pnpm install, npm test): a quick check
  if (!installed) label = 'Installing dependencies (first time: about 2 minutes)';
  else if (last !== undefined) label = 'Updating dependencies (the lockfile or a package.json changed)';
  step(label, 'npx', ['-y', packageManager, 'install', '--frozen-lockfile']);
  writeFileSync(stamp, inputs);
}
// The CLI too: the demo's last lines show `npm run headway -- …` (packages/cli's bin) on its logs.
step('Building the packages the demo uses', join(root, 'node_modules', '.bin', 'turbo'), [
  'run',
  'build',
  '--filter=@headway-examples/cli-agent...',
  '--filter=@headway/cli',
  '--output-logs=errors-only',
]);
// Ctrl-C reaches the agent too; it cancels cleanly and prints its report, so this wrapper waits for it.
process.on('SIGINT', () => {});
const r = spawnSync(
  join(root, 'examples', 'cli-agent', 'node_modules', '.bin', 'tsx'),
  [join(root, 'examples', 'cli-agent', 'src', 'main.ts'), ...process.argv.slice(2)],
  {
    cwd: root,
    env,
    stdio: 'inherit',
  },
);
process.exit(r.status ?? 1);
