import { HeadwayError, ManualClock } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentRuntime, ProviderRegistry, collectStream, defineTool, type ProviderError } from '@headway/runtime';
import { createRecordingClock } from '@headway/protocol/testing';
import { drainRunStream, jsonReply, sseReply, type ScriptedReply } from '@headway/runtime/testing';
import { useScriptedServer } from '@headway/runtime/testing/conformance';
import { OpenAIProvider } from './openai-provider.js';

const server = useScriptedServer({ basePath: '/v1' });

function completion(message: Record<string, unknown>, finish: string) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish, logprobs: null }],
    usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
  };
}

/** A Chat Completions stream: a `data:` frame per chunk, then `data: [DONE]`. */
function sse(chunks: unknown[]): ScriptedReply {
  return sseReply([...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n']);
}

function chunk(delta: Record<string, unknown>, finish: string | null = null, usage?: unknown) {
  return {
    id: 'chatcmpl-2',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    ...(usage ? { usage } : {}),
  };
}

describe('OpenAIProvider against a local OpenAI-compatible server', () => {
  it('is unavailable without an API key', () => {
    expect(new OpenAIProvider({ env: {} }).isAvailable()).toBe(false);
    expect(new OpenAIProvider({ env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server().baseURL } }).isAvailable()).toBe(true);
    expect(new OpenAIProvider({ apiKey: 'k', enabled: false }).isAvailable()).toBe(false);
  });

  it('a run without OPENAI_API_KEY ends in an error that names the key, in the result and in the report', async () => {
    const runtime = new AgentRuntime({ provider: 'openai' }, { provider: new OpenAIProvider({ env: {} }) });
    const result = await runtime.run('Say hello');
    expect(result.status).toBe('error');
    expect(result.error).toEqual({
      code: 'PROVIDER_UNAVAILABLE',
      message: 'No provider is available (openai: no API key: set OPENAI_API_KEY or pass apiKey)',
    });
    expect(result.report?.attemptedInconclusive[0]).toBe(
      'The run stopped on an error: No provider is available (openai: no API key: set OPENAI_API_KEY or pass apiKey)',
    );
    expect(result.text).toContain('OPENAI_API_KEY');
    expect(new OpenAIProvider({ env: {} }).unavailableReason()).toBe('no API key: set OPENAI_API_KEY or pass apiKey');
    expect(new OpenAIProvider({ apiKey: 'k', enabled: false }).unavailableReason()).toBe('disabled');
    expect(new OpenAIProvider({ apiKey: 'k' }).unavailableReason()).toBeUndefined();
  });

  it('sends messages and tools in the wire format and reads tool calls and usage', async () => {
    server().reply(
      jsonReply(
        200,
        completion(
          {
            content: null,
            tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'file_read', arguments: '{"path":"README.md"}' } }],
          },
          'tool_calls',
        ),
      ),
    );
    const provider = new OpenAIProvider({ apiKey: 'sk-test', baseURL: server().baseURL, model: 'test-model' });
    const response = await provider.complete({
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'search', args: { q: 'x' } }] },
        { role: 'tool', toolCallId: 'call_1', name: 'search', content: 'found' },
      ],
      tools: [{ name: 'file_read', description: 'read', parameters: { type: 'object', properties: { path: { type: 'string' } } } }],
      temperature: 0.2,
    });
    expect(response).toEqual({
      content: '',
      toolCalls: [{ id: 'call_9', name: 'file_read', args: { path: 'README.md' } }],
      usage: { inputTokens: 42, outputTokens: 7 },
      finishReason: 'tool_calls',
    });
    expect(server().received[0]?.headers.authorization).toBe('Bearer sk-test');
    expect(server().received[0]?.body).toEqual({
      model: 'test-model',
      temperature: 0.2,
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"q":"x"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'found' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'file_read', description: 'read', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
        },
      ],
    });
  });

  it('streams text deltas and assembles tool calls from argument deltas', async () => {
    server().reply(
      sse([
        chunk({ role: 'assistant', content: '' }),
        chunk({ reasoning_content: 'Need the file.' }),
        chunk({ content: 'Let me ' }),
        chunk({ content: 'look.' }),
        chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'file_read', arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"pa' } }] }),
        chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'search', arguments: '{"query":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'th":"README.md"}' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: '"auth"}' } }] }),
        chunk({}, 'tool_calls'),
        {
          id: 'chatcmpl-2',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'test-model',
          choices: [],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        },
      ]),
    );
    const provider = new OpenAIProvider({ apiKey: 'k', baseURL: server().baseURL });
    const deltas: string[] = [];
    const response = await collectStream(provider.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] }), (c) => {
      if (c.type === 'text-delta') deltas.push(c.text);
    });
    expect(deltas).toEqual(['Let me ', 'look.']);
    expect(response).toEqual({
      content: 'Let me look.',
      reasoning: 'Need the file.',
      toolCalls: [
        { id: 'call_a', name: 'file_read', args: { path: 'README.md' } },
        { id: 'call_b', name: 'search', args: { query: 'auth' } },
      ],
      usage: { inputTokens: 10, outputTokens: 5 },
      finishReason: 'tool_calls',
    });
    expect(server().received[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('a 429 carries retry-after; the registry waits that long and retries', async () => {
    server().reply(jsonReply(429, { error: { message: 'Rate limit reached', type: 'rate_limit_error' } }, { 'retry-after': '2' }));
    server().reply(jsonReply(200, completion({ content: 'hello' }, 'stop')));
    const clock = createRecordingClock();
    const registry = new ProviderRegistry([new OpenAIProvider({ apiKey: 'k', baseURL: server().baseURL })], { clock, random: () => 0 });
    const response = await registry.complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] });
    expect(response.content).toBe('hello');
    expect(clock.waits).toEqual([2_000]);
    expect(server().received).toHaveLength(2);
  });

  it('a retry-after HTTP date is measured against the provider clock', async () => {
    const at = 'Wed, 21 Oct 2026 07:28:00 GMT';
    server().reply(jsonReply(429, { error: { message: 'Rate limit reached', type: 'rate_limit_error' } }, { 'retry-after': at }));
    const provider = new OpenAIProvider({
      apiKey: 'k',
      baseURL: server().baseURL,
      clock: new ManualClock({ start: Date.parse(at) - 3_000 }),
    });
    const error = await provider.complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PROVIDER_REQUEST_FAILED', status: 429, retryAfterMs: 3_000 });
  });

  it('a 500 is retried with backoff; persistent 500s end in a ProviderError with the status', async () => {
    for (let i = 0; i < 3; i++) server().reply(jsonReply(500, { error: { message: 'upstream exploded', type: 'server_error' } }));
    const clock = createRecordingClock();
    const registry = new ProviderRegistry([new OpenAIProvider({ apiKey: 'k', baseURL: server().baseURL })], {
      clock,
      random: () => 0.5,
      retry: { maxRetries: 2, baseDelayMs: 100 },
    });
    const error = await registry.complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] }).catch((e: unknown) => e);
    expect(HeadwayError.isInstance(error, 'PROVIDER_REQUEST_FAILED')).toBe(true);
    expect((error as ProviderError).status).toBe(500);
    expect((error as ProviderError).attempts).toBe(3);
    expect((error as Error).message).toContain('HTTP 500');
    expect(clock.waits).toEqual([75, 150]);
  });

  it('a 400 is not retried', async () => {
    server().reply(jsonReply(400, { error: { message: 'bad tools', type: 'invalid_request_error' } }));
    const registry = new ProviderRegistry([new OpenAIProvider({ apiKey: 'k', baseURL: server().baseURL })], {
      clock: createRecordingClock(),
    });
    const error = await registry.complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] }).catch((e: unknown) => e);
    expect((error as ProviderError).status).toBe(400);
    expect(server().received).toHaveLength(1);
  });

  it('drives a whole agent run, streamed, through the runtime', async () => {
    server().reply(
      sse([
        chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'file_read', arguments: '{"path":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"README.md"}' } }] }),
        chunk({}, 'tool_calls', { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 }),
      ]),
    );
    server().reply(
      sse([
        chunk({ content: 'It is about ' }),
        chunk({ content: 'progress.' }),
        chunk({}, 'stop', { prompt_tokens: 150, completion_tokens: 5, total_tokens: 155 }),
      ]),
    );
    const fileRead = defineTool({
      name: 'file_read',
      description: 'read',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => `# ${path}\nheadway`,
    });
    const runtime = new AgentRuntime(
      { provider: 'openai', model: 'test-model' },
      { provider: new OpenAIProvider({ apiKey: 'k', baseURL: server().baseURL }), tools: [fileRead] },
    );
    const { events, result } = await drainRunStream(runtime.runStream('What is the README about?'));
    expect(result).toMatchObject({
      status: 'completed',
      text: 'It is about progress.',
      usage: { inputTokens: 250, outputTokens: 15 },
      iterations: 2,
    });
    expect(events.filter((e) => e.type === 'text.delta')).toHaveLength(2);
    const second = server().received[1]?.body as { messages: { role: string; content: string | null }[] };
    expect(second.messages.find((m) => m.role === 'tool')?.content).toBe('# README.md\nheadway');
  });

  it('an aborted request is not retried and rejects with the abort', async () => {
    const controller = new AbortController();
    server().reply(() => {
      // Never answers: the caller gives up once the request has arrived.
      controller.abort(new Error('stop'));
    });
    const registry = new ProviderRegistry([new OpenAIProvider({ apiKey: 'k', baseURL: server().baseURL })], {
      clock: createRecordingClock(),
    });
    const pending = registry.complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] }, { signal: controller.signal });
    await expect(pending).rejects.toThrow('stop');
    expect(server().received).toHaveLength(1);
    expect(registry.breaker('openai')?.failures).toBe(0);
  });
});
