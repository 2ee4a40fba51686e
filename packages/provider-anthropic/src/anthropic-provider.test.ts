import { propagation, trace, type Span, type TextMapPropagator, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { HeadwayError, ManualClock, type ProgressEvent } from '@headway/protocol';
import { deferred } from '@headway/test-utils';
import { AgentRuntime, ProviderRegistry, collectStream, defineTool, type ProviderError, type StreamChunk } from '@headway/runtime';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AnthropicProvider } from './anthropic-provider.js';
import {
  useAnthropicTestServer,
  hi,
  apiError,
  json,
  message,
  messageDelta,
  messageStart,
  messageStop,
  ping,
  sse,
  sseEvent,
  textBlock,
  thinkingBlock,
  toolUseBlock,
} from './anthropic-server.test-util.js';
import { createRecordingClock } from '@headway/protocol/testing';
import { drainRunStream } from '@headway/runtime/testing';

const server = useAnthropicTestServer();

function provider(options: ConstructorParameters<typeof AnthropicProvider>[0] = {}): AnthropicProvider {
  return new AnthropicProvider({ apiKey: 'sk-ant-test', baseURL: server().baseURL, env: {}, ...options });
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(HeadwayError.isInstance(error)).toBe(true);
  return error as ProviderError;
}

async function streamed(
  p: AnthropicProvider,
  request = hi,
): Promise<{ chunks: StreamChunk[]; response: Awaited<ReturnType<typeof collectStream>> }> {
  const chunks: StreamChunk[] = [];
  const response = await collectStream(p.stream(request), (c) => chunks.push(c));
  return { chunks, response };
}

const fileRead = defineTool({
  name: 'file_read',
  description: 'Read a UTF-8 text file',
  parameters: z.object({ path: z.string() }),
  execute: ({ path }) => `# ${path}\nheadway makes agent runs legible`,
});

describe('AnthropicProvider: configuration', () => {
  it('is unavailable without an API key, and a call says to set ANTHROPIC_API_KEY', async () => {
    const none = new AnthropicProvider({ env: {} });
    expect(none.isAvailable()).toBe(false);
    const error = await failure(none.complete(hi));
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(error.message).toContain('ANTHROPIC_API_KEY');
    expect(new AnthropicProvider({ env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server().baseURL } }).isAvailable()).toBe(true);
    expect(new AnthropicProvider({ apiKey: 'k', enabled: false }).isAvailable()).toBe(false);
  });

  it('reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from the environment it is given', async () => {
    server().reply(json(200, message([{ type: 'text', text: 'hello', citations: null }], 'end_turn')));
    const p = new AnthropicProvider({ env: { ANTHROPIC_API_KEY: 'sk-ant-env', ANTHROPIC_BASE_URL: server().baseURL } });
    expect((await p.complete(hi)).content).toBe('hello');
    expect(server().received[0]).toMatchObject({
      method: 'POST',
      path: '/v1/messages',
      headers: { authorization: 'Bearer sk-ant-env', 'anthropic-version': '2026-10-21' },
    });
  });
});

