// Per-step overhead of @headway/langgraph: a ReAct-style graph (scripted model node, prebuilt
// ToolNode with a no-op tool) run through withHeadway (NullReporter; CLI and JSON reporters) vs
// plain graph.invoke, side by side in one process. Run: pnpm -F @headway/bench bench:langgraph
// The baseline is `graph.invoke`, the loop a user runs without headway: it streams the graph's
// `values` (one part per superstep, each crossing several async streams to the caller) and keeps
// the last one.
// The `stream modes` row is the plain graph run the way the bridge runs it, with no bridge at all:
// node runs and `values` forwarded through `configurable.__pregel_stream` to a push that does
// nothing, the graph's own stream asked for `custom` parts only (none here), a RunControl. It is
// LangGraph's own price for the events the bridge reads, so the rows above and below it tell the
// framework's share of the overhead from the bridge's.
// Counts that machine load does not change (calls: V8 precise coverage call counts; allocation:
// heap growth over one run with garbage collected before it and a young generation large enough
// that no collection falls inside; (12-step − 2-step) / 10, medians of 20-40 runs per arm):
//   calls per step       plain 13,370   stream modes 12,003 (−10.2%)   bridge (NullReporter) 12,107 (−9.4%)
//   allocation per step  plain 523 KB   stream modes 510 KB (−2.4%)    bridge (NullReporter) 515 KB (−1.5%)
// Before the graph's own stream was asked for `custom` only it carried `values` as `invoke`'s does:
// stream modes 13,918 calls (+4.1%) and 538 KB (+2.9%) per step, LangGraph building the task
// parts (one async generator per superstep) on top of everything the plain loop does. Now the
// bridge takes each superstep's state forwarded, synchronously, instead of through the async
// streams, which saves more than the task parts cost. (Asking for the node runs as stream modes
// instead, `['tasks', 'values']`, cost 1.14-1.21x alone; `['updates', 'values']` is cheaper but has
// no part when a node starts, so no step.started before a node runs and no tool.executing while a
// tool runs.)
// The workspace resolves one copy of @langchain/langgraph and @langchain/core (one
// @opentelemetry/api, pinned by a pnpm override): with two, the bridge's RunControl came from a
// copy the graph did not run on.
// The verdict is the median of 7 blocks' fastest-batch ratios, with garbage collected before every
// batch (see ../lib/step-overhead.ts): on a quiet machine one block's ratio still ranges ±0.2 for
// every arm, the stream-modes row included, wider than the margin to the target.
import { withHeadway, type StreamableGraph } from '@headway/langgraph';
import { NullReporter } from '@headway/protocol';
import { AIMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { END, MessagesAnnotation, RunControl, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { BRIDGE_SINK_ROWS } from '../lib/bridge-sinks.js';
import { stepCounts } from '../lib/step-counts.js';
import { stepOverhead, type StepVariant } from '../lib/step-overhead.js';

const noop = tool(({ n }: { n: number }) => `ok ${String(n)}`, {
  name: 'noop',
  description: 'does nothing',
  schema: z.object({ n: z.number() }),
});

/** The graph: the model node calls `noop` for `steps` calls, then answers. */
function graphFor(steps: number) {
  let call = 0;
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', () => {
      call += 1;
      const usage = { input_tokens: 100, output_tokens: 20, total_tokens: 120 };
      const message =
        call <= steps
          ? new AIMessage({
              content: '',
              tool_calls: [{ id: `c${String(call)}`, name: 'noop', args: { n: call } }],
              usage_metadata: usage,
            } as never)
          : new AIMessage({ content: 'done', usage_metadata: usage } as never);
      return { messages: [message] };
    })
    .addNode('tools', new ToolNode([noop]))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', toolsCondition, ['tools', END])
    .addEdge('tools', 'agent')
    .compile();
}

