// A worker process for postgres-checkpoint-store.integration.test.ts (many workers), bundled with esbuild by the test. Modes (argv[2]):
//   setup <url> <effects> <runs>   starts <runs> runs and blocks every one inside round 2's tools
//                                  (before their side effects), printing `STUCK <runId>`; the test
//                                  SIGKILLs it, leaving <runs> interrupted runs.
//   work <url> <effects> <id> <leaseMs> [block]
//                                  prints `READY <n pending>`, waits for a line on stdin, then
//                                  resumes every pending run it can claim, printing
//                                  `RESUMED <checkpointId> <status>` or `SKIPPED <checkpointId> <code>`,
//                                  then `DONE`. With `block`, it blocks in the first tool it runs
//                                  (printing `BLOCKED <checkpointId>`) so the test can kill it holding a lease.
import { appendFileSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { z } from 'zod';
import { AgentRuntime, defineTool, type ChatMessage } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { PostgresCheckpointStore } from '../postgres-checkpoint-store.js';

const ROUNDS = 3;
const [mode = '', url = '', effects = '', a = '', b = '', c = ''] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 6 });
const say = (line: string): void => {
  writeSync(1, `${line}\n`);
};

let block: ((checkpointRun: string, round: number) => boolean) | undefined;

function script(conversation: readonly ChatMessage[]) {
  const done = conversation.filter((m) => m.role === 'assistant').length;
  if (done >= ROUNDS) return { content: 'All batches processed.' };
  const r = done + 1;
  return {
    content: `Batch ${r}.`,
    toolCalls: [
      { id: `r${r}c1`, name: 'work', args: { batch: r, part: 1 } },
      { id: `r${r}c2`, name: 'work', args: { batch: r, part: 2 } },
    ],
  };
}

const tool = defineTool({
  name: 'work',
  description: 'Process one part of a batch',
  parameters: z.object({ batch: z.number(), part: z.number() }),
  execute: async ({ batch, part }, ctx) => {
    const run = ctx.runId;
    if (block?.(run, batch) === true) await new Promise(() => undefined);
    appendFileSync(effects, `${JSON.stringify({ run, call: ctx.toolCallId, key: ctx.idempotencyKey, pid: process.pid })}\n`);
    return `batch ${batch} part ${part} done`;
  },
});

function runtime(store: PostgresCheckpointStore): AgentRuntime {
  return new AgentRuntime(
    { provider: 'scripted', maxIterations: 10 },
    {
      provider: new ScriptedProvider((conversation) => script(conversation)),
      tools: [tool],
      checkpointStore: store,
      onInternalError: (error, { where }) => {
        writeSync(2, `INTERNAL ${where}: ${error instanceof Error ? error.message : String(error)}\n`);
      },
    },
  );
}

if (mode === 'setup') {
  const store = new PostgresCheckpointStore(pool);
  const rt = runtime(store);
  const stuck = new Set<string>();
  block = (run, round) => {
    if (round !== 2) return false;
    if (!stuck.has(run)) {
      stuck.add(run);
      say(`STUCK ${run}`);
    }
    return true;
  };
  for (let i = 0; i < Number(a); i++) void rt.run('Process the batches', { sessionId: `s-${i}` });
} else if (mode === 'work') {
  const store = new PostgresCheckpointStore(pool, { worker: { id: a, leaseMs: Number(b) } });
  const rt = runtime(store);
  if (c === 'block') {
    let blocked = false;
    block = (run) => {
      if (!blocked) {
        blocked = true;
        say(`BLOCKED ${run}`);
      }
      return true;
    };
  }
  const pending = await rt.pendingRecovery;
  say(`READY ${pending.length}`);
  const input = createInterface({ input: process.stdin });
  await new Promise<void>((resolve) =>
    input.once('line', () => {
      resolve();
    }),
  );
  input.close();
  process.stdin.destroy();
  for (const p of pending) {
    try {
      const result = await rt.resume(p.checkpointId);
      say(`RESUMED ${p.checkpointId} ${result.status}`);
    } catch (error) {
      say(`SKIPPED ${p.checkpointId} ${(error as { code?: string }).code ?? String(error)}`);
    }
  }
  await store.close();
  await pool.end();
  say('DONE');
  process.exit(0);
}
