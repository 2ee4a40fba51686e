// A script for the OpenAI Agents SDK's Model interface: call N answers with the N-th entry.
// The SDK ships no fake model in its package; this one speaks its real item types.
import { ManualClock } from '@headway/protocol';
import { Usage, tool, type FunctionTool, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';
import { z } from 'zod';

/** One model answer: tool calls (the loop goes on) or text (it ends). */
type ScriptStep = { calls: { tool: string; input: unknown }[] } | { text: string };

/** What the script is asked: the call's index and the request (its input is what the model saw). */
export type Script = (call: number, request: ModelRequest) => ScriptStep;

/** A Model driven by `script`; `requests` holds every request it received. */
export function scriptedModel(script: Script): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    getResponse(request: ModelRequest): Promise<ModelResponse> {
      const call = requests.length;
      requests.push(request);
      const step = script(call, request);
      const output: ModelResponse['output'] =
        'calls' in step
          ? step.calls.map((c, i) => ({
              type: 'function_call' as const,
              callId: `call_${String(call)}_${String(i)}`,
              name: c.tool,
              arguments: JSON.stringify(c.input),
              status: 'completed' as const,
            }))
          : [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text }] }];
      return Promise.resolve({ usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }), output });
    },
    getStreamedResponse(): AsyncIterable<never> {
      throw new Error('the scripted model does not stream');
    },
  };
}

/** The text of every user message in a request. */
export function userTexts(request: ModelRequest): string[] {
  if (typeof request.input === 'string') return [request.input];
  return request.input.flatMap((item) =>
    item.type === 'message' && item.role === 'user'
      ? typeof item.content === 'string'
        ? [item.content]
        : item.content.flatMap((part) => (part.type === 'input_text' ? [part.text] : []))
      : [],
  );
}

/** `read` answers with the path's contents; `fail` throws (the SDK turns that into an error result). */
const readParameters: z.ZodObject<{ path: z.ZodString }> = z.object({ path: z.string() });
export const readTool: FunctionTool<unknown, typeof readParameters> = tool({
  name: 'read',
  description: 'reads a file',
  parameters: readParameters,
  execute: ({ path }) => `contents of ${path}`,
});

/** A tool that echoes its token argument (to see redaction). */
const loginParameters: z.ZodObject<{ user: z.ZodString; password: z.ZodString }> = z.object({ user: z.string(), password: z.string() });
export const loginTool: FunctionTool<unknown, typeof loginParameters> = tool({
  name: 'login',
  description: 'logs in',
  parameters: loginParameters,
  execute: ({ user }) => `logged in as ${user}`,
});

/** A clock the test moves by hand, from 1000 ms. */
export function manualClock(start = 1_000): ManualClock {
  return new ManualClock({ start });
}
