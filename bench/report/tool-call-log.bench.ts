// Memory bound of a 10,000-iteration run's ToolCallLog: retained heap and serialized size vs an
// unbounded log that keeps every entry (what a log without a bound does), plus the cost of
// recording a call. Run: pnpm -F @headway/bench bench:report
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ToolCallLog, buildFallbackReport, renderProgressReport } from '@headway/report';
import { compare, printTable } from '../lib/compare.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const ITERATIONS = 10_000;

interface Shape {
  name: string;
  /** Builds iteration `i`'s arguments, result and model text (fresh strings each time, as a real run makes). */
  args: (i: number) => unknown;
  result: (i: number) => string;
  text: (i: number) => string | undefined;
}

// Typical: a code-search run — short args, a few KB of result, a note every fifth step.
const typical: Shape = {
  name: 'typical (2 KB results, note every 5th iteration)',
  args: (i) => ({ query: `symbol_${i}`, path: 'src/', maxResults: 20 }),
  result: (i) => `Found ${i % 40} matching records:\n`.padEnd(2_000, `src/module_${i}.ts:12: const x = ${i};\n`),
  text: (i) =>
    i % 5 === 0 ? `Step ${i}: looked at module_${i}; the handler delegates to service_${i}.`.padEnd(300, ' more detail') : undefined,
};

// Worst case for the bound: every field over its cut, in two-byte characters (V8 stores
// Latin-1 text at one byte a character, anything else at two), 20 KB args, 20 KB results,
// a 4,000-character note every iteration, 200 distinct tool names and a failure every 7th call.
const worst: Shape = {
  name: 'worst case (20 KB args+results, 2-byte text, note every iteration)',
  args: (i) => ({ blob: `${i}`.padEnd(20_000, '漢字') }),
  result: (i) => `${i}`.padEnd(20_000, 'données€'),
  text: (i) => `${i}`.padEnd(4_000, 'メモ'),
};

function run(shape: Shape, make: () => { record: (i: number) => void; keep: () => unknown }): { heapBytes: number; json: number } {
  gc();
  const before = process.memoryUsage().heapUsed;
  const { record, keep } = make();
  for (let i = 1; i <= ITERATIONS; i++) record(i);
  gc();
  const heapBytes = process.memoryUsage().heapUsed - before;
  const json = Buffer.byteLength(JSON.stringify(keep()));
  return { heapBytes, json };
}

function headwayLog(shape: Shape, maxEntries?: number) {
  return () => {
    const log = new ToolCallLog(maxEntries === undefined ? {} : { maxEntries });
    return {
      record: (i: number) => {
        const text = shape.text(i);
        if (text !== undefined) log.recordText({ iteration: i, text });
        log.recordToolCall({
          iteration: i,
          name: `tool_${i % 200}`,
          args: shape.args(i),
          result: shape.result(i),
          ok: i % 7 !== 0,
          durationMs: i % 100,
        });
      },
      keep: () => log,
    };
  };
}

// The unbounded baseline: the same briefs (args 200, result 500, text 1000 characters) but
// every entry kept, cut with plain `slice` — a log with no bound.
function unboundedLog(shape: Shape) {
  return () => {
    const entries: unknown[] = [];
    return {
      record: (i: number) => {
        const text = shape.text(i);
        if (text !== undefined) entries.push({ kind: 'text', iteration: i, text: text.slice(0, 1000) });
        entries.push({
          kind: 'tool',
          iteration: i,
          name: `tool_${i % 200}`,
          args: JSON.stringify(shape.args(i)).slice(0, 200),
          resultBrief: shape.result(i).slice(0, 500),
          ok: i % 7 !== 0,
          durationMs: i % 100,
        });
      },
      keep: () => entries,
    };
  };
}

const kb = (bytes: number): string => `${(bytes / 1024).toLocaleString('en-US', { maximumFractionDigits: 0 })} KB`;

console.log(`\nToolCallLog memory after ${ITERATIONS.toLocaleString('en-US')} iterations (retained heap after GC; JSON bytes of toJSON())`);
console.log('| run | log | retained heap | serialized JSON |');
console.log('|---|---|---:|---:|');
for (const shape of [typical, worst]) {
  const variants: [string, () => { record: (i: number) => void; keep: () => unknown }][] = [
    ['ToolCallLog, default (200 entries)', headwayLog(shape)],
    ['ToolCallLog, maxEntries 1,000', headwayLog(shape, 1000)],
    ['unbounded log (baseline)', unboundedLog(shape)],
  ];
  for (const [label, make] of variants) {
    const { heapBytes, json } = run(shape, make);
    console.log(`| ${shape.name} | ${label} | ${kb(heapBytes)} | ${kb(json)} |`);
  }
}

// The bound itself: a default log can never hold more than this much text (see the README).
const worstLog = new ToolCallLog();
for (let i = 1; i <= ITERATIONS; i++) {
  worstLog.recordText({ iteration: i, text: worst.text(i) ?? '' });
  worstLog.recordToolCall({
    iteration: i,
    name: `tool_${i}`.padEnd(150, 'n'),
    args: worst.args(i),
    result: worst.result(i),
    ok: i % 7 !== 0,
    durationMs: 1,
  });
}
const report = renderProgressReport(
  buildFallbackReport({
    task: 'bench',
    log: worstLog,
    reason: 'max-iterations',
    stats: { iterations: ITERATIONS, toolCalls: ITERATIONS, elapsedMs: 1 },
  }),
);
console.log(
  `\nworst-case default log: ${kb(Buffer.byteLength(JSON.stringify(worstLog)))} of JSON, ${worstLog.entries().length} entries kept, fallback report ${kb(Buffer.byteLength(report))} of Markdown`,
);

// Recording cost: 1,000 typical iterations per op, inputs made beforehand so only the logs are timed.
const BATCH = 1000;
const inputs = Array.from({ length: BATCH }, (_, k) => {
  const i = k + 1;
  return { i, args: typical.args(i), result: typical.result(i), text: typical.text(i) };
});
const rows = await compare(
  'unbounded log (baseline)',
  [
    {
      name: 'unbounded log (baseline)',
      fn: () => {
        const entries: unknown[] = [];
        for (const { i, args, result, text } of inputs) {
          if (text !== undefined) entries.push({ kind: 'text', iteration: i, text: text.slice(0, 1000) });
          entries.push({
            kind: 'tool',
            iteration: i,
            name: 'search',
            args: JSON.stringify(args).slice(0, 200),
            resultBrief: result.slice(0, 500),
            ok: true,
            durationMs: 1,
          });
        }
      },
    },
    {
      name: 'ToolCallLog (redact + cut + bound)',
      fn: () => {
        const log = new ToolCallLog();
        for (const { i, args, result, text } of inputs) {
          if (text !== undefined) log.recordText({ iteration: i, text });
          log.recordToolCall({ iteration: i, name: 'search', args, result, ok: true, durationMs: 1 });
        }
      },
    },
  ],
  { rounds: 3, timeMs: 300 },
);
printTable(`recording ${BATCH} typical iterations per op`, rows);