describe('AnthropicProvider against a local Messages API server', () => {
  it('sends the conversation in the wire format and reads a whole message', async () => {
    server().reply(
      json(
        200,
        message(
          [
            { type: 'text', text: 'Let me read it.', citations: null },
            { type: 'tool_use', id: 'toolu_02', name: 'file_read', input: { path: 'README.md' }, caller: { type: 'direct' } },
          ],
          'tool_use',
          { input_tokens: 42, output_tokens: 7 },
        ),
      ),
    );
    const response = await provider({ model: 'claude-haiku-4-5', maxTokens: 1024 }).complete({
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'call:1', name: 'search', args: { q: 'x' } },
            { id: 'toolu_b', name: 'search', args: '{"q":"y"}' },
          ],
        },
        { role: 'tool', toolCallId: 'call:1', name: 'search', content: 'found' },
        { role: 'tool', toolCallId: 'toolu_b', name: 'search', content: '' },
        { role: 'user', content: 'go on' },
      ],
      tools: [
        {
          name: 'file_read',
          description: 'read',
          parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
        },
      ],
      temperature: 0.2,
    });
    expect(response).toEqual({
      content: 'Let me read it.',
      toolCalls: [{ id: 'toolu_02', name: 'file_read', args: { path: 'README.md' } }],
      usage: { inputTokens: 42, outputTokens: 7 },
      finishReason: 'tool_calls',
    });
    expect(server().received[0]?.headers).toMatchObject({ authorization: 'Bearer sk-ant-test', 'content-type': 'application/json' });
    expect(server().body(0)).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: 1024,
      system: 'sys',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'call_1', name: 'search', input: { q: 'x' } },
            { type: 'tool_use', id: 'toolu_b', name: 'search', input: { q: 'y' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: 'found' },
            { type: 'tool_result', tool_use_id: 'toolu_b' },
            { type: 'text', text: 'go on' },
          ],
        },
      ],
      tools: [
        {
          name: 'file_read',
          description: 'read',
          input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
        },
      ],
      cache_control: { type: 'ephemeral' },
    });
  });

  it('streams a text answer: deltas in order, pings skipped, usage from message_start and message_delta', async () => {
    server().reply(
      sse([
        messageStart({ input_tokens: 25 }),
        ping,
        ...textBlock(0, 'Hello', ', wor', 'ld!'),
        ping,
        messageDelta('end_turn', { output_tokens: 15 }),
        messageStop,
      ]),
    );
    const { chunks, response } = await streamed(provider());
    expect(chunks).toEqual([
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: ', wor' },
      { type: 'text-delta', text: 'ld!' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 25, outputTokens: 15 } },
    ]);
    expect(response.content).toBe('Hello, world!');
    expect(server().body(0)).toMatchObject({ stream: true, model: 'claude-sonnet-4-6', max_tokens: 8192 });
  });

  it('assembles a streamed tool call whose JSON arrives in several partial deltas', async () => {
    server().reply(
      sse([
        messageStart(),
        ...toolUseBlock(0, 'toolu_01', 'file_read', '', '{"pa', 'th": "REA', 'DME.md"', '}'),
        messageDelta('tool_use'),
        messageStop,
      ]),
    );
    const { chunks } = await streamed(provider());
    expect(chunks).toEqual([
      { type: 'tool-call', toolCall: { id: 'toolu_01', name: 'file_read', args: { path: 'README.md' } } },
      { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 25, outputTokens: 15 } },
    ]);
  });

  it('reads two tool calls of one turn, after text, in block order', async () => {
    server().reply(
      sse([
        messageStart(),
        ...textBlock(0, 'Reading both.'),
        ...toolUseBlock(1, 'toolu_a', 'file_read', '{"path":', '"a.md"}'),
        ...toolUseBlock(2, 'toolu_b', 'file_read', '{"path":"b.md"}'),
        messageDelta('tool_use', { output_tokens: 60 }),
        messageStop,
      ]),
    );
    const { response } = await streamed(provider());
    expect(response).toEqual({
      content: 'Reading both.',
      toolCalls: [
        { id: 'toolu_a', name: 'file_read', args: { path: 'a.md' } },
        { id: 'toolu_b', name: 'file_read', args: { path: 'b.md' } },
      ],
      usage: { inputTokens: 25, outputTokens: 60 },
      finishReason: 'tool_calls',
    });
  });

  it('passes thinking through as reasoning and sends its blocks back, signed, with the tool calls they came with', async () => {
    server().reply(
      sse([
        messageStart(),
        ...thinkingBlock(0, 'sig-1', 'The user wants ', 'the README.'),
        { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'opaque' } },
        { type: 'content_block_stop', index: 1 },
        ...toolUseBlock(2, 'toolu_t', 'file_read', '{"path":"README.md"}'),
        messageDelta('tool_use'),
        messageStop,
      ]),
      sse([
        messageStart(),
        ...thinkingBlock(0, 'sig-2', 'Done.'),
        ...textBlock(1, 'It is about progress.'),
        messageDelta('end_turn'),
        messageStop,
      ]),
    );
    const events: ProgressEvent[] = [];
    const runtime = new AgentRuntime(
      { provider: 'anthropic', model: 'claude-sonnet-4-6' },
      {
        provider: provider({ thinking: { type: 'enabled', budget_tokens: 2048 } }),
        tools: [fileRead],
        sinks: [
          {
            handle: (e) => {
              events.push(e);
            },
          },
        ],
      },
    );
    const { result } = await drainRunStream(runtime.runStream('What is the README about?'));
    expect(result).toMatchObject({ status: 'completed', text: 'It is about progress.' });
    expect(events.filter((e) => e.type === 'thinking').map((e) => (e as { content: string }).content)).toEqual([
      'The user wants the README.',
      'Done.',
    ]);
    expect(server().body(0)).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 } });
    const second = server().body(1) as { thinking: unknown; messages: { role: string; content: unknown[] }[] };
    expect(second.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(second.messages.at(-2)).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'The user wants the README.', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'tool_use', id: 'toolu_t', name: 'file_read', input: { path: 'README.md' } },
      ],
    });
  });

  it('declares the tools a conversation used, callable by none, when a request without tools carries tool_use blocks', async () => {
    server().reply(json(200, message([{ type: 'text', text: '## Report', citations: null }], 'end_turn')));
    await provider().complete({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_1', name: 'file_read', args: { path: 'a' } }] },
        { role: 'tool', toolCallId: 'toolu_1', name: 'file_read', content: 'text' },
        { role: 'user', content: 'Write your progress report.' },
      ],
      tools: [],
    });
    expect(server().body(0)).toMatchObject({
      tools: [{ name: 'file_read', description: 'Not available in this request.', input_schema: { type: 'object' } }],
      tool_choice: { type: 'none' },
    });
  });

  it('on its last iteration the runtime calls without tools; the request, which carries tool_use blocks, is still valid', async () => {
    server().reply(
      json(
        200,
        message(
          [{ type: 'tool_use', id: 'toolu_1', name: 'file_read', input: { path: 'README.md' }, caller: { type: 'direct' } }],
          'tool_use',
        ),
      ),
      json(200, message([{ type: 'text', text: 'Report: the README was read.', citations: null }], 'end_turn')),
    );
    const runtime = new AgentRuntime(
      { provider: 'anthropic', model: 'claude-sonnet-4-6', maxIterations: 2 },
      { provider: provider(), tools: [fileRead] },
    );
    const result = await runtime.run('What is the README about?');
    expect(result.status).not.toBe('error');
    expect(server().received).toHaveLength(2);
    expect(server().body(0).tools).toHaveLength(1);
    const last = server().body(1);
    expect(last.tool_choice).toEqual({ type: 'none' });
    expect(last.tools).toEqual([{ name: 'file_read', description: 'Not available in this request.', input_schema: { type: 'object' } }]);
  });

  it('sends a tool loop without thinking when the thinking of its last call is not known (another provider, a resumed run)', async () => {
    server().reply(json(200, message([{ type: 'text', text: 'ok', citations: null }], 'end_turn')));
    await provider({ thinking: { type: 'adaptive' } }).complete({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_9', name: 'file_read', args: { path: 'a' } }] },
        { role: 'tool', toolCallId: 'call_9', name: 'file_read', content: 'text' },
      ],
      tools: [],
    });
    expect(server().body(0)).not.toHaveProperty('thinking');
  });

  it('runs a whole tool loop through the runtime, sending tool results back as tool_result blocks, and prices cache reads and writes', async () => {
    server().reply(
      sse([
        messageStart({ input_tokens: 100, cache_creation_input_tokens: 2000, cache_read_input_tokens: 0 }),
        ...textBlock(0, 'Let me look.'),
        ...toolUseBlock(1, 'toolu_1', 'file_read', '{"path":', '"README.md"}'),
        messageDelta('tool_use', { output_tokens: 40 }),
        messageStop,
      ]),
      sse([
        messageStart({ input_tokens: 50, cache_creation_input_tokens: 150, cache_read_input_tokens: 2000 }),
        ...textBlock(0, 'It is about ', 'progress.'),
        messageDelta('end_turn', { output_tokens: 10 }),
        messageStop,
      ]),
    );
    const runtime = new AgentRuntime({ provider: 'anthropic', model: 'claude-sonnet-4-6' }, { provider: provider(), tools: [fileRead] });
    const { events, result } = await drainRunStream(runtime.runStream('What is the README about?'));
    expect(result).toMatchObject({
      status: 'completed',
      text: 'It is about progress.',
      iterations: 2,
      usage: { inputTokens: 2100 + 2200, outputTokens: 50, cacheReadTokens: 2000, cacheWriteTokens: 2150 },
    });
    expect(events.filter((e) => e.type === 'text.delta').length).toBeGreaterThanOrEqual(3);
    const second = server().body(1) as { messages: { role: string; content: unknown[] }[] };
    const [assistant, user] = second.messages.slice(-2);
    expect(assistant).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'toolu_1', name: 'file_read', input: { path: 'README.md' } },
      ],
    });
    // The tool result comes first in the user turn; the runtime's own follow-up text, if any, after it.
    expect(user?.role).toBe('user');
    expect(user?.content[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: '# README.md\nheadway makes agent runs legible',
    });
    expect(user?.content.slice(1).every((b) => (b as { type: string }).type === 'text')).toBe(true);
    // claude-sonnet-4-6: $3 input, $3.75 cache write, $0.30 cache read, $15 output per million tokens.
    const expected = ((100 + 50) * 3 + 2150 * 3.75 + 2000 * 0.3 + 50 * 15) / 1_000_000;
    expect(runtime.cost(result.sessionId).spentUsd).toBeCloseTo(expected, 12);
  });

  it('surfaces max_tokens as finish reason length', async () => {
    server().reply(sse([messageStart(), ...textBlock(0, 'The answer is'), messageDelta('max_tokens', { output_tokens: 16 }), messageStop]));
    const { response } = await streamed(provider({ maxTokens: 16 }));
    expect(response).toMatchObject({ content: 'The answer is', finishReason: 'length', usage: { outputTokens: 16 } });
    expect(server().body(0)).toMatchObject({ max_tokens: 16 });
  });

  it('says so when max_tokens cut a tool call short', async () => {
    server().reply(
      sse([
        messageStart(),
        ...toolUseBlock(0, 'toolu_c', 'file_read', '{"path": "READ'),
        messageDelta('max_tokens', { output_tokens: 16 }),
        messageStop,
      ]),
    );
    const error = await failure(streamed(provider()));
    expect(error).toMatchObject({ code: 'PROVIDER_INVALID_RESPONSE', retryable: false });
    expect(error.message).toContain('tool call "file_read" (toolu_c) arguments are not valid JSON');
    expect(error.message).toContain('cut off at max_tokens (16 output tokens)');
  });

  it('a 429 carries retry-after and is retryable; the registry waits that long and tries again', async () => {
    server().reply(
      apiError(429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', { 'retry-after': '7' }),
    );
    const direct = await failure(provider().complete(hi));
    expect(direct).toMatchObject({ code: 'PROVIDER_REQUEST_FAILED', status: 429, retryable: true, retryAfterMs: 7000 });
    expect(direct.message).toMatch(
      /HTTP 429: rate_limit_error: Number of request tokens has exceeded your per-minute rate limit \(request-id req_test\d+\)/,
    );

    server().reply(
      apiError(429, 'rate_limit_error', 'slow down', { 'retry-after': '2' }),
      sse([messageStart(), ...textBlock(0, 'hello'), messageDelta('end_turn'), messageStop]),
    );
    const clock = createRecordingClock();
    const registry = new ProviderRegistry([provider()], { clock, random: () => 0 });
    const response = await collectStream(registry.stream(hi));
    expect(response.content).toBe('hello');
    expect(clock.waits).toEqual([2000]);
    expect(server().received).toHaveLength(3);
  });

  it('a 529 overloaded answer is retryable', async () => {
    server().reply(apiError(529, 'overloaded_error', 'Overloaded'));
    const error = await failure(streamed(provider()));
    expect(error).toMatchObject({ code: 'PROVIDER_REQUEST_FAILED', status: 529, retryable: true });
    expect(error.message).toContain('HTTP 529: overloaded_error: Overloaded');
  });

  it('a 400 invalid_request_error is not retryable and is tried once, with the API type and message', async () => {
    server().reply(apiError(400, 'invalid_request_error', 'max_tokens: Field required'));
    const registry = new ProviderRegistry([provider()], { clock: createRecordingClock() });
    const error = await failure(registry.complete(hi));
    expect(error).toMatchObject({ status: 400, retryable: false });
    expect(error.message).toContain('invalid_request_error: max_tokens: Field required');
    expect(server().received).toHaveLength(1);
  });

  it("honours the server's x-should-retry", async () => {
    server().reply(apiError(500, 'api_error', 'bad gateway config', { 'x-should-retry': 'false' }));
    expect(await failure(provider().complete(hi))).toMatchObject({ status: 500, retryable: false });
  });

  it('an aborted stream rejects with the abort reason, not a provider failure', async () => {
    const controller = new AbortController();
    server().reply((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseEvent(messageStart()));
      res.write(textBlock(0, 'partial').slice(0, 2).map(sseEvent).join(''));
      // Never ends: the caller gives up.
    });
    const reason = new Error('user cancelled');
    const pending = collectStream(provider().stream(hi, { signal: controller.signal }), (c) => {
      if (c.type === 'text-delta') controller.abort(reason);
    });
    await expect(pending).rejects.toBe(reason);
  });
});

