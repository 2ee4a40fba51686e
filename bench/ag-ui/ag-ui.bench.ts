// Mapping cost: a recorded run of 20 000 progress events (steps, thinking, tool calls,
// progress, text deltas) through toAgUiEvents, against JSON.stringify of the same events,
// side by side in one process over several interleaved rounds. The claim: mapping ≤ 1.5×
// serialising. Encoding the mapped events with @ag-ui/encoder is shown for information.
// Run: pnpm -F @headway/bench bench:ag-ui
import { EventEncoder } from '@ag-ui/encoder';
import { toAgUiEvents } from '@headway/ag-ui';
import type { ProgressEvent } from '@headway/protocol';
import { compare, printTable } from '../lib/compare.js';

const N = 20_000;

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
    push({ type: 'iteration', index: i, max: 5_000 });
    push({ type: 'step.started', step: `llm-call-${i}`, description: `model call ${i}` });
    push({ type: 'thinking', content: `I should look at item ${i} next and compare it with item ${i - 1}` });
    for (let d = 0; d < 4; d++) push({ type: 'text.delta', text: `Item ${i} part ${d} looks fine; ` });
    push({ type: 'step.finished', step: `llm-call-${i}`, durationMs: 800 + (i % 400) });
    push({ type: 'tool.executing', toolName: tool, toolCallId: `call_${i}`, args: { path: `src/module-${i % 97}.ts`, limit: 50 } });
    push({ type: 'tool.completed', toolName: tool, toolCallId: `call_${i}`, durationMs: 30 + (i % 50), ok: i % 13 !== 0, preview: `Found ${i % 17} matches in module ${i % 97}` });
    push({ type: 'progress', percent: Math.min(99, (i * 100) / 2_000), message: `Analyzing item ${i}`, etaMs: 60_000 - (i % 60_000) });
  }
  events.length = N - 1;
  push({ type: 'run.finished', durationMs: 3_600_000, outcome: 'completed', summary: `finished after ${N} events` });
  return events;
}

const events = makeEvents();
const encoder = new EventEncoder();
let sink = 0;

function mapAll(): number {
  const mapper = toAgUiEvents({ threadId: 'thread-1' });
  let count = 0;
  for (const event of events) count += mapper.push(event).length;
  return count;
}

const mapped = mapAll();
const rows = await compare(
  'JSON.stringify',
  [
    {
      name: 'JSON.stringify',
      fn: () => {
        for (const event of events) sink += JSON.stringify(event).length;
      },
    },
    {
      name: 'toAgUiEvents',
      fn: () => {
        sink += mapAll();
      },
    },
    {
      name: 'toAgUiEvents + encodeSSE (information)',
      fn: () => {
        const mapper = toAgUiEvents({ threadId: 'thread-1' });
        for (const event of events) for (const e of mapper.push(event)) sink += encoder.encodeSSE(e).length;
      },
    },
  ],
  { rounds: 7, timeMs: 400 },
);
printTable(`${N.toLocaleString('en-US')} progress events → ${mapped.toLocaleString('en-US')} AG-UI events, per whole run (ops/s = runs/s)`, rows);
const ratio = rows.find((r) => r.name === 'toAgUiEvents')?.ratio ?? Number.POSITIVE_INFINITY;
console.log(`\nmapping / serialising: ${ratio.toFixed(2)}× (claim ≤ 1.5×) ${ratio <= 1.5 ? 'PASS' : 'FAIL'}${sink < 0 ? '' : ''}`);
process.exit(ratio <= 1.5 ? 0 : 1);
