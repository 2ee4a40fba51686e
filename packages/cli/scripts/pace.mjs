// Writes a JSON-lines file to stdout one line at a time, as a live agent would:
//   node scripts/pace.mjs FILE [--every MS] [--pause-after N --until PATH]
// With --pause-after, it stops after line N (1-based) until PATH exists, so a test can look at the
// screen at a known point of the run.
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { every: { type: 'string', default: '100' }, 'pause-after': { type: 'string' }, until: { type: 'string' } },
});
const lines = readFileSync(positionals[0], 'utf8').trimEnd().split('\n');
const pauseAfter = values['pause-after'] === undefined ? -1 : Number(values['pause-after']);
for (const [i, line] of lines.entries()) {
  process.stdout.write(`${line}\n`);
  if (i + 1 === pauseAfter && values.until !== undefined) {
    while (!existsSync(values.until)) await sleep(50);
  }
  await sleep(Number(values.every));
}
