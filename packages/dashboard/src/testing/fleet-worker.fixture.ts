// A worker process for fleet.test.ts, run under tsx. Argument: JSON { db, worker, mode, runs, reports }.
// It opens the SQLite store, starts `runs` runs in session `worker` through createRunRequestWorker
// and, once it reads the line `GO` on stdin, polls the store for requests every 20 ms until it is killed. In mode `hang` each run does one
// tool round and then waits forever on its model (a worker that will be killed); in mode `answer`
// each run does one tool round and then answers (and so does every run it resumes).
import { writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ManualClock, systemClock } from '@headway/protocol';
import { AgentRuntime, defineTool, saveRunReport } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { SqliteCheckpointStore } from '@headway/store-sqlite';
import { z } from 'zod';
import { createRunRequestWorker } from '../run-request-worker.js';

const args = z
  .object({ db: z.string(), worker: z.string(), mode: z.enum(['hang', 'answer']), runs: z.number().int(), reports: z.string() })
  .parse(JSON.parse(process.argv[2] ?? '{}'));
const say = (line: string): void => {
  writeSync(1, `${line}\n`);
};
/** Nobody advances it: a reply delayed on it never comes. */
const never = new ManualClock({ start: 0 });
const store = new SqliteCheckpointStore(args.db);
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
const runtime = new AgentRuntime({ provider: 'scripted' }, { provider, tools: [search], checkpointStore: store });
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
say('READY');
