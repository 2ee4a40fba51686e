// The child process of the crash suite (bundled with the store's crash module by the suite).
// It resumes or starts the crash agent's run in the store at HEADWAY_CRASH_LOCATION and, at the
// kill point named by HEADWAY_CRASH_AT, prints `KILLME <label>` and blocks so the parent can
// SIGKILL it exactly there.
import { appendFileSync, writeSync } from 'node:fs';
import { AgentRuntime } from '../loop/agent-runtime.js';
import { ScriptedProvider } from '../provider/scripted-provider.js';
import type { PendingRecovery } from '../checkpoint/recovery.js';
import { CRASH_TASK, crashScript, crashTool } from './crash-agent.js';
import type { CrashStoreModule } from './crash-store.js';

/** Runs the child side of the crash suite with a store module. */
export async function runCrashChild(module: CrashStoreModule): Promise<void> {
  const env = process.env;
  const target = env.HEADWAY_CRASH_AT ?? '';
  const crash = (label: string): void => {
    if (label !== target) return;
    writeSync(1, `KILLME ${label}\n`);
    // Stand still (inside a tool, a transaction, a sink) until the parent's SIGKILL lands.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30_000);
    process.exit(3);
  };
  const { store, close } = await module.openCrashStore(env.HEADWAY_CRASH_LOCATION ?? '', crash);
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
      onInternalError: (error, { where }) => {
        writeSync(2, `INTERNAL ${where}: ${error instanceof Error ? error.message : String(error)}\n`);
      },
    },
  );
  const pending: PendingRecovery[] = await runtime.pendingRecovery;
  const first = pending[0];
  let status = 'nothing-to-do';
  if (first !== undefined) status = (await runtime.resume(first.checkpointId)).status;
  else if ((await store.list({ status: 'completed' })).length === 0) status = (await runtime.run(CRASH_TASK, { sessionId: 's1' })).status;
  writeSync(1, `RESULT ${JSON.stringify({ status, resumed: first !== undefined, pending: pending.length })}\n`);
  await close();
}
