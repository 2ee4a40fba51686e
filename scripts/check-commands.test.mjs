// Tests of scripts/check-commands.mjs: which README lines it takes for commands, the environment it
// runs them in, and how it judges one (exit code, a served page, a hang). Run:
// node --test scripts/check-commands.test.mjs (the root `npm test` runs it).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { extractCommands, portsOf, readmes, runCommand, splitSetUp, userEnv } from './check-commands.mjs';

const repo = new URL('..', import.meta.url).pathname;
const limit = { timeout: 120_000 };

test('takes each line of the sh and bash blocks, joins continued lines, and reads the skip marker', () => {
  const readme = [
    '# x', //                                                         1
    '```sh', //                                                       2
    'npm start --prefix examples/x           # the first', //          3
    '', //                                                            4
    '# a comment line', //                                            5
    'npm start --prefix examples/x -- \\', //                         6
    '  --port 8080', //                                               7
    '```', //                                                         8
    '```ts', //                                                       9
    "console.log('not a command');", //                              10
    '```', //                                                        11
    '```bash', //                                                    12
    'OPENAI_API_KEY=sk-… npm start   # [not run by the suite: needs a real key]', // 13
    '```', //                                                        14
    '```', //                                                        15
    'missing tmux: brew install tmux', //                            16
    '```', //                                                        17
  ].join('\n');
  assert.deepEqual(extractCommands(readme), [
    { line: 3, command: 'npm start --prefix examples/x           # the first' },
    { line: 6, command: 'npm start --prefix examples/x --   --port 8080' },
    { line: 13, command: 'OPENAI_API_KEY=sk-… npm start   # [not run by the suite: needs a real key]', skip: 'needs a real key' },
  ]);
});

test("leaves out the root README's set-up commands, the suite itself, and only there", () => {
  const readme = '```sh\ngit clone <this repository> headway && cd headway\nnpm run demo    # builds\nnpm test        # everything\n```\n';
  assert.deepEqual(
    extractCommands(readme, { setUp: true }).map((c) => c.command),
    ['npm run demo    # builds'],
  );
  assert.equal(extractCommands(readme).length, 3);
});

test('every README it reads has commands, and none needs pnpm on the PATH or runs the unscoped headway package', () => {
  const found = readmes(repo);
  assert.ok(found.some((r) => r.file === 'README.md'));
  assert.ok(found.some((r) => r.file === join('examples', 'web-dashboard', 'README.md')));
  for (const { file, setUp } of found) {
    const commands = extractCommands(readFileSync(join(repo, file), 'utf8'), { setUp });
    assert.ok(commands.length > 0, `${file}: no commands`);
    for (const { line, command } of commands) {
      assert.doesNotMatch(command, /(^|[\s|;&])pnpm\s/, `${file}:${line}: pnpm is not on a new user's PATH`);
      assert.doesNotMatch(command, /\bnpx\s+headway\b/, `${file}:${line}: npx headway is another package without a local install`);
    }
  }
});

test("runs commands as a user with only Node.js and npm: no node_modules/.bin, no API keys, npm's variables gone", () => {
  const env = userEnv({
    PATH: ['/repo/node_modules/.bin', '/usr/local/bin', '/repo/examples/x/node_modules/.bin', '/usr/bin'].join(':'),
    OPENAI_API_KEY: 'sk-secret',
    ANTHROPIC_BASE_URL: 'http://gateway',
    npm_lifecycle_event: 'test',
    INIT_CWD: '/repo/packages/x',
    HEADWAY_TMUX: '/usr/bin/tmux',
  });
  assert.deepEqual(env, { PATH: '/usr/local/bin:/usr/bin', HEADWAY_TMUX: '/usr/bin/tmux', CI: '1' });
});

const env = userEnv();

test('a command passes when it exits 0, and fails with its exit code otherwise', limit, async () => {
  assert.deepEqual(await runCommand('echo one; echo two >&2', { cwd: repo, env, timeoutMs: 60_000 }), {
    ok: true,
    why: 'exit 0',
    output: 'one\ntwo\n',
  });
  const failed = await runCommand('echo broken >&2; exit 3', { cwd: repo, env, timeoutMs: 60_000 });
  assert.deepEqual(failed, { ok: false, why: 'exit 3', output: 'broken\n' });
});

test('a server passes when the page it prints answers, and its whole process group is stopped', limit, async () => {
  // The server runs as a grandchild (bash → node), as `npm start` runs one.
  const server = `node -e "
    const s = require('node:http').createServer((q, r) => r.end('<h1>page</h1>'));
    s.listen(0, '127.0.0.1', () => console.log('pid ' + process.pid + ' serving http://127.0.0.1:' + s.address().port + '/'));
  "`;
  const r = await runCommand(server, { cwd: repo, env, timeoutMs: 60_000 });
  assert.equal(r.ok, true);
  assert.match(r.why, /^served http:\/\/127\.0\.0\.1:\d+\/$/);
  const pid = Number(/pid (\d+)/.exec(r.output)?.[1]);
  assert.ok(pid > 0);
  // Stopped: the signal was sent before runCommand answered; wait for it to land.
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      break;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
});

test('a printed page that never answers does not pass: the exit code decides', limit, async () => {
  const r = await runCommand('echo "see http://127.0.0.1:9/"; exit 1', { cwd: repo, env, timeoutMs: 60_000 });
  assert.deepEqual([r.ok, r.why], [false, 'exit 1']);
});

test('a command that hangs fails at the hang timeout instead of hanging the suite', limit, async () => {
  const r = await runCommand('sleep 600', { cwd: repo, env, timeoutMs: 300 });
  assert.deepEqual([r.ok, r.why], [false, 'neither exited nor served a page within 300 ms']);
});

test('reads the fixed ports a command names, so two that share one never run at once', () => {
  assert.deepEqual(portsOf('npm start --prefix examples/web-dashboard -- --port 8080    # or PORT=8080'), [8080]);
  assert.deepEqual(portsOf('npm start --prefix examples/ag-ui-page   # builds the page, serves http://127.0.0.1:5179/'), [5179]);
  assert.deepEqual(portsOf('npm start -- --webhook http://127.0.0.1:8787/hook --port=3000'), [3000, 8787]);
  assert.deepEqual(portsOf('npm test --prefix examples/mcp-tools'), []);
});

test("the root README's set-up ends at its last install: what follows runs beside the examples", () => {
  const commands = [
    'npm run demo    # builds',
    'npm run headway -- --help',
    'npx pnpm@10.34.9 install   # again',
    'npm test --prefix packages/protocol',
    'npm run typecheck --prefix packages/protocol   # not an install: npm install is only named here',
  ].map((command, i) => ({ line: i + 1, command }));
  const { setUp, after } = splitSetUp(commands);
  assert.deepEqual(
    setUp.map((c) => c.line),
    [1, 2, 3],
  );
  assert.deepEqual(
    after.map((c) => c.line),
    [4, 5],
  );
  assert.deepEqual(splitSetUp(commands.slice(3)), { setUp: [], after: commands.slice(3) });
  const { setUp: all } = splitSetUp([...commands, { line: 6, command: 'npm ci' }]);
  assert.equal(all.length, 6);
});
