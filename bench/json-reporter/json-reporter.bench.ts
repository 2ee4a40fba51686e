// JSON lines per second: the same 10^5 progress events through JSONReporter and through
// pino, each writing to /dev/null through pino's sync destination (SonicBoom), in one
// process, interleaved slice by slice over several rounds, timed in CPU time so a busy
// shared machine skews both sides alike. Run: pnpm -F @headway/bench bench:json-reporter
import { parseProgressEvent } from '@headway/protocol';
import { JSONReporter } from '@headway/reporter-json';
import { Writable } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import pino from 'pino';
import { recordedRun } from '../lib/recorded-run.js';

const N = 100_000;
const ROUNDS = 7;

const events = recordedRun(N);
const devNull = () => pino.destination({ dest: '/dev/null', sync: true });

interface Variant {
  name: string;
  /** A fresh writer: `write(from, to)` writes lines `from`…`to - 1`; `done()` checks it wrote N. */
  open: () => { write: (from: number, to: number) => void; done: () => void };
}

function reporterVariant(name: string, redact: false | undefined): Variant {
  return {
    name,
    open: () => {
      const reporter = new JSONReporter({ stream: devNull(), ...(redact === false ? { redact } : {}) });
      return {
        write: (from, to) => {
          for (let i = from; i < to; i++) reporter.handle(events[i]!);
          // Lines are held until the turn ends: the last ones are handed over (and timed) here.
          if (to === N) void reporter.flush();
        },
        done: () => {
          const stats = reporter.stats();
          if (stats.written !== N || stats.dropped !== 0) throw new Error(`${name}: wrote ${stats.written}, dropped ${stats.dropped}`);
        },
      };
    },
  };
}

function pinoVariant(name: string, options: pino.LoggerOptions): Variant {
  return {
    name,
    open: () => {
      const logger = pino(options, devNull());
      return {
        write: (from, to) => {
          for (let i = from; i < to; i++) logger.info(events[i]);
        },
        done: () => undefined,
      };
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
  void reporter.flush(); // hands the lines held for this turn to the stream now
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

/** CPU time (user + system, all threads) in ms: on a shared machine it counts only this work. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const SLICE = 10_000;

function measure(title: string, baselineName: string, list: Variant[]): void {
  const times: Record<string, number[]> = {};
  for (let round = -1; round < ROUNDS; round++) {
    // Alternate the order each round, and interleave the variants slice by slice, so all of
    // them see the same machine; round -1 warms up.
    const ordered = round % 2 === 0 ? list : [...list].reverse();
    const writers = ordered.map((v) => ({ v, w: v.open(), ms: 0 }));
    for (let from = 0; from < N; from += SLICE) {
      for (const entry of writers) {
        const start = cpuMs();
        entry.w.write(from, Math.min(N, from + SLICE));
        entry.ms += cpuMs() - start;
      }
    }
    for (const { v, w, ms } of writers) {
      w.done();
      if (round >= 0) (times[v.name] ??= []).push(ms);
    }
  }
  const base = times[baselineName]!;
  console.log(`\n${title}: ${N.toLocaleString('en-US')} lines to /dev/null (sync destination), median of ${ROUNDS} interleaved rounds`);
  console.log('| variant | lines per CPU-second | × pino |');
  console.log('|---|---:|---:|');
  for (const v of list) {
    const t = times[v.name]!;
    const linesPerSec = (N * 1000) / median(t);
    const ratio = median(t.map((ms, i) => base[i]! / ms));
    console.log(`| ${v.name} | ${Math.round(linesPerSec).toLocaleString('en-US')} | ${ratio.toFixed(2)} |`);
  }
}

measure('ProgressEvents (handle)', baseline, variants);

// The seven methods: the same N calls through JSONReporter and as the same objects through pino.
type Call = [
  method: 'onStart' | 'onProgress' | 'onToolStart' | 'onToolDone' | 'onIteration' | 'onComplete' | 'onError',
  a: string | number,
  b?: string | number,
];
const calls: Call[] = [];
for (let i = 0; calls.length < N; i++) {
  const tool = ['file_read', 'web_search', 'shell', 'http_get'][i % 4]!;
  calls.push(
    ['onIteration', i, 20_000],
    ['onToolStart', tool],
    ['onToolDone', tool, i % 13 === 0 ? 'error' : 'ok'],
    ['onProgress', (i * 100) / 25_000, `Analyzing item ${i}`],
  );
}
calls.length = N;
calls[0] = ['onStart', 'Summarize the open issues of the repository'];
calls[N - 1] = ['onComplete', `finished after ${N} calls`];
const asObject = ([method, a, b]: Call): Record<string, unknown> => {
  switch (method) {
    case 'onStart':
      return { event: 'start', task: a };
    case 'onProgress':
      return { event: 'progress', pct: a, label: b };
    case 'onToolStart':
      return { event: 'tool_start', tool: a };
    case 'onToolDone':
      return { event: 'tool_done', tool: a, summary: b };
    case 'onIteration':
      return { event: 'iteration', current: a, max: b };
    case 'onComplete':
      return { event: 'complete', summary: a };
    case 'onError':
      return { event: 'error', error: a };
  }
};
const callObjects = calls.map(asObject);
const sevenBaseline = 'pino, the same objects (base: null, timestamp: false)';
measure('Seven-method calls', sevenBaseline, [
  {
    name: sevenBaseline,
    open: () => {
      const logger = pino({ base: null, timestamp: false }, devNull());
      return {
        write: (from, to) => {
          for (let i = from; i < to; i++) logger.info(callObjects[i]);
        },
        done: () => undefined,
      };
    },
  },
  {
    name: 'JSONReporter methods (default: redaction on)',
    open: () => {
      const reporter = new JSONReporter({ stream: devNull() });
      return {
        write: (from, to) => {
          for (let i = from; i < to; i++) {
            const [method, a, b] = calls[i]!;
            (reporter[method] as (x: unknown, y: unknown) => void)(a, b);
          }
          if (to === N) void reporter.flush();
        },
        done: () => {
          if (reporter.stats().written !== N) throw new Error('JSONReporter methods: lines missing');
        },
      };
    },
  },
]);
