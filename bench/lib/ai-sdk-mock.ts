// The AI SDK side shared by the benches that put a loop next to plain generateText: a mock
// model that calls the no-op tool until its last step and then answers, with fixed usage.
import { tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

/** The usage every mock step reports: 10 tokens in, 5 out. */
const mockUsage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** One AI SDK tool, `noop`, that answers `ok`. */
export const noopAiTools = {
  noop: tool({ description: 'does nothing', inputSchema: z.object({}), execute: () => Promise.resolve('ok') }),
};

/** A mock model that calls `noop` until the last of `steps` steps, then answers `done`. */
export function toolCallingModel(steps: number): MockLanguageModelV3 {
  let call = 0;
  return new MockLanguageModelV3({
    doGenerate: () => {
      call += 1;
      if (call < steps) {
        return Promise.resolve({
          content: [{ type: 'tool-call' as const, toolCallId: `call_${call}`, toolName: 'noop', input: '{}' }],
          finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
          usage: mockUsage,
          warnings: [],
        });
      }
      return Promise.resolve({
        content: [{ type: 'text' as const, text: 'done' }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
        usage: mockUsage,
        warnings: [],
      });
    },
  });
}
