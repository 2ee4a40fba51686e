// A worker process: runs agent runs one after another, each run's events going to Redis.
import { randomUUID } from 'node:crypto';
import { createRedisSink, type RedisCommandClient } from '@headway/redis';
import { AgentRuntime, defineTool, type RunResult } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { z } from 'zod';

/** Options of {@link runAgent}. */
export interface RunAgentOptions {
  /** Tool calls the scripted model makes before it answers (default 6). */
  steps?: number;
  /** The scripted model's thinking time per reply, ms (default 400). */
  stepDelayMs?: number;
  /** Names this worker in the run index. */
  workerId?: string;
  /** The run's id (default a random UUID). */
  runId?: string;
}

const measure = defineTool({
  name: 'measure',
  description: 'Measures one sample of the batch',
  parameters: z.object({ sample: z.number().int() }),
  safe: true,
  execute: ({ sample }) => `sample ${sample}: ${(Math.sin(sample) * 50 + 50).toFixed(1)} units`,
});

/**
 * Runs one agent run (a scripted model measuring samples with a real tool) whose events go
 * to Redis through `createRedisSink`; resolves with the run's id and result once Redis has them all.
 */
export async function runAgent(client: RedisCommandClient, options: RunAgentOptions = {}): Promise<{ runId: string; result: RunResult }> {
  const steps = options.steps ?? 6;
  const delayMs = options.stepDelayMs ?? 400;
  const runId = options.runId ?? randomUUID();
  const sink = createRedisSink(client, { ...(options.workerId === undefined ? {} : { workerId: options.workerId }) });
  const provider = new ScriptedProvider((conversation) => {
    const done = conversation.filter((m) => m.role === 'tool').length;
    if (done >= steps) return { content: `Measured ${steps} samples.`, delayMs };
    return {
      toolCalls: [{ name: 'measure', args: { sample: done + 1 } }],
      content: `_progress: ${Math.round((done / steps) * 90)}`,
      delayMs,
    };
  });
  let ids = 0;
  const runtime = new AgentRuntime(
    { provider: 'scripted', agentName: 'sampler', maxIterations: steps + 2 },
    { provider, tools: [measure], sinks: [sink], generateId: () => (ids++ === 0 ? runId : randomUUID()) },
  );
  const result = await runtime.run(`Measure ${steps} samples of the batch`);
  await sink.close();
  return { runId, result };
}
