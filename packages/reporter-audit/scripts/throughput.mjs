// What auditing costs per event, through AuditReporter into each bus (run `pnpm build` first):
//   node scripts/throughput.mjs [eventsPerRound] [rounds]
// Variants run interleaved over several rounds (order alternating) and are reported as the
// median ratio to a baseline measured in the same round — a hand-written JSONL writer
// (JSON.stringify + writeSync, no redaction, no validation) — because ratios survive a
// noisy shared machine far better than absolute times.
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditReporter, JsonlAuditBus, MemoryAuditBus, SqliteAuditBus } from '../dist/index.js';

const perRound = Number(process.argv[2] ?? 4000);
const rounds = Number(process.argv[3] ?? 7);
const dir = mkdtempSync(join(tmpdir(), 'headway-audit-throughput-'));

/** The same mix for every variant: a reporter call, a tool start with args, its completion, progress. */
function feed(sink, count) {
  for (let i = 0; i < count; i += 4) {
    sink.onIteration(i, count);
    sink.handle({
      runId: 'r',
      seq: i + 1,
      ts: Date.now(),
      type: 'tool.executing',
      toolName: 'file_read',
      toolCallId: `c${i}`,
      args: { path: `src/file-${i}.ts`, limit: 200 },
    });
    sink.handle({
      runId: 'r',
      seq: i + 2,
      ts: Date.now(),
      type: 'tool.completed',
      toolName: 'file_read',
      toolCallId: `c${i}`,
      durationMs: 3,
      ok: true,
      preview: 'export function main() { return 42 }',
    });
    sink.onProgress((i / count) * 100, 'Reading files');
  }
}

/** Baseline: what a few lines of hand-written code would do, with none of the guarantees. */
function handWritten(file) {
  const fd = openSync(file, 'a');
  const write = (eventType, detail, timestamp) =>
    writeSync(
      fd,
      `${JSON.stringify({ eventType, category: 'agent', result: 'allow', sessionId: 's1', taskId: 't1', timestamp, detail })}\n`,
    );
  return {
    sink: {
      onIteration: (iteration, max) => write('agent.progress.iteration', { iteration, max }, Date.now()),
      onProgress: (pct, label) => write('agent.progress.update', { pct, label }, Date.now()),
      handle: (e) => write(`agent.progress.${e.type}`, e, e.ts),
    },
    close: () => closeSync(fd),
  };
}

function viaReporter(bus, close) {
  const reporter = new AuditReporter({ sessionId: 's1', taskId: 't1', bus, redact: { paths: ['detail.args.apiKey'] } });
  return {
    sink: reporter,
    close: () => {
      if (reporter.failures !== 0) throw new Error(`${reporter.failures} failures`);
      close?.();
    },
  };
}

const variants = {
  'hand-written JSONL (baseline)': () => handWritten(join(dir, 'base.jsonl')),
  'reporter, no-op bus': () => viaReporter({ publish() {} }),
  'reporter + MemoryAuditBus': () => {
    const bus = new MemoryAuditBus({ maxEvents: perRound });
    return viaReporter(bus);
  },
  'reporter + JsonlAuditBus': () => {
    const bus = new JsonlAuditBus(join(dir, 'a.jsonl'));
    return viaReporter(bus, () => bus.close());
  },
  'reporter + SqliteAuditBus': () => {
    const bus = new SqliteAuditBus(join(dir, 'a.db'));
    return viaReporter(bus, () => bus.close());
  },
};

const names = Object.keys(variants);
const times = Object.fromEntries(names.map((n) => [n, []]));
for (let round = -1; round < rounds; round++) {
  const order = round % 2 === 0 ? names : [...names].reverse();
  for (const name of order) {
    const { sink, close } = variants[name]();
    const start = process.hrtime.bigint();
    feed(sink, perRound);
    const ns = Number(process.hrtime.bigint() - start);
    close();
    if (round >= 0) times[name].push(ns / perRound); // round -1 warms up
  }
}
rmSync(dir, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = times[names[0]];
console.log(`| variant | µs/event (median) | × baseline |\n|---|---:|---:|`);
for (const name of names) {
  const ratio = median(times[name].map((t, i) => t / base[i]));
  console.log(`| ${name} | ${(median(times[name]) / 1000).toFixed(1)} | ${ratio.toFixed(2)} |`);
}
