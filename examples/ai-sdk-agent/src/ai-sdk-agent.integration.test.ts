// An AI SDK run tracked by @headway/ai-sdk gives @headway/otel the model-call facts it needs.
import { withHeadway } from '@headway/ai-sdk';
import { createOtelSink } from '@headway/otel';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { generateText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const usage = {
  inputTokens: { total: 120, noCache: 120, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 30, text: 30, reasoning: 0 },
};

describe('ai-sdk run traced with @headway/otel', () => {
  it('has an invoke_agent span with a chat span per step, carrying provider, model, tokens, finish reason and cost', async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('test');
    const run = withHeadway({
      task: 'Read a.txt',
      agentName: 'reader',
      sinks: [createOtelSink({ tracer })],
      maxIterations: 5,
      sessionId: 'chat-1',
      costOf: () => 0.25,
    });
    const model = new MockLanguageModelV3({
      provider: 'openai.chat',
      modelId: 'gpt-4.1-mini',
      doGenerate: [
        {
          content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: '{"path":"a.txt"}' }],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        },
        { content: [{ type: 'text', text: 'a.txt says hi' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
      ],
    });
    const tools = {
      read: tool({
        description: 'reads a file',
        inputSchema: z.object({ path: z.string() }),
        execute: ({ path }) => Promise.resolve(`contents of ${path}`),
      }),
    };
    await generateText({ model, tools, prompt: 'Read a.txt', ...run.settings });
    await run.finish();

    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name).sort()).toEqual(['chat gpt-4.1-mini', 'chat gpt-4.1-mini', 'execute_tool read', 'invoke_agent reader']);
    const chat = spans.find((s) => s.name === 'chat gpt-4.1-mini');
    expect(chat?.attributes).toMatchObject({
      'gen_ai.provider.name': 'openai.chat',
      'gen_ai.request.model': 'gpt-4.1-mini',
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 30,
      'headway.cost.usd': 0.25,
    });
    const agent = spans.find((s) => s.name === 'invoke_agent reader');
    expect(agent?.attributes).toMatchObject({
      'gen_ai.conversation.id': 'chat-1',
      'headway.run.outcome': 'completed',
      'gen_ai.usage.input_tokens': 240,
    });
  });
});
