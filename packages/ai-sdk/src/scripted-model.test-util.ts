// A script for the AI SDK's own MockLanguageModelV3: step N answers with the N-th entry.
import { ManualClock } from '@headway/protocol';
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { tool, type Tool } from 'ai';
import { MockLanguageModelV3, convertArrayToReadableStream } from 'ai/test';
import { z } from 'zod';

/** One model answer: tool calls (the loop goes on) or text (it ends). */
export type ScriptStep = { calls: { tool: string; input: unknown }[]; text?: string; usage?: Usage } | { text: string; usage?: Usage };

/** Input and output tokens the model reports (`undefined`: not reported). */
type Usage = readonly [number | undefined, number | undefined];

/** What the script is asked: the step's call options (its prompt is what the model saw). */
export type Script = (call: number, options: LanguageModelV3CallOptions) => ScriptStep | Promise<ScriptStep>;

function result(step: ScriptStep, call: number): LanguageModelV3GenerateResult {
  const [input, output] = step.usage ?? [10, 5];
  const usage = {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
  const content: LanguageModelV3GenerateResult['content'] = [];
  if (step.text !== undefined) content.push({ type: 'text', text: step.text });
  const calls = 'calls' in step ? step.calls : [];
  calls.forEach((c, i) =>
    content.push({ type: 'tool-call', toolCallId: `call_${String(call)}_${String(i)}`, toolName: c.tool, input: JSON.stringify(c.input) }),
  );
  return { content, finishReason: { unified: calls.length > 0 ? 'tool-calls' : 'stop', raw: undefined }, usage, warnings: [] };
}

/** A MockLanguageModelV3 (generate and stream) driven by `script`. */
export function scriptedModel(script: Script): MockLanguageModelV3 {
  let call = 0;
  return new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId: 'mock-model',
    doGenerate: async (options) => result(await script(call++, options), call),
    doStream: async (options) => {
      const r = result(await script(call++, options), call);
      const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      for (const c of r.content) {
        if (c.type === 'text')
          parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: c.text }, { type: 'text-end', id: 't' });
        else if (c.type === 'tool-call') parts.push(c);
      }
      parts.push({ type: 'finish', finishReason: r.finishReason, usage: r.usage });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
}

/** The text of every user message the model received in one call. */
export function userTexts(options: LanguageModelV3CallOptions): string[] {
  return options.prompt.filter((m) => m.role === 'user').flatMap((m) => m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])));
}

/** Two small tools: `read` answers, `fail` throws. */
export const tools: { read: Tool<{ path: string }, string>; fail: Tool<Record<string, never>, string> } = {
  read: tool({
    description: 'reads a file',
    inputSchema: z.object({ path: z.string() }),
    execute: ({ path }) => Promise.resolve(`contents of ${path}`),
  }),
  fail: tool({
    description: 'always fails',
    inputSchema: z.object({}),
    execute: (): Promise<string> => Promise.reject(new Error('disk on fire')),
  }),
};

/** A clock the test moves by hand (`advanceSync`), from 1000 ms: protocol's `ManualClock`. */
export function manualClock(start = 1_000): ManualClock {
  return new ManualClock({ start });
}
