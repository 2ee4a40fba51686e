import { HeadwayError, ManualClock } from '@headway/protocol';
import { deferred } from '@headway/test-utils';
import { collectStream, type CompletionRequest } from '@headway/runtime';
import { jsonReply, type ScriptedReply } from '@headway/runtime/testing';
import { useScriptedServer } from '@headway/runtime/testing/conformance';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OpenAIProvider } from './openai-provider.js';
import { MAX_ANSWER_BYTES } from './read-answer.js';

const server = useScriptedServer({ basePath: '/v1' });
const request: CompletionRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };
// Generous: a hang or a super-linear parse blows far past it; a busy machine does not.
const CASE_LIMIT_MS = 60_000;

/** What a call ended in: the error's code and message, or 'ok'. */
async function outcome(call: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await call();
    return { code: 'ok', message: '' };
  } catch (error) {
    if (!HeadwayError.isInstance(error)) throw new Error(`not a typed error: ${String(error)}`, { cause: error });
    return { code: error.code, message: error.message };
  }
}

const provider = (options: { timeoutMs?: number } = {}) =>
  new OpenAIProvider({ apiKey: 'k', baseURL: server().baseURL, model: 'm', ...options });
const streamAll = (p: OpenAIProvider) => collectStream(p.stream(request));

/** Headers, then nothing: the server stalls with the connection open. */
const stall =
  (type: string): ScriptedReply =>
  (res) => {
    res.writeHead(200, { 'content-type': type });
    res.flushHeaders();
  };

const raw =
  (status: number, type: string, body: string | Buffer): ScriptedReply =>
  (res) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  };

