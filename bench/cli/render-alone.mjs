// The rendering half of `headway watch`, alone: already-converted events (read with JSON.parse,
// not validated) shown through the same LiveFeed (estimator, CLI reporter, frame cap) at the same
// pace as the bench feeds `watch`. Run by watch.bench.ts: node render-alone.mjs EVENTS RATE
import { readFileSync } from 'node:fs';
import { LiveFeed, createProcessIo } from '@headway/cli';

const [file, rateText] = process.argv.slice(2);
const events = readFileSync(file, 'utf8')
  .trimEnd()
  .split('\n')
  .map((line) => JSON.parse(line));
const rate = Number(rateText);
const feed = new LiveFeed({ io: createProcessIo(), mode: 'live' });
const start = Date.now();
let next = 0;
await new Promise((resolve) => {
  const timer = setInterval(() => {
    const due = Math.min(events.length, Math.floor(((Date.now() - start) / 1000) * rate));
    while (next < due) feed.show(events[next++]);
    if (next >= events.length) {
      clearInterval(timer);
      resolve();
    }
  }, 10);
});
process.exitCode = feed.finish();
