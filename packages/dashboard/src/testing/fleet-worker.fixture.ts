// A worker process for fleet.test.ts, run under tsx. Argument: JSON { store, worker, mode, runs,
// reports, leaseMs?, redis?, limited? }. It opens the store (`sqlite:PATH`, or `postgres://…` as a
// worker holding leases of `leaseMs` on its runs), starts `runs` runs in session `worker` through
// createRunRequestWorker (and with `limited`, one more that stops at its iteration limit, its
// report saved) and, once it reads the line `GO` on stdin, polls the store for requests every
// 20 ms until it is killed. With `redis`, every run's events go to Redis Streams too. In mode
// `hang` each run does one tool round and then waits forever on its model (a worker that will be
// killed); in mode `answer` each run does one tool round and then answers (and so does every run
// it resumes or continues).
import { writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ManualClock, systemClock } from '@headway/protocol';
import { PostgresCheckpointStore } from '@headway/postgres';
import { connectRedis, createRedisSink } from '@headway/redis';
import { AgentRuntime, defineTool, saveRunReport, type CheckpointStore, type RunRequestStore } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { SqliteCheckpointStore } from '@headway/store-sqlite';
import pg from 'pg';
import { z } from 'zod';
import { createRunRequestWorker } from '../run-request-worker.js';

const args = z
  .strictObject({
    store: z.string(),
    worker: z.string(),
    mode: z.enum(['hang', 'answer']),
    runs: z.number().int(),
    reports: z.string(),
    leaseMs: z.number().int().positive().optional(),
    redis: z.string().optional(),
    limited: z.boolean().optional(),
  })
  .parse(JSON.parse(process.argv[2] ?? '{}'));
const say = (line: string): void => {
  writeSync(1, `${line}\n`);
};
/** Nobody advances it: a reply delayed on it never comes. */
const never = new ManualClock({ start: 0 });

let store: CheckpointStore & { runRequests(): RunRequestStore };
if (args.store.startsWith('sqlite:')) store = new SqliteCheckpointStore(args.store.slice('sqlite:'.length));
else
  store = new PostgresCheckpointStore(new pg.Pool({ connectionString: args.store }), {
    worker: { id: args.worker, ...(args.leaseMs === undefined ? {} : { leaseMs: args.leaseMs }) },
  });
const sinks = args.redis === undefined ? [] : [createRedisSink(await connectRedis(args.redis), { workerId: args.worker })];

const search = defineTool({ name: 'search', description: 'finds things', parameters: z.object({ q: z.string() }), execute: () => 'found' });
const provider = new ScriptedProvider(
  (conversation) =>
    !conversation.some((m) => m.role === 'tool')
      ? { toolCalls: [{ name: 'search', args: { q: 'x' } }] }
      : args.mode === 'hang'
        ? { content: 'late', delayMs: 1e12 }
        : { content: 'done' },
  { clock: never },
);
const runtime = new AgentRuntime({ provider: 'scripted' }, { provider, tools: [search], checkpointStore: store, sinks });
const worker = createRunRequestWorker({
  runtime,
  requests: store.runRequests(),
  worker: args.worker,
  reports: args.reports,
  onRunEnd: (result) => saveRunReport(args.reports, result),
  onInternalError: (error, { where }) => {
    say(`ERROR ${where} ${String(error)}`);
  },
});
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'GO') void worker.watch({ signal: new AbortController().signal, intervalMs: 20, clock: systemClock });
});
for (let i = 0; i < args.runs; i++) {
  void worker.run(`${args.worker} task ${String(i)}`, { sessionId: args.worker }).then((result) => {
    say(`ENDED ${result.runId} ${result.status}`);
  });
}
if (args.limited === true) {
  // A run that searches on every iteration and stops at its limit of 2, with its report saved.
  const looping = new ScriptedProvider(() => ({ content: 'again', toolCalls: [{ name: 'search', args: { q: 'more' } }] }), {
    clock: never,
  });
  const limitedRuntime = new AgentRuntime(
    { provider: 'scripted', maxIterations: 2 },
    { provider: looping, tools: [search], checkpointStore: store, sinks },
  );
  const result = await limitedRuntime.run(`${args.worker} limited task`, { sessionId: args.worker });
  saveRunReport(args.reports, result);
  say(`LIMITED ${result.runId} ${result.status}`);
}
say('READY');
