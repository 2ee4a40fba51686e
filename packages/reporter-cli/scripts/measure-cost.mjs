// What CLIReporter costs the run it reports on, measured in one process:
//   node --import tsx scripts/measure-cost.mjs      (or: pnpm -F @headway/reporter-cli measure)
// Plain mode against a hand-written `stream.write(line)` of the same lines; live mode per
// event (bursts coalesce) and per full redraw (what each 80 ms tick costs).
import { Writable } from 'node:stream';
import { CLIReporter } from '../src/index.ts';

const N = 100_000;
const sink = () => Object.assign(new Writable({ write: (_c, _e, cb) => cb() }), { isTTY: true, columns: 100, rows: 30 });
const events = Array.from({ length: N }, (_, i) => {
  const base = { runId: 'r', seq: i + 1, ts: 0 };
  switch (i % 4) {
    case 0:
      return { ...base, type: 'tool.executing', toolName: 'file_read', toolCallId: `c${i}` };
    case 1:
      return {
        ...base,
        type: 'tool.completed',
        toolName: 'file_read',
        toolCallId: `c${i - 1}`,
        durationMs: 120,
        ok: true,
        preview: '# headway makes agent loops legible',
      };
    case 2:
      return { ...base, type: 'progress', percent: (i / N) * 100, message: 'Analyzing input', etaMs: 20_000 };
    default:
      return { ...base, type: 'iteration', index: i % 10, max: 10 };
  }
});

function time(fn) {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const rounds = 5;
const results = { baseline: [], plain: [], live: [] };
for (let r = 0; r < rounds; r++) {
  const s0 = sink();
  results.baseline.push(
    time(() => {
      for (const e of events) s0.write(`  [progress] ${e.type} ${e.seq}\n`);
    }),
  );
  const plain = new CLIReporter({ stream: sink(), mode: 'plain', env: {} });
  results.plain.push(
    time(() => {
      for (const e of events) plain.handle(e);
    }),
  );
  const live = new CLIReporter({ stream: sink(), mode: 'live', env: {} });
  live.onStart('Summarize the README file');
  results.live.push(
    time(() => {
      for (const e of events) live.handle(e);
    }),
  );
  live.onComplete('done');
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const us = (ms) => ((ms * 1000) / N).toFixed(2);
const b = median(results.baseline);
console.log(`per event, median of ${rounds} rounds of ${N}:`);
console.log(`  hand-written write  ${us(b)} µs`);
console.log(`  plain handle()      ${us(median(results.plain))} µs  (${(median(results.plain) / b).toFixed(2)}× the hand-written write)`);
console.log(`  live handle()       ${us(median(results.live))} µs  (bursts coalesce into one redraw per 30 ms)`);

// A full redraw: what each tick costs while a run is live.
let now = 0;
const ticks = [];
const timers = {
  setInterval: (fn) => {
    ticks.push(fn);
    return 1;
  },
  clearInterval: () => {},
};
const live = new CLIReporter({ stream: sink(), mode: 'live', env: {}, now: () => now, timers });
live.onStart('Summarize the README file');
live.onIteration(1, 10);
live.onProgress(45, 'Analyzing input');
live.handle({ ...events[1], seq: 1 });
live.onToolStart('web_search');
const frames = 5_000;
const ms = time(() => {
  for (let i = 0; i < frames; i++) {
    now += 80;
    ticks[0]();
  }
});
console.log(
  `  live redraw (tick)  ${((ms * 1000) / frames).toFixed(1)} µs per frame, ${(((ms / frames) * 12.5) / 10).toFixed(3)}% of one core at 12.5 frames/s`,
);
live.onComplete('done');