const input = { messages: [new AIMessage('Do the task')] };
const variants: StepVariant[] = [
  {
    name: 'plain',
    bound: 1,
    run: (steps) => async () => {
      const state = await graphFor(steps).invoke(input, { recursionLimit: 2 * steps + 5 });
      if (state.messages.length !== 2 * steps + 2) throw new Error(`plain: ${String(state.messages.length)} messages`);
    },
  },
  {
    name: 'stream modes',
    bound: 1.2,
    run: (steps) => async () => {
      let forwarded = 0;
      let last: { messages: unknown[] } | undefined;
      // The state as the bridge takes it: the last top-level `values` part forwarded.
      const push = (part: [string[], string, unknown]): void => {
        forwarded += 1;
        if (part[1] === 'values' && part[0].length === 0) last = part[2] as { messages: unknown[] };
      };
      const stream = await graphFor(steps).stream(input, {
        recursionLimit: 2 * steps + 5,
        streamMode: 'custom',
        subgraphs: false,
        control: new RunControl(),
        configurable: { __pregel_stream: { modes: new Set(['tasks', 'values']), push } },
      });
      let own = 0;
      for await (const _ of stream) own += 1;
      if (own !== 0) throw new Error(`stream modes: ${String(own)} parts on the graph's own stream`);
      if (last?.messages.length !== 2 * steps + 2) throw new Error('stream modes: not the final state');
      // Per node run: its start and its result; per superstep and for the input: the values and the checkpoint's envelope.
      if (forwarded !== 4 * (2 * steps + 1) + 2) throw new Error(`stream modes: ${String(forwarded)} parts forwarded`);
    },
  },
  ...BRIDGE_SINK_ROWS.map(({ name, bound, sinks }) => ({
    name,
    bound,
    run: (steps: number) => async () => {
      const end = await withHeadway({ task: 'Do the task', sinks: sinks(), maxIterations: 2 * steps + 5 }).run(graphFor(steps), input);
      if (end.outcome !== 'completed') throw new Error(`${name}: ${end.outcome}`);
    },
  })),
];
// Counts first (promises above all: LangGraph's async streams), which the machine's load does not move.
await stepCounts('@headway/langgraph work per step', variants);
await stepOverhead('@headway/langgraph overhead (scripted model node, prebuilt ToolNode, no-op tool)', variants, {
  blocks: 7,
  rounds: 11,
  collectBetweenBatches: true,
});

// The bridge's own work per step, apart from LangGraph: the parts a 2-step and a 12-step run
// forward are recorded once, then replayed into withHeadway (NullReporter) by a stand-in graph,
// timed in process CPU time. Few allocations and no LangGraph in the loop, so a busy machine
// disturbs it less than the table above; compare it with the plain loop's µs per step there.
async function recordParts(steps: number): Promise<unknown[]> {
  const parts: [string[], string, unknown][] = [];
  const stream = await graphFor(steps).stream(input, {
    recursionLimit: 2 * steps + 5,
    streamMode: 'custom',
    control: new RunControl(),
    configurable: {
      __pregel_stream: { modes: new Set(['tasks', 'values']), push: (part: [string[], string, unknown]) => parts.push(part) },
    },
  });
  for await (const _ of stream) {
    // Nothing: no node writes `custom` parts.
  }
  const last = parts.findLast((part) => part[1] === 'values')?.[2] as { messages: unknown[] } | undefined;
  if (last?.messages.length !== 2 * steps + 2) throw new Error('record: not the final state');
  return parts;
}
const replaying = (parts: unknown[]): StreamableGraph => ({
  stream: (_input, options) => {
    const forward = (options.configurable as { __pregel_stream: { push: (part: unknown) => void } }).__pregel_stream;
    for (const part of parts) forward.push(part);
    // The graph's own stream, asked for `custom` parts only, carries none.
    return Promise.resolve((async function* () {})());
  },
});
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const recorded = new Map([
  [2, await recordParts(2)],
  [12, await recordParts(12)],
]);
const fastest = new Map<number, number>();
for (let round = 0; round < 20; round++)
  for (const [steps, parts] of recorded) {
    const start = cpuMs();
    for (let i = 0; i < 200; i++) {
      const end = await withHeadway({ task: 'Do the task', sinks: [new NullReporter()], maxIterations: 2 * steps + 5 }).run(
        replaying(parts),
        input,
      );
      if (end.outcome !== 'completed') throw new Error(`replay: ${end.outcome}`);
    }
    fastest.set(steps, Math.min(fastest.get(steps) ?? Infinity, (cpuMs() - start) / 200));
  }
console.log(
  `bridge's own work (replayed parts, NullReporter, CPU time): ${(((fastest.get(12)! - fastest.get(2)!) / 10) * 1000).toFixed(1)} µs per step`,
);
