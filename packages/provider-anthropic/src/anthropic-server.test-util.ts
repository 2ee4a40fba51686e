import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local server on 127.0.0.1 that answers POST /v1/messages the way the Messages API does:
// JSON bodies and error bodies with `request-id`, SSE streams with an `event:` line and a
// `data:` line per event. Tests script its replies one request at a time.

/** An event as the stream carries it. */
export interface WireEvent {
  type: string;
  [key: string]: unknown;
}

/** A request the server received. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** How the server answers one request. */
export type Reply = (res: ServerResponse, req: IncomingMessage) => void;

let requestIds = 0;

function requestId(): string {
  requestIds += 1;
  return `req_test${String(requestIds).padStart(4, '0')}`;
}

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return (res) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId(), ...headers });
    res.end(JSON.stringify(body));
  };
}

/** An error answer with the API's error body. */
export function apiError(status: number, type: string, message: string, headers: Record<string, string> = {}): Reply {
  return json(status, { type: 'error', error: { type, message }, request_id: 'req_body' }, headers);
}

/** One SSE event as the API writes it: `event: <type>` then `data: <json>`. */
export function sseEvent(event: WireEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** An SSE stream of `events`, or of raw text (for broken streams). */
export function sse(events: readonly (WireEvent | string)[]): Reply {
  return (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': requestId() });
    for (const e of events) res.write(typeof e === 'string' ? e : sseEvent(e));
    res.end();
  };
}

interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/** `message_start`: a message with empty content and the input usage. */
export function messageStart(usage: Usage = {}): WireEvent {
  return {
    type: 'message_start',
    message: {
      id: 'msg_01test',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [],
      container: null,
      diagnostics: null,
      stop_details: null,
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: 25,
        output_tokens: 1,
        cache_creation_input_tokens: null,
        cache_read_input_tokens: null,
        cache_creation: null,
        inference_geo: null,
        output_tokens_details: null,
        server_tool_use: null,
        service_tier: 'standard',
        speed: null,
        ...usage,
      },
    },
  };
}

/** A text block: start, one `text_delta` per piece, stop. */
export function textBlock(index: number, ...pieces: string[]): WireEvent[] {
  return [
    { type: 'content_block_start', index, content_block: { type: 'text', text: '', citations: null } },
    ...pieces.map((text) => ({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } })),
    { type: 'content_block_stop', index },
  ];
}

/** A tool_use block: start (empty input), one `input_json_delta` per piece, stop. */
export function toolUseBlock(index: number, id: string, name: string, ...partialJson: string[]): WireEvent[] {
  return [
    { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {}, caller: { type: 'direct' } } },
    ...partialJson.map((partial_json) => ({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } })),
    { type: 'content_block_stop', index },
  ];
}

/** A thinking block: start, `thinking_delta`s, one `signature_delta`, stop. */
export function thinkingBlock(index: number, signature: string, ...pieces: string[]): WireEvent[] {
  return [
    { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
    ...pieces.map((thinking) => ({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } })),
    { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature } },
    { type: 'content_block_stop', index },
  ];
}

/** `message_delta` with the stop reason and the cumulative output usage. */
export function messageDelta(stopReason: string, usage: Usage = { output_tokens: 15 }): WireEvent {
  return { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null, stop_details: null, container: null }, usage };
}

/** `message_stop`. */
export const messageStop: WireEvent = { type: 'message_stop' };
/** `ping`, which may come anywhere. */
export const ping: WireEvent = { type: 'ping' };

/** A whole (non-streamed) message. */
export function message(content: unknown[], stopReason: string, usage: Usage = {}): unknown {
  const start = messageStart({ output_tokens: 15, ...usage });
  return { ...(start.message as Record<string, unknown>), content, stop_reason: stopReason };
}

/** The scripted server. */
export class AnthropicTestServer {
  readonly received: Received[] = [];
  readonly #replies: Reply[] = [];
  readonly #server: Server;
  baseURL = '';

  private constructor() {
    this.#server = createServer((req, res) => {
      let text = '';
      req.on('data', (d: Buffer) => (text += d.toString()));
      req.on('end', () => {
        this.received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) });
        const reply = this.#replies.shift() ?? apiError(500, 'api_error', 'no reply scripted');
        reply(res, req);
      });
    });
  }

  /** Starts a server on a random port of 127.0.0.1. */
  static async start(): Promise<AnthropicTestServer> {
    const server = new AnthropicTestServer();
    await new Promise<void>((resolve) => server.#server.listen(0, '127.0.0.1', resolve));
    server.baseURL = `http://127.0.0.1:${(server.#server.address() as AddressInfo).port}`;
    return server;
  }

  /** Queues the answers to the next requests, in order. */
  reply(...replies: Reply[]): void {
    this.#replies.push(...replies);
  }

  /** Forgets what was received and queued. */
  reset(): void {
    this.received.length = 0;
    this.#replies.length = 0;
  }

  /** The body of request `n` (0-based). */
  body(n: number): Record<string, unknown> {
    return this.received[n]?.body as Record<string, unknown>;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}
