// Per-step overhead of @headway/langgraph: a ReAct-style graph (scripted model node, prebuilt
// ToolNode with a no-op tool) run through withHeadway (NullReporter; CLI and JSON reporters) vs
// plain graph.invoke, side by side in one process. Run: pnpm -F @headway/bench bench:langgraph
// The baseline is `graph.invoke`, the loop a user runs without headway: it streams the graph's
// `values` and keeps the last one, which is what the bridge streams too.
// The `stream modes` row is the plain graph run the way the bridge runs it (`values`, node runs
// and updates forwarded through `configurable.__pregel_stream` to a push that does nothing, a
// RunControl) with no bridge at all: LangGraph's own price for the events the bridge reads, so
// the rows above and below it tell the framework's share of the overhead from the bridge's.
// (Asking for them as stream modes instead, `['tasks', 'values']`, cost 1.14-1.21x alone: every
// streamed part crosses several async streams.)
// Allocation per step, which machine load does not disturb (bytes summed from `node --expose-gc
// --trace-gc-nvp` between two forced GCs around 200 runs of each arm alone, (12-step − 2-step) / 10):
// plain 410 KB, stream modes 422 KB (+2.8%: LangGraph builds the task parts, one async generator
// per superstep, and pushes every part through one more stream that also queues it, unread, until
// the run ends), the bridge with a NullReporter 429 KB (+4.6%). Function calls per step (V8's
// precise coverage counts, NODE_V8_COVERAGE, same runs): plain 13,162, stream modes 13,753 (+4.5%,
// nearly all of it async-hook bookkeeping for the extra stream's promises), the bridge 13,804: the
// bridge makes LangGraph and LangChain do exactly the work the stream-modes row does (no extra
// LangSmith RunTree, config merge or callback), plus its own ~100 small calls.
// The workspace resolves one copy of @langchain/langgraph and @langchain/core (one
// @opentelemetry/api, pinned by a pnpm override): with two, the bridge's RunControl came from a
// copy the graph did not run on.
// The verdict is the median of 3 blocks' fastest-batch ratios, with garbage collected before every
// batch (see ../lib/step-overhead.ts): at a load average of 30 on 2 cores one block's ratio still
// ranged 0.8-1.2 for every arm, the stream-modes row included.
import { withHeadway, type StreamableGraph } from '@headway/langgraph';
import { NullReporter } from '@headway/protocol';
import { CLIReporter } from '@headway/reporter-cli';
import { JSONReporter } from '@headway/reporter-json';
import { AIMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { END, MessagesAnnotation, RunControl, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { discardStream as devNull } from '../lib/discard-stream.js';
import { stepOverhead } from '../lib/step-overhead.js';

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
await stepOverhead(
  '@headway/langgraph overhead (scripted model node, prebuilt ToolNode, no-op tool)',
  [
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
        const stream = await graphFor(steps).stream(input, {
          recursionLimit: 2 * steps + 5,
          streamMode: 'values',
          subgraphs: false,
          control: new RunControl(),
          configurable: { __pregel_stream: { modes: new Set(['tasks', 'values']), push: () => (forwarded += 1) } },
        });
        let last: { messages: unknown[] } | undefined;
        for await (const chunk of stream) last = chunk;
        if (last?.messages.length !== 2 * steps + 2) throw new Error('stream modes: not the final state');
        // Per node run: its start and its result; per superstep and for the input: the values and the checkpoint's envelope.
        if (forwarded !== 4 * (2 * steps + 1) + 2) throw new Error(`stream modes: ${String(forwarded)} parts forwarded`);
      },
    },
    ...(
      [
        ['null', 1.1, () => [new NullReporter()]],
        ['cli+json', 1.3, () => [new CLIReporter({ stream: devNull(), mode: 'plain' }), new JSONReporter({ stream: devNull() })]],
      ] as const
    ).map(([name, bound, sinks]) => ({
      name,
      bound,
      run: (steps: number) => async () => {
        const end = await withHeadway({ task: 'Do the task', sinks: [...sinks()], maxIterations: 2 * steps + 5 }).run(
          graphFor(steps),
          input,
        );
        if (end.outcome !== 'completed') throw new Error(`${name}: ${end.outcome}`);
      },
    })),
  ],
  { blocks: 3, rounds: 25, collectBetweenBatches: true },
);

// The bridge's own work per step, apart from LangGraph: the parts a 2-step and a 12-step run
// forward are recorded once, then replayed into withHeadway (NullReporter) by a stand-in graph,
// timed in process CPU time. Few allocations and no LangGraph in the loop, so a busy machine
// disturbs it less than the table above; compare it with the plain loop's µs per step there.
async function recordParts(steps: number): Promise<unknown[]> {
  const parts: unknown[] = [];
  const stream = await graphFor(steps).stream(input, {
    recursionLimit: 2 * steps + 5,
    streamMode: 'values',
    control: new RunControl(),
    configurable: { __pregel_stream: { modes: new Set(['tasks', 'values']), push: (part: unknown) => parts.push(part) } },
  });
  let last: { messages: unknown[] } | undefined;
  for await (const chunk of stream) last = chunk;
  if (last?.messages.length !== 2 * steps + 2) throw new Error('record: not the final state');
  return parts;
}
const replaying = (parts: unknown[]): StreamableGraph => ({
  stream: (_input, options) => {
    const forward = (options.configurable as { __pregel_stream: { push: (part: unknown) => void } }).__pregel_stream;
    return Promise.resolve(
      (async function* () {
        for (const part of parts) forward.push(part);
        yield await Promise.resolve(parts.at(-1));
      })(),
    );
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
