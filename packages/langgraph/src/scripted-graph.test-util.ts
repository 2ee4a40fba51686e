// A LangGraph ReAct-style graph with the official StateGraph and prebuilt ToolNode. The model
// node answers from a script: LangChain's fake chat models drop tool calls and usage metadata,
// so the script returns real AIMessages with both.
import { ManualClock } from '@headway/protocol';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { Annotation, MessagesAnnotation, StateGraph, START, END, type BaseCheckpointSaver } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import type { StreamableGraph } from './with-headway.js';

/** One model answer: tool calls (the loop goes on) or text (it ends); `todos` updates the plan. */
interface ScriptStep {
  calls?: { tool: string; input: Record<string, unknown> }[];
  text?: string;
  todos?: { text: string; status: string }[];
}

/** The model's script: call N (from 0) and the messages it saw. */
export type Script = (call: number, messages: BaseMessage[]) => ScriptStep;

const read = tool(({ path }: { path: string }) => `contents of ${path}`, {
  name: 'read',
  description: 'reads a file',
  schema: z.object({ path: z.string() }),
});
const login = tool(({ user }: { user: string; password: string }) => `logged in as ${user}`, {
  name: 'login',
  description: 'logs in',
  schema: z.object({ user: z.string(), password: z.string() }),
});

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  todos: Annotation<ScriptStep['todos']>(),
});

/** A compiled agent ⇄ tools graph driven by `script` (saving its checkpoints in `checkpointer` when given); `calls` counts model calls. */
export function scriptedGraph(script: Script, checkpointer?: BaseCheckpointSaver): StreamableGraph & { calls: () => number } {
  let call = 0;
  const graph = new StateGraph(State)
    .addNode('agent', (state) => {
      const step = script(call, state.messages);
      call += 1;
      const message = new AIMessage({
        content: step.text ?? '',
        tool_calls: (step.calls ?? []).map((c, i) => ({
          id: `call_${String(call)}_${String(i)}`,
          name: c.tool,
          args: c.input,
          type: 'tool_call' as const,
        })),
        usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
        response_metadata: { model_name: 'scripted-model' },
        // The field types of AIMessage's constructor reject usage_metadata under exactOptionalPropertyTypes.
      } as never);
      return step.todos === undefined ? { messages: [message] } : { messages: [message], todos: step.todos };
    })
    .addNode('tools', new ToolNode([read, login]))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', toolsCondition, ['tools', END])
    .addEdge('tools', 'agent')
    .compile({ name: 'reader', ...(checkpointer === undefined ? {} : { checkpointer }) });
  const streamable: StreamableGraph = graph;
  return Object.assign(streamable, { calls: () => call });
}

/** A parent graph whose one node is `child` (a compiled subgraph), then a `summarise` node. */
export function parentGraph(child: StreamableGraph): StreamableGraph {
  return new StateGraph(State)
    .addNode('research', child as never)
    .addNode('summarise', () => ({
      messages: [new AIMessage({ content: 'summary', usage_metadata: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } } as never)],
    }))
    .addEdge(START, 'research')
    .addEdge('research', 'summarise')
    .addEdge('summarise', END)
    .compile({ name: 'manager' });
}

/** A clock the test moves by hand, from 1000 ms. */
export function manualClock(start = 1_000): ManualClock {
  return new ManualClock({ start });
}
