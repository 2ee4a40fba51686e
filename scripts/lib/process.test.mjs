// Tests of scripts/lib/process.mjs: running a command (what it printed, its exit code, never a
// rejection, the hang guard), the limit and the pools built on it. Run: node --test scripts/lib/process.test.mjs (the
// root `npm test` runs it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLimit, inPool, run, settleInPool } from './process.mjs';

const limit = { timeout: 120_000 };
const node = process.execPath;

test('a command: its exit code, its stdout, and its stdout and stderr together', limit, async () => {
  const r = await run(node, [
    '-e',
    "process.stdout.write('one\\n'); process.stderr.write('two\\n'); process.stdout.write('three\\n'); process.exitCode = 3;",
  ]);
  assert.equal(r.code, 3);
  assert.equal(r.stdout, 'one\nthree\n');
  // Two pipes: the order between them is the order they were read in, not asserted here.
  assert.deepEqual(r.out.split('\n').sort(), ['', 'one', 'three', 'two']);
  assert.ok(r.out.indexOf('one') < r.out.indexOf('three'));
});

test('input goes to its stdin; spawn options (cwd, env) go to spawn; onSpawn and onExit are told', limit, async () => {
  const seen = [];
  const r = await run(
    node,
    ['-e', "process.stdin.pipe(process.stdout); process.stdin.on('end', () => console.log(process.cwd(), process.env.X))"],
    {
      input: 'in\n',
      cwd: '/',
      env: { ...process.env, X: 'x' },
      onSpawn: (child) => seen.push(['spawn', typeof child.pid]),
      onExit: (child) => seen.push(['exit', child.exitCode]),
    },
  );
  assert.deepEqual(r, { code: 0, stdout: 'in\n/ x\n', out: 'in\n/ x\n' });
  assert.deepEqual(seen, [
    ['spawn', 'number'],
    ['exit', 0],
  ]);
});

test('a command that cannot start resolves with code 1 and why; one killed by a signal with code 1', limit, async () => {
  const missing = await run('/nonexistent/command', []);
  assert.equal(missing.code, 1);
  assert.match(missing.out, /ENOENT/);
  const killed = await run(node, ['-e', "process.kill(process.pid, 'SIGKILL')"]);
  assert.equal(killed.code, 1);
});

test('past the hang guard a command is killed and its output says so', limit, async () => {
  // The command waits for ever; the guard is what ends it, however slow the machine.
  const r = await run(node, ['-e', 'setInterval(() => {}, 1000)'], { hangGuardMs: 200 });
  assert.deepEqual(r, { code: 1, stdout: '', out: '\n(still running after 0.2 s: stopped as hung)' });
});

/** A pool of `items` whose calls each wait for a gate; returns the gates and what was seen. */
function gated(pool, items, fn) {
  const state = { running: 0, most: 0, gates: [] };
  const done = pool(items, 2, async (item, i) => {
    state.running += 1;
    state.most = Math.max(state.most, state.running);
    await new Promise((resolve) => state.gates.push(resolve));
    state.running -= 1;
    return fn(item, i);
  });
  return { state, done };
}

async function openAll(state, count) {
  // Open the gates one at a time, as each waiting item arrives.
  for (let opened = 0; opened < count; opened += 1) {
    while (state.gates.length === 0) await new Promise((resolve) => setImmediate(resolve));
    assert.ok(state.running <= 2);
    state.gates.shift()();
  }
}

test('a pool runs at most its limit at once and keeps the results in order', limit, async () => {
  const { state, done } = gated(inPool, [0, 1, 2, 3, 4], (item, i) => `${String(item * 10)}@${String(i)}`);
  await openAll(state, 5);
  assert.deepEqual(await done, ['0@0', '10@1', '20@2', '30@3', '40@4']);
  assert.equal(state.most, 2);
});

test('a settling pool runs every item, at most its limit at once, and says which failed, in order', limit, async () => {
  const { state, done } = gated(settleInPool, [0, 1, 2, 3], (item) => {
    if (item % 2 === 1) throw new Error(`item ${String(item)}`);
    return item;
  });
  await openAll(state, 4);
  const results = await done;
  assert.deepEqual(
    results.map((r) => (r.status === 'fulfilled' ? r.value : r.reason.message)),
    [0, 'item 1', 2, 'item 3'],
  );
  assert.deepEqual(
    results.map((r) => r.status),
    ['fulfilled', 'rejected', 'fulfilled', 'rejected'],
  );
  assert.equal(state.most, 2);
  assert.deepEqual(await settleInPool([], 3, async () => 1), []);
});

test('a limit runs at most its limit at once, first come first served, and each call ends as its function does', limit, async () => {
  const at = createLimit(2);
  const gates = new Map();
  const started = [];
  let running = 0;
  let most = 0;
  const job = (name, outcome) =>
    at(async () => {
      started.push(name);
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => gates.set(name, resolve));
      running -= 1;
      if (outcome === 'throw') throw new Error(name);
      return name;
    });
  const calls = [job('a'), job('b', 'throw'), job('c'), job('d')];
  const settled = Promise.allSettled(calls);
  const waitFor = async (name) => {
    while (!gates.has(name)) await new Promise((resolve) => setImmediate(resolve));
  };
  await waitFor('a');
  await waitFor('b');
  assert.deepEqual(started, ['a', 'b']);
  // A rejected function frees its place like a fulfilled one: c starts once b has failed.
  gates.get('b')();
  await waitFor('c');
  assert.deepEqual(started, ['a', 'b', 'c']);
  gates.get('a')();
  await waitFor('d');
  gates.get('c')();
  gates.get('d')();
  const results = await settled;
  assert.deepEqual(
    results.map((r) => (r.status === 'fulfilled' ? r.value : `rejected: ${r.reason.message}`)),
    ['a', 'rejected: b', 'c', 'd'],
  );
  assert.equal(most, 2);
});

test('a limit: a function that throws before giving a promise rejects its call and frees its place', limit, async () => {
  const at = createLimit(1);
  const first = at(() => {
    throw new Error('at once');
  });
  const second = at(() => 'after');
  await assert.rejects(first, /at once/);
  assert.equal(await second, 'after');
});

test('a pool rejects with the first rejection, and still runs every item', limit, async () => {
  const ran = [];
  const done = inPool([0, 1, 2, 3], 2, async (item) => {
    ran.push(item);
    if (item === 1) throw new Error('item 1');
    return item;
  });
  await assert.rejects(done, /item 1/);
  while (ran.length < 4) await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(ran, [0, 1, 2, 3]);
});
