// Mapping cost: a recorded run of 20 000 progress events (steps, thinking, tool calls,
// progress, text deltas) through toAgUiEvents, against JSON.stringify of the same events,
// side by side in one process over several interleaved rounds. The claim: mapping ≤ 1.5×
// serialising. Encoding the mapped events with @ag-ui/encoder is shown for information.
// Run: pnpm -F @headway/bench bench:ag-ui
import { EventEncoder } from '@ag-ui/encoder';
import { toAgUiEvents } from '@headway/ag-ui';
import { compare, printTable } from '../lib/compare.js';
import { recordedRun } from '../lib/recorded-run.js';
import { verdict } from '../lib/verdict.js';

const N = 20_000;

const events = recordedRun(N, { textDeltas: 4 });
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
printTable(
  `${N.toLocaleString('en-US')} progress events → ${mapped.toLocaleString('en-US')} AG-UI events, per whole run (ops/s = runs/s)`,
  rows,
);
const ratio = rows.find((r) => r.name === 'toAgUiEvents')?.ratio ?? Number.POSITIVE_INFINITY;
if (sink < 0) throw new Error('nothing was serialised');
verdict('ag-ui: mapping vs serialising alone', ratio, '<=', 1.5);