describe('AnthropicProvider: answers that break the wire format', () => {
  it('a truncated stream is a retryable ProviderError that says where it stopped', async () => {
    server().reply(sse([messageStart(), ...textBlock(0, 'Hello').slice(0, 2)]));
    const error = await failure(streamed(provider()));
    expect(error).toMatchObject({ code: 'PROVIDER_INVALID_RESPONSE', retryable: true });
    expect(error.message).toBe(
      'Provider "anthropic" answered with a broken stream: the stream ended after event #3 content_block_delta without message_stop (open: content[0] text)',
    );
  });

  it('a stream cut in the middle of an event line is a ProviderError, not a crash', async () => {
    server().reply(sse([sseEvent(messageStart()), 'event: content_block_start\ndata: {"type":"content_block_st']));
    const error = await failure(streamed(provider()));
    expect(error.code).toBe('PROVIDER_INVALID_RESPONSE');
    expect(error.message).toContain('after event #1 message_start');
  });

  it('an unknown block type names the type and the block', async () => {
    server().reply(
      sse([messageStart(), { type: 'content_block_start', index: 0, content_block: { type: 'hologram', frames: [] } }, messageStop]),
    );
    const error = await failure(streamed(provider()));
    expect(error.message).toBe(
      'Provider "anthropic" answered with a broken stream: unknown content block type "hologram" (at event #2 content_block_start, content[0])',
    );
  });

  it('an unknown block type in a whole message names the block', async () => {
    server().reply(json(200, message([{ type: 'text', text: 'a', citations: null }, { type: 'hologram' }], 'end_turn')));
    const error = await failure(provider().complete(hi));
    expect(error.message).toBe(
      'Provider "anthropic" answered with an invalid message: unknown content block type "hologram" (at content[1])',
    );
  });

  it('invalid JSON in tool arguments names the call and the block, and yields no tool call', async () => {
    server().reply(
      sse([messageStart(), ...toolUseBlock(0, 'toolu_x', 'file_read', '{"path": README.md}'), messageDelta('tool_use'), messageStop]),
    );
    const chunks: StreamChunk[] = [];
    const error = await failure(collectStream(provider().stream(hi), (c) => chunks.push(c)));
    expect(error).toMatchObject({ code: 'PROVIDER_INVALID_RESPONSE', retryable: true });
    expect(error.message).toMatch(
      /^Provider "anthropic" answered with a broken stream: tool call "file_read" \(toolu_x\) arguments are not valid JSON \(.+\): "\{\\"path\\": README\.md\}" \(at event #6 message_stop, content\[0\]\)$/,
    );
    expect(chunks).toEqual([]);
  });

  it('an error event mid-stream is a ProviderError with its type, retryable when overloaded', async () => {
    server().reply(
      sse([
        messageStart(),
        ...textBlock(0, 'Hel').slice(0, 2),
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      ]),
    );
    const texts: string[] = [];
    const error = await failure(
      collectStream(provider().stream(hi), (c) => {
        if (c.type === 'text-delta') texts.push(c.text);
      }),
    );
    expect(texts).toEqual(['Hel']);
    expect(error).toMatchObject({ code: 'PROVIDER_REQUEST_FAILED', retryable: true });
    expect(error.message).toMatch(
      /^Provider "anthropic" sent an error event after event #3 content_block_delta: overloaded_error: Overloaded/,
    );
  });

  it('a delta for a block that never started, and events out of order, are ProviderErrors', async () => {
    server().reply(
      sse([messageStart(), { type: 'content_block_delta', index: 4, delta: { type: 'text_delta', text: 'x' } }]),
      sse([...textBlock(0, 'x'), messageStop]),
      sse([
        messageStart(),
        ...textBlock(0, 'x').slice(0, 1),
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{' } },
      ]),
    );
    expect((await failure(streamed(provider()))).message).toContain(
      'content_block_delta for a block that never started (at event #2 content_block_delta, content[4])',
    );
    expect((await failure(streamed(provider()))).message).toContain(
      'content_block_start before message_start (at event #1 content_block_start)',
    );
    expect((await failure(streamed(provider()))).message).toContain(
      'a input_json_delta for a text block (at event #3 content_block_delta, content[0])',
    );
  });

  it('a 200 whose body is not a message is a ProviderError', async () => {
    server().reply(json(200, { type: 'message', content: 'not an array', usage: { input_tokens: 1, output_tokens: 1 } }));
    const error = await failure(provider().complete(hi));
    expect(error.code).toBe('PROVIDER_INVALID_RESPONSE');
    expect(error.message).toContain('content: invalid input: expected array, received string');
  });
});

// An application that registered OpenTelemetry: a tracer provider that records the spans
// started, and a propagator that writes `traceparent`. The SDK uses both unless told not to.
const started: string[] = [];
const tracer: Tracer = {
  startSpan: (name: string): Span => {
    started.push(name);
    return trace.wrapSpanContext({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 });
  },
  startActiveSpan: () => {
    throw new Error('not used by the SDK');
  },
};
const tracerProvider: TracerProvider = { getTracer: () => tracer };
const propagator: TextMapPropagator = {
  inject: (context, carrier, setter) => {
    const span = trace.getSpanContext(context);
    if (span !== undefined) setter.set(carrier, 'traceparent', `00-${span.traceId}-${span.spanId}-01`);
  },
  extract: (context) => context,
  fields: () => ['traceparent'],
};

const answer = sse([messageStart(), ...textBlock(0, 'hi'), messageDelta('end_turn'), messageStop]);

describe('AnthropicProvider: the SDK telemetry', () => {
  beforeAll(() => {
    trace.setGlobalTracerProvider(tracerProvider);
    propagation.setGlobalPropagator(propagator);
  });
  afterAll(() => {
    trace.disable();
    propagation.disable();
  });
  beforeEach(() => {
    started.length = 0;
  });

  it('is off by default: no span, no trace headers, even when the application registered OpenTelemetry', async () => {
    server().reply(answer);
    await collectStream(new AnthropicProvider({ apiKey: 'k', baseURL: server().baseURL, env: {} }).stream(hi));
    expect(started).toEqual([]);
    expect(server().received[0]?.headers).not.toHaveProperty('traceparent');
  });

  it('is on when asked for', async () => {
    server().reply(answer);
    await collectStream(new AnthropicProvider({ apiKey: 'k', baseURL: server().baseURL, env: {}, openTelemetry: {} }).stream(hi));
    expect(started).toEqual(['anthropic.messages.create']);
    expect(server().received[0]?.headers.traceparent).toBe('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
  });
});

describe('AnthropicProvider: an answer that stalls after its headers', () => {
  // The call's time limit runs on a ManualClock: it passes only when the test says so.
  it('complete() rejects with PROVIDER_TIMEOUT once timeoutMs passes, however far the body got', async () => {
    const clock = new ManualClock({ start: 0 });
    const bodyStarted = deferred();
    server().reply((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"msg_1","type":"message",');
      bodyStarted.resolve();
    });
    const pending = failure(provider({ timeoutMs: 300, clock }).complete(hi));
    await bodyStarted.promise;
    await clock.advance(300);
    const error = await pending;
    expect(error.code).toBe('PROVIDER_TIMEOUT');
    expect(error.message).toBe('Provider "anthropic" did not finish answering within 300 ms');
    expect(error.retryable).toBe(true);
  }, 60_000);

  it('stream() yields what came, then rejects with PROVIDER_TIMEOUT', async () => {
    const clock = new ManualClock({ start: 0 });
    server().reply((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write([messageStart(), ...textBlock(0, 'Hel')].map(sseEvent).join(''));
    });
    const stream = provider({ timeoutMs: 300, clock }).stream(hi);
    expect((await stream.next()).value).toEqual({ type: 'text-delta', text: 'Hel' });
    const rest = failure(stream.next());
    await clock.advance(300);
    expect((await rest).code).toBe('PROVIDER_TIMEOUT');
  }, 60_000);
});
