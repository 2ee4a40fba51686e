// Cost of a progress hub emit: vs a hand-written loop over the same sinks, vs node:events,
// and the price of a NullReporter (it must be free). Run: pnpm -F @headway/bench bench:protocol
import { EventEmitter } from 'node:events';
import { NullReporter, createProgressHub, type ProgressEvent, type ProgressSink } from '@headway/protocol';
import { compare, printTable } from '../lib/compare.js';

let sinkHits = 0;
const noop: ProgressSink = () => {
  sinkHits += 1;
};
const noopListener = (): void => {
  sinkHits += 1;
};
const body = { type: 'progress', percent: 42, message: 'working' } as const;

function hubWith(sinks: number, extra?: NullReporter) {
  // A fresh hub per batch keeps seq small and never reaches a terminal event.
  const hub = createProgressHub({ runId: 'bench' });
  for (let i = 0; i < sinks; i++) hub.add(noop);
  if (extra) hub.add(extra);
  return hub;
}

function handLoop(sinks: number): () => void {
  const list = Array.from({ length: sinks }, () => noop);
  let seq = 0;
  return () => {
    seq += 1;
    const event = { ...body, runId: 'bench', seq, ts: Date.now() } as ProgressEvent;
    for (const s of list) s(event);
  };
}

function emitter(sinks: number): () => void {
  const ee = new EventEmitter();
  for (let i = 0; i < sinks; i++) ee.on('progress', noopListener);
  let seq = 0;
  return () => {
    seq += 1;
    ee.emit('progress', { ...body, runId: 'bench', seq, ts: Date.now() });
  };
}

const BATCH = 1000;
function batched(fn: () => void): () => void {
  return () => {
    for (let i = 0; i < BATCH; i++) fn();
  };
}
function hubBatch(sinks: number, extra?: () => NullReporter): () => void {
  return () => {
    const hub = hubWith(sinks, extra?.());
    for (let i = 0; i < BATCH; i++) hub.emit(body);
  };
}

for (const sinks of [1, 10]) {
  const rows = await compare('hand-written loop', [
    { name: 'hand-written loop', fn: batched(handLoop(sinks)) },
    { name: 'node:events', fn: batched(emitter(sinks)) },
    { name: 'progress hub (isolation on)', fn: hubBatch(sinks) },
  ]);
  printTable(`emit to ${sinks} no-op sink(s), ${BATCH} events per op`, rows);
}

const nullRows = await compare('hub, no sinks', [
  { name: 'hub, no sinks', fn: hubBatch(0) },
  { name: 'hub, NullReporter only', fn: hubBatch(0, () => new NullReporter()) },
]);
printTable(`NullReporter cost, ${BATCH} events per op`, nullRows);
if (sinkHits === 0) throw new Error('sinks never ran');