describe('OpenAIProvider under hostile answers', () => {
  it(
    'timeoutMs covers an answer that sent its headers and then stalls: complete() and stream() reject with PROVIDER_TIMEOUT',
    async () => {
      // The call's time limit runs on a ManualClock: it passes only when the test says so.
      const clock = new ManualClock({ start: 0 });
      const stalled = () => new OpenAIProvider({ apiKey: 'k', baseURL: server().baseURL, model: 'm', clock, timeoutMs: 300 });
      const headersSent = deferred();
      server().reply((res, req) => {
        stall('application/json')(res, req);
        headersSent.resolve();
      });
      const completing = outcome(() => stalled().complete(request));
      await headersSent.promise;
      await clock.advance(300);
      expect(await completing).toEqual({ code: 'PROVIDER_TIMEOUT', message: 'Provider "openai" did not finish answering within 300 ms' });

      server().reply((res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Hel' }, finish_reason: null }] })}\n\n`);
      });
      const stream = stalled().stream(request);
      // The first chunk arrives; then the server says nothing more until the time is up.
      expect((await stream.next()).value).toEqual({ type: 'text-delta', text: 'Hel' });
      const rest = outcome(() => stream.next());
      await clock.advance(300);
      expect((await rest).code).toBe('PROVIDER_TIMEOUT');
    },
    CASE_LIMIT_MS,
  );

  it.each([
    [
      'an HTML page',
      raw(200, 'text/html', '<html><body>Bad gateway</body></html>'),
      /sent its answer that is not JSON \(text\/html\): <html><body>Bad gateway/,
    ],
    ['null', jsonReply(200, null), /sent its answer of the wrong shape: \(root\)/],
    ['{"choices":[null]}', jsonReply(200, { choices: [null] }), /sent its answer of the wrong shape: choices\[0\]/],
    ['choices of the wrong type', jsonReply(200, { choices: 'x' }), /of the wrong shape: choices/],
    ['a cut-off body', raw(200, 'application/json', '{"choices":[{"message":'), /not JSON/],
  ])('complete() refuses %s with PROVIDER_INVALID_RESPONSE, not a TypeError or SyntaxError', async (_name, reply, message) => {
    server().reply(reply);
    const result = await outcome(() => provider().complete(request));
    expect(result.code).toBe('PROVIDER_INVALID_RESPONSE');
    expect(result.message).toMatch(message);
  });

  it.each([
    [
      'a 200 text/html answer',
      raw(200, 'text/html', '<html>login</html>'),
      /answered a streaming call with text\/html, not an event stream: <html>login<\/html>/,
    ],
    [
      'a data line that is not JSON',
      raw(200, 'text/event-stream', 'data: {"choices":[\n\ndata: [DONE]\n\n'),
      /sent a stream event that is not JSON/,
    ],
    [
      'a chunk of the wrong shape',
      raw(200, 'text/event-stream', 'data: {"choices":[null]}\n\ndata: [DONE]\n\n'),
      /a stream event of the wrong shape: choices\[0\]/,
    ],
    ['a stream that ends without [DONE] or a finish reason', raw(200, 'text/event-stream', ''), /ended the stream before it finished/],
  ])('stream() refuses %s with PROVIDER_INVALID_RESPONSE, never an empty completed answer', async (_name, reply, message) => {
    server().reply(reply);
    const result = await outcome(() => streamAll(provider()));
    expect(result.code).toBe('PROVIDER_INVALID_RESPONSE');
    expect(result.message).toMatch(message);
  });

  it('an error event inside a stream is a PROVIDER_REQUEST_FAILED naming it', async () => {
    server().reply(raw(200, 'text/event-stream', 'data: {"error":{"type":"server_error","message":"overloaded"}}\n\n'));
    expect(await outcome(() => streamAll(provider()))).toEqual({
      code: 'PROVIDER_REQUEST_FAILED',
      message: 'Provider "openai" sent an error in its stream: server_error: overloaded',
    });
  });

  it('a 100 KB error body becomes a message capped at 500 characters of it', async () => {
    server().reply(
      raw(400, 'application/json', JSON.stringify({ error: { message: 'e'.repeat(100_000), type: 'invalid_request_error' } })),
    );
    const result = await outcome(() => provider().complete(request));
    expect(result.code).toBe('PROVIDER_REQUEST_FAILED');
    expect(result.message.startsWith('Provider "openai" answered HTTP 400: ')).toBe(true);
    expect(result.message.length).toBeLessThan(600);
    expect(result.message.endsWith('…')).toBe(true);
  });

  it(
    `an answer over the ${MAX_ANSWER_BYTES}-byte cap fails with PROVIDER_INVALID_RESPONSE, not ERR_STRING_TOO_LONG`,
    async () => {
      server().reply(raw(200, 'application/json', Buffer.alloc(MAX_ANSWER_BYTES + 1024, 0x20)));
      expect(await outcome(() => provider().complete(request))).toEqual({
        code: 'PROVIDER_INVALID_RESPONSE',
        message: `Provider "openai" sent an answer larger than ${MAX_ANSWER_BYTES} bytes`,
      });
      server().reply(raw(200, 'text/event-stream', `data: ${'x'.repeat(MAX_ANSWER_BYTES + 1024)}`));
      expect(await outcome(() => streamAll(provider()))).toEqual({
        code: 'PROVIDER_INVALID_RESPONSE',
        message: `Provider "openai" sent an event larger than ${MAX_ANSWER_BYTES} bytes`,
      });
    },
    CASE_LIMIT_MS,
  );

  it(
    'one 8 MB SSE line (a text delta) is read whole, in one pass',
    async () => {
      const text = 'a'.repeat(8_000_000);
      server().reply(
        raw(
          200,
          'text/event-stream',
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`,
        ),
      );
      const response = await streamAll(provider());
      expect(response.content.length).toBe(8_000_000);
      expect(response.finishReason).toBe('stop');
    },
    CASE_LIMIT_MS,
  );

  it(
    'any body at all: complete() answers or rejects with a typed ProviderError, never a raw TypeError or SyntaxError',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.json().map((j) => ({ type: 'application/json', body: j })),
            fc.anything().map((v) => ({ type: 'application/json', body: (JSON.stringify(v) as string | undefined) ?? 'undefined' })),
            fc.record({
              type: fc.constant('application/json'),
              body: fc
                .record({
                  choices: fc.array(fc.oneof(fc.constant(null), fc.record({ message: fc.anything() }), fc.anything()), { maxLength: 3 }),
                })
                .map((v) => JSON.stringify(v)),
            }),
            fc.string().map((s) => ({ type: 'text/html', body: s })),
          ),
          async ({ type, body }) => {
            const fake = new OpenAIProvider({
              apiKey: 'k',
              baseURL: 'http://127.0.0.1:9/v1',
              fetch: () => Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': type } })),
            });
            const result = await outcome(() => fake.complete(request));
            expect(['ok', 'PROVIDER_INVALID_RESPONSE']).toContain(result.code);
          },
        ),
        { numRuns: 300 },
      );
    },
    CASE_LIMIT_MS,
  );
});
