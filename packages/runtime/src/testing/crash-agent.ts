// The scripted agent of the crash suite: six rounds of two tool calls whose side effects are
// logged, so a test can count how often each one ran across SIGKILLs.
import { z } from 'zod';
import type { ChatMessage } from '../provider/provider.js';
import type { ScriptedStep } from '../provider/scripted-provider.js';
import { defineTool, type Tool } from '../tools/define-tool.js';

/** The crash agent's task. */
export const CRASH_TASK = 'Process the six batches';
/** Rounds of tool calls before the crash agent answers. */
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

/** One side effect as the crash agent's tool logs it. */
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
