import assert from 'node:assert/strict';
import test from 'node:test';
import { createTails } from './tails.mjs';

test("a step's last lines are kept, whatever the chunks; a failed turbo task's own lines are found from the summary", () => {
  const tails = createTails(3);
  tails.keep('prettier', 'a\nb');
  tails.keep('prettier', 'c\nd\ne');
  assert.deepEqual(tails.tail('prettier'), ['bc', 'd', 'e']); // a line split across two chunks is one line
  assert.equal(tails.report('prettier'), '--- prettier\nbc\nd\ne');
  for (let i = 0; i < 1000; i += 1) tails.keep('long', `line ${String(i)}\n`);
  assert.deepEqual(tails.tail('long'), ['line 997', 'line 998', 'line 999']);

  tails.keep('turbo', '@headway/protocol:test: ok 1\n@headway/report:lint: error one\n@headway/report:lint: error two\n');
  tails.keep('turbo', '@headway/protocol:docs:api: warning\n Tasks:    3 successful, 5 total\n');
  // As turbo 2.11 prints it with --continue (checked with two failing tasks).
  tails.keep('turbo', 'Failed:    @headway/report#lint, @headway/protocol#docs:api\n');
  assert.equal(
    tails.report('turbo'),
    '--- turbo: @headway/report#lint\nerror one\nerror two\n--- turbo: @headway/protocol#docs:api\nwarning',
  );
  const quiet = createTails(2);
  quiet.keep('turbo', 'a#test:  ERROR  command exited (1)\nFailed:    a#test\n');
  assert.equal(quiet.report('turbo'), '--- turbo: a#test\na#test:  ERROR  command exited (1)\nFailed:    a#test');
  const plain = createTails(2);
  plain.keep('turbo', 'x  ERROR  run failed: command  exited (1)\n');
  assert.equal(plain.report('turbo'), '--- turbo (no failed task named)\nx  ERROR  run failed: command  exited (1)');
});
