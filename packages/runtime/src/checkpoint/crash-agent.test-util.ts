// A scripted agent for the crash test. Imported by the test for its script and tools; run as
// a child process (HEADWAY_CRASH_CHILD=1, under tsx) it resumes or starts the run in a SQLite
// file and, at the labelled point named by HEADWAY_CRASH_AT, prints `KILLME <label>` and
// blocks so the parent can SIGKILL it exactly there.
import { appendFileSync, writeSync } from 'node:fs';
import { z } from 'zod';
import { AgentRuntime } from '../loop/agent-runtime.js';
import { defineTool, type Tool } from '../tools/define-tool.js';
import type { ChatMessage } from '../provider/provider.js';
import type { ScriptedStep } from '../provider/scripted-provider.js';
import { ScriptedProvider } from '../provider/scripted-provider.js';
import type { PendingRecovery } from './recovery.js';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';

export const CRASH_TASK = 'Process the six batches';
export const CRASH_ROUNDS = 6;

/** Round r asks for two calls (`r{r}c1`, `r{r}c2`); after six rounds the answer. Decided by the conversation alone. */
export function crashScript(conversation: readonly ChatMessage[]): ScriptedStep {
  const done = conversation.filter((m) => m.role === 'assistant').length;
  if (done >= CRASH_ROUNDS) return { content: `All ${CRASH_ROUNDS} batches processed.`, usage: { inputTokens: 500, outputTokens: 20 } };
  const r = done + 1;
  return {
    content: `Processing batch ${r}.`,
    toolCalls: [
      { id: `r${r}c1`, name: 'work', args: { batch: r, part: 1 } },
      { id: `r${r}c2`, name: 'work', args: { batch: r, part: 2 } },
    ],
    usage: { inputTokens: 100 * r, outputTokens: 20 },
  };
}

/** One side effect as the tool logs it. */
export interface SideEffect {
  call: string;
  key: string;
}

/** The tool: appends its side effect (synchronously) and returns a result that depends only on its arguments. */
export function crashTool(record: (effect: SideEffect) => void, crash: (label: string) => void = () => undefined): Tool {
  return defineTool({
    name: 'work',
    description: 'Process one part of a batch',
    parameters: z.object({ batch: z.number(), part: z.number() }),
    execute: ({ batch, part }, ctx) => {
      crash(`tool-start:${ctx.toolCallId}`);
      record({ call: ctx.toolCallId, key: ctx.idempotencyKey });
      crash(`after-effect:${ctx.toolCallId}`);
      return `batch ${batch} part ${part}: ${batch * 10 + part} rows processed`;
    },
  });
}

const TRIGGERS = `
CREATE TEMP TRIGGER crash_msg AFTER INSERT ON main.headway_checkpoint_messages
  BEGIN SELECT crash_point('cpw:msg:' || (NEW.key % 16777216)); END;
CREATE TEMP TRIGGER crash_call_insert AFTER INSERT ON main.headway_checkpoint_tool_calls
  BEGIN SELECT crash_point('cpw:call:' || NEW.tool_call_id || ':' || json_extract(NEW.body, '$.status')); END;
CREATE TEMP TRIGGER crash_call_update AFTER UPDATE ON main.headway_checkpoint_tool_calls
  BEGIN SELECT crash_point('cpw:call:' || NEW.tool_call_id || ':' || json_extract(NEW.body, '$.status')); END;
`;

async function child(): Promise<void> {
  const env = process.env;
  const target = env.HEADWAY_CRASH_AT ?? '';
  const crash = (label: string): void => {
    if (label !== target) return;
    writeSync(1, `KILLME ${label}\n`);
    // Stand still (inside a tool, a transaction, a sink) until the parent's SIGKILL lands.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30_000);
    process.exit(3);
  };
  const store = new SqliteCheckpointStore(env.HEADWAY_CRASH_DB ?? '');
  store.database.function('crash_point', (label: unknown) => {
    crash(String(label));
    return 0;
  });
  store.database.exec(TRIGGERS);
  const effects = env.HEADWAY_CRASH_EFFECTS ?? '';
  const runtime = new AgentRuntime(
    { provider: 'scripted', maxIterations: 20 },
    {
      provider: new ScriptedProvider((conversation) => {
        const step = crashScript(conversation);
        crash(`provider:${conversation.filter((m) => m.role === 'assistant').length + 1}`);
        return step;
      }),
      tools: [
        crashTool((e) => {
          appendFileSync(effects, `${JSON.stringify(e)}\n`);
        }, crash),
      ],
      checkpointStore: store,
      sinks: [
        (event) => {
          if (event.type === 'checkpoint.saved') crash(`round-saved:${event.iteration}`);
        },
      ],
      onInternalError: (error, where) => {
        writeSync(2, `INTERNAL ${where}: ${error instanceof Error ? error.message : String(error)}\n`);
      },
    },
  );
  const pending = runtime.pendingRecovery as PendingRecovery[];
  const first = pending[0];
  let status = 'nothing-to-do';
  if (first !== undefined) status = (await runtime.resume(first.checkpointId)).status;
  else if (store.list({ status: 'completed' }).length === 0) status = (await runtime.run(CRASH_TASK, { sessionId: 's1' })).status;
  writeSync(1, `RESULT ${JSON.stringify({ status, resumed: first !== undefined, pending: pending.length })}\n`);
  store.close();
}

if (process.env.HEADWAY_CRASH_CHILD === '1') await child();
