// JSON lines per second: the same 10^5 progress events through JSONReporter and through
// pino, each writing to /dev/null through pino's sync destination (SonicBoom), in one
// process, interleaved over several rounds. Run: pnpm -F @headway/bench bench:json-reporter
import { parseProgressEvent, type ProgressEvent } from '@headway/protocol';
import { JSONReporter } from '@headway/reporter-json';
import { Writable } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import pino from 'pino';

const N = 100_000;
const ROUNDS = 7;

/** A plausible run: iterations of model steps and tool calls, with text that varies per event. */
function makeEvents(): ProgressEvent[] {
  const events: ProgressEvent[] = [];
  const tools = ['file_read', 'web_search', 'shell', 'http_get'];
  let seq = 0;
  let ts = 1_700_000_000_000;
  const push = (body: Record<string, unknown>): void => {
    seq += 1;
    ts += 17;
    events.push({ ...body, runId: 'run-7f3a9c', seq, ts } as ProgressEvent);
  };
  push({ type: 'run.started', agentName: 'researcher', task: 'Summarize the open issues of the repository' });
  for (let i = 0; events.length < N - 1; i++) {
    const tool = tools[i % tools.length]!;
    push({ type: 'iteration', index: i, max: 20_000 });
    push({ type: 'step.started', step: `llm-call-${i}`, description: `model call ${i}` });
    push({ type: 'thinking', content: `I should look at item ${i} next and compare it with item ${i - 1}` });
    push({ type: 'step.finished', step: `llm-call-${i}`, durationMs: 800 + (i % 400) });
    push({ type: 'tool.executing', toolName: tool, toolCallId: `call_${i}`, args: { path: `src/module-${i % 97}.ts`, limit: 50 } });
    push({ type: 'tool.completed', toolName: tool, toolCallId: `call_${i}`, durationMs: 30 + (i % 50), ok: i % 13 !== 0, preview: `Found ${i % 17} matches in module ${i % 97}` });
    push({ type: 'progress', percent: Math.min(99, (i * 100) / 15_000), message: `Analyzing item ${i} of 15000`, etaMs: 60_000 - (i % 60_000) });
    push({ type: 'text.delta', text: `Item ${i} looks fine; ` });
  }
  events.length = N - 1;
  push({ type: 'run.finished', durationMs: 3_600_000, outcome: 'completed', summary: `finished after ${N} events` });
  return events;
}

const events = makeEvents();
const devNull = () => pino.destination({ dest: '/dev/null', sync: true });

interface Variant {
  name: string;
  run: () => void;
}

function reporterVariant(name: string, redact: false | undefined): Variant {
  return {
    name,
    run: () => {
      const reporter = new JSONReporter({ stream: devNull(), ...(redact === false ? { redact } : {}) });
      for (const event of events) reporter.handle(event);
      const stats = reporter.stats();
      if (stats.written !== N || stats.dropped !== 0) throw new Error(`${name}: wrote ${stats.written}, dropped ${stats.dropped}`);
    },
  };
}

function pinoVariant(name: string, options: pino.LoggerOptions): Variant {
  return {
    name,
    run: () => {
      const logger = pino(options, devNull());
      for (const event of events) logger.info(event);
    },
  };
}

const baseline = 'pino (base: null, timestamp: false)';
const variants: Variant[] = [
  pinoVariant(baseline, { base: null, timestamp: false }),
  pinoVariant('pino (defaults: level, time, pid, hostname)', {}),
  reporterVariant('JSONReporter.handle (default: redaction on)', undefined),
  reporterVariant('JSONReporter.handle (redact: false)', false),
];

// The lines are the real thing: every one reads back as the event it came from.
{
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString();
      callback();
    },
  });
  const reporter = new JSONReporter({ stream: sink });
  for (const event of events.slice(0, 2000)) reporter.handle(event);
  const lines = text.split('\n').slice(0, -1);
  if (lines.length !== 2000) throw new Error(`expected 2000 lines, got ${lines.length}`);
  lines.forEach((line, i) => {
    if (!isDeepStrictEqual(parseProgressEvent(JSON.parse(line)), events[i])) throw new Error(`line ${i} does not read back`);
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const times: Record<string, number[]> = {};
for (let round = -1; round < ROUNDS; round++) {
  // Alternate the order so neither side always runs on a warmer or cooler machine; round -1 warms up.
  const ordered = round % 2 === 0 ? variants : [...variants].reverse();
  for (const v of ordered) {
    const start = performance.now();
    v.run();
    const ms = performance.now() - start;
    if (round >= 0) (times[v.name] ??= []).push(ms);
  }
}

const base = times[baseline]!;
console.log(`\n${N.toLocaleString('en-US')} events to /dev/null (sync destination), median of ${ROUNDS} interleaved rounds`);
console.log('| variant | lines/s | × pino lines/s |');
console.log('|---|---:|---:|');
for (const v of variants) {
  const t = times[v.name]!;
  const linesPerSec = (N * 1000) / median(t);
  const ratio = median(t.map((ms, i) => base[i]! / ms));
  console.log(`| ${v.name} | ${Math.round(linesPerSec).toLocaleString('en-US')} | ${ratio.toFixed(2)} |`);
}
