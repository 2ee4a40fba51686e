// What each reporter costs per event of an AI SDK run, alone: the events of real withHeadway runs
// (mock model, no-op tool: the runs bench:ai-sdk times) recorded once, then handed to
// JSONReporter.handle and to CLIReporter.handle (plain mode), each writing to a stream that
// discards, next to the floor a JSON line writer cannot go below (JSON.stringify of the event, the
// lines of a slice joined and written at once). CPU time per event, interleaved slice by slice over
// several rounds; and bytes allocated per event, counted in a child process whose young generation
// is big enough that no collection runs while it counts (load does not change that number).
// Run: pnpm -F @headway/bench bench:reporters
import { spawnSync } from 'node:child_process';
import { withHeadway } from '@headway/ai-sdk';
import type { ProgressEvent } from '@headway/protocol';
import { CLIReporter } from '@headway/reporter-cli';
import { JSONReporter } from '@headway/reporter-json';
import { generateText } from 'ai';
import { noopAiTools as tools, toolCallingModel as model } from '../lib/ai-sdk-mock.js';
import { discardStream } from '../lib/discard-stream.js';

const RUNS = 150;
const STEPS = 12;
const ROUNDS = 9;
const SLICE = 500;
const COUNT_ALLOCATION = process.argv.includes('--count-allocation');

/** The events every sink of `RUNS` bridge runs was handed, in order. */
async function recordRuns(): Promise<ProgressEvent[]> {
  const events: ProgressEvent[] = [];
  for (let i = 0; i < RUNS; i++) {
    const headway = withHeadway({
      task: 'Do the task',
      sinks: [(event: ProgressEvent) => void events.push(event)],
      maxIterations: STEPS + 1,
    });
    await generateText({ model: model(STEPS), system: 'You are a helpful agent.', prompt: 'Do the task', tools, ...headway.settings });
    await headway.finish();
  }
  return events;
}

/** A fresh writer per round: `write(from, to)` hands it events `from`…`to - 1` and lets the lines of that slice go out. */
interface Variant {
  name: string;
  open: () => (from: number, to: number) => void;
}

const events = await recordRuns();
const N = events.length;

const variants: Variant[] = [
  {
    name: 'floor: JSON.stringify, one write per slice',
    open: () => {
      const stream = discardStream();
      return (from, to) => {
        const lines: string[] = [];
        for (let i = from; i < to; i++) lines.push(JSON.stringify(events[i]));
        lines.push('');
        stream.write(lines.join('\n'));
      };
    },
  },
  {
    name: 'JSONReporter.handle',
    open: () => {
      const reporter = new JSONReporter({ stream: discardStream() });
      return (from, to) => {
        for (let i = from; i < to; i++) reporter.handle(events[i]!);
        // Lines are held until the turn ends: the slice's are handed over (and timed) here.
        void reporter.flush();
      };
    },
  },
  {
    name: 'CLIReporter.handle (plain)',
    open: () => {
      const reporter = new CLIReporter({ stream: discardStream(), mode: 'plain' });
      return (from, to) => {
        for (let i = from; i < to; i++) reporter.handle(events[i]!);
      };
    },
  },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** CPU time (user + system) in µs: on a shared machine it counts only this work. */
function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

if (COUNT_ALLOCATION) {
  // In the child: bytes allocated per event, each variant alone after a collection.
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  const bytes: Record<string, number> = {};
  for (const v of variants) {
    const write = v.open();
    write(0, SLICE); // warm up
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let from = SLICE; from < N; from += SLICE) write(from, Math.min(N, from + SLICE));
    bytes[v.name] = (process.memoryUsage().heapUsed - before) / (N - SLICE);
  }
  console.log(JSON.stringify(bytes));
  process.exit(0);
}

const child = spawnSync(
  process.execPath,
  ['--expose-gc', '--min-semi-space-size=256', '--max-semi-space-size=256', '--import', 'tsx', import.meta.filename, '--count-allocation'],
  { encoding: 'utf8' },
);
if (child.status !== 0) throw new Error(`allocation count failed: ${child.stderr}`);
const bytes = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, number>;

const times: Record<string, number[]> = {};
for (let round = -1; round < ROUNDS; round++) {
  // Alternate the order each round and interleave the variants slice by slice, so all of them
  // see the same machine; round -1 warms up.
  const ordered = round % 2 === 0 ? variants : [...variants].reverse();
  const writers = ordered.map((v) => ({ v, write: v.open(), us: 0 }));
  for (let from = 0; from < N; from += SLICE) {
    for (const entry of writers) {
      const start = cpuMicros();
      entry.write(from, Math.min(N, from + SLICE));
      entry.us += cpuMicros() - start;
    }
  }
  if (round >= 0) for (const { v, us } of writers) (times[v.name] ??= []).push(us);
}

const perStep = N / (RUNS * STEPS);
const floor = times[variants[0]!.name]!;
console.log(
  `\nReporters per event: ${N.toLocaleString('en-US')} events of ${RUNS} AI SDK bridge runs of ${STEPS} steps (${perStep.toFixed(1)} per step)`,
);
console.log(`median of ${ROUNDS} interleaved rounds (cpu time); bytes allocated counted apart, with no collection running`);
console.log('| variant | ns per event (cpu) | × floor | bytes allocated per event |');
console.log('|---|---:|---:|---:|');
for (const v of variants) {
  const t = times[v.name]!;
  const ratio = median(t.map((us, i) => us / floor[i]!));
  console.log(`| ${v.name} | ${Math.round((median(t) * 1000) / N)} | ${ratio.toFixed(2)} | ${Math.round(bytes[v.name] ?? Number.NaN)} |`);
}
