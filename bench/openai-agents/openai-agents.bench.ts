// Per-step overhead of @headway/openai-agents: Runner.run with withHeadway (NullReporter; CLI
// and JSON reporters) vs plain Runner.run, the same scripted model and no-op tool, side by side
// in one process. Run: pnpm -F @headway/bench bench:openai-agents
// Counts that machine load does not change, (12-step − 2-step) / 10: promises per step plain 107,
// bridge (NullReporter) 107 (the table printed first); function calls per step (V8 precise
// coverage call counts, 20 runs) plain 6,683, bridge 6,751 (+1.0%: the bridge's own 69, the SDK's
// unchanged); allocation per step (heap growth over one run with garbage collected before it and a
// young generation large enough that no collection falls inside, medians of 40 runs) plain 248 KB,
// bridge 242 KB, of which the bridge's own code ~2.5 KB (a sampling heap profile: the tool-call
// log, the step record, the redacted arguments). In a CPU profile of 1,500 12-step runs, headway's
// own functions are ~2.6% of the time. At load averages of 8-30 on 2 cores the timed verdict
// ranged 0.99-1.35 over eleven runs (met in two), with the same counts: load moves this table, not
// the work measured.
import { withHeadway } from '@headway/openai-agents';
import { Agent, Runner, Usage, setTracingDisabled, tool, type Model, type ModelResponse } from '@openai/agents';
import { z } from 'zod';
import { BRIDGE_SINK_ROWS } from '../lib/bridge-sinks.js';
import { stepCounts } from '../lib/step-counts.js';
import { stepOverhead, type StepVariant } from '../lib/step-overhead.js';

setTracingDisabled(true);
const noop = tool({
  name: 'noop',
  description: 'does nothing',
  parameters: z.object({ n: z.number() }),
  execute: ({ n }) => `ok ${String(n)}`,
});

/** A model that calls `noop` for `steps` calls, then answers. */
function model(steps: number): Model {
  let call = 0;
  return {
    getResponse(): Promise<ModelResponse> {
      call += 1;
      const usage = new Usage({ requests: 1, inputTokens: 100, outputTokens: 20, totalTokens: 120 });
      if (call <= steps)
        return Promise.resolve({
          usage,
          output: [
            { type: 'function_call', callId: `c${String(call)}`, name: 'noop', arguments: `{"n":${String(call)}}`, status: 'completed' },
          ],
        });
      return Promise.resolve({
        usage,
        output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }],
      });
    },
    getStreamedResponse(): AsyncIterable<never> {
      throw new Error('not streamed');
    },
  };
}

const agentFor = (steps: number): Agent => new Agent({ name: 'bench', instructions: 'Do the task.', model: model(steps), tools: [noop] });
const runner = new Runner();

const variants: StepVariant[] = [
  {
    name: 'plain',
    bound: 1,
    run: (steps) => async () => {
      const result = await runner.run(agentFor(steps), 'Do the task', { maxTurns: steps + 2 });
      if (result.finalOutput !== 'done') throw new Error('plain: not done');
    },
  },
  ...BRIDGE_SINK_ROWS.map(({ name, bound, sinks }) => ({
    name,
    bound,
    run: (steps: number) => async () => {
      const end = await withHeadway({ task: 'Do the task', sinks: sinks(), maxIterations: steps + 2 }).run(agentFor(steps), 'Do the task', {
        runner,
      });
      if (end.outcome !== 'completed') throw new Error(`${name}: ${end.outcome}`);
    },
  })),
];
// Counts first, which the machine's load does not move; then the timed table.
await stepCounts('@headway/openai-agents work per step', variants);
// As bench:langgraph: the median of 7 blocks' fastest-batch ratios, garbage collected before every
// batch (one block's ratio ranged 0.64-1.49 at a load average of 10-17 on 2 cores; with 3 blocks,
// one bad block of three moved the verdict). Runs are short here, so each block keeps 25 rounds:
// with 11, a block's fastest batch was itself noisier.
await stepOverhead('@headway/openai-agents overhead (scripted model, no-op tool)', variants, {
  blocks: 7,
  rounds: 25,
  collectBetweenBatches: true,
});
