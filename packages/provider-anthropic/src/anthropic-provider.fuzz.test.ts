import { HeadwayError } from '@headway/protocol';
import { MACHINE_LOAD_FACTOR } from '@headway/protocol/testing';
import { collectStream } from '@headway/runtime';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnthropicProvider } from './anthropic-provider.js';
import {
  useAnthropicTestServer,
  hi,
  messageDelta,
  messageStart,
  messageStop,
  sse,
  sseEvent,
  textBlock,
  thinkingBlock,
  toolUseBlock,
} from './anthropic-server.test-util.js';

/** A time limit of this file, stretched on a busy machine as the hostile fuzzing limits are. */
const scaled = (ms: number): number => Math.round(ms * MACHINE_LOAD_FACTOR);

// The bytes of a real stream, cut anywhere — inside an `event:` line, a `data:` line, a UTF-8
// character — and read through the SDK's own SSE decoder over HTTP: the answer is either the
// whole message or a ProviderError, never a crash, a hang or a partial answer that looks whole.

const server = useAnthropicTestServer();

describe('a stream cut at any byte', () => {
  it('is the whole message or a ProviderError (property, over HTTP)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 20 }),
        fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 10 }), { maxKeys: 3 }),
        fc.nat(),
        async (text, args, cutAt) => {
          const json = JSON.stringify(args);
          const events = [
            messageStart(),
            ...thinkingBlock(0, 'sig', 'hmm'),
            ...textBlock(1, text),
            ...toolUseBlock(2, 'toolu_1', 'f', json.slice(0, 3), json.slice(3)),
            messageDelta('tool_use'),
            messageStop,
          ];
          const bytes = Buffer.from(events.map(sseEvent).join(''), 'utf8');
          const cut = bytes.subarray(0, cutAt % (bytes.length + 1));
          server().reset();
          server().reply((res) => {
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            res.end(cut);
          });
          const provider = new AnthropicProvider({ apiKey: 'k', baseURL: server().baseURL, env: {} });
          const outcome = await collectStream(provider.stream(hi)).then(
            (response) => ({ response }),
            (error: unknown) => ({ error }),
          );
          if ('response' in outcome) {
            expect(outcome.response).toEqual({
              content: text,
              reasoning: 'hmm',
              toolCalls: [{ id: 'toolu_1', name: 'f', args }],
              usage: { inputTokens: 25, outputTokens: 15 },
              finishReason: 'tool_calls',
            });
          } else {
            expect(HeadwayError.isInstance(outcome.error)).toBe(true);
            expect((outcome.error as HeadwayError).code).toMatch(/^PROVIDER_(INVALID_RESPONSE|REQUEST_FAILED)$/);
          }
        },
      ),
      { numRuns: 150, timeout: scaled(5_000) },
    );
  });

  it('an empty 200 stream is a ProviderError, not an empty answer', async () => {
    server().reset();
    server().reply(sse([]));
    const error = await collectStream(new AnthropicProvider({ apiKey: 'k', baseURL: server().baseURL, env: {} }).stream(hi)).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe('Provider "anthropic" answered with a broken stream: the stream ended without any event');
  });
});
