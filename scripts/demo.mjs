#!/usr/bin/env node
// The demo command: installs what is needed, builds the packages the demo uses, and runs
// examples/cli-agent. Needs only Node.js 20 and npm. Extra arguments go to the agent:
//   npm run demo -- --max-iterations 2
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const env = {
  ...process.env,
  PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`,
  TURBO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
};
const quiet = { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] };

function step(label, cmd, args) {
  process.stderr.write(`${label}…\n`);
  const r = spawnSync(cmd, args, quiet);
  if (r.status !== 0) {
    process.stderr.write(`${label} failed (${[cmd, ...args].join(' ')})\n`);
    process.exit(r.status ?? 1);
  }
}

step('Installing dependencies (first time: about 2 minutes)', 'npx', ['-y', packageManager, 'install', '--frozen-lockfile', '--reporter=silent']);
step('Building the packages the demo uses', join(root, 'node_modules', '.bin', 'turbo'), [
  'run',
  'build',
  '--filter=@headway-examples/cli-agent...',
  '--output-logs=errors-only',
]);
// Ctrl-C reaches the agent too; it cancels cleanly and prints its report, so this wrapper waits for it.
process.on('SIGINT', () => {});
const r = spawnSync(join(root, 'examples', 'cli-agent', 'node_modules', '.bin', 'tsx'), [join(root, 'examples', 'cli-agent', 'src', 'main.ts'), ...process.argv.slice(2)], {
  cwd: root,
  env,
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
