import type { CompletionRequest } from '@headway/runtime';
import { jsonReply, sseReply, type ScriptedReply, type ScriptedServer } from '@headway/runtime/testing';
import { useScriptedServer } from '@headway/runtime/testing/conformance';

// Replies the Messages API would give, for runtime's ScriptedServer on 127.0.0.1: JSON bodies
// and error bodies with `request-id`, SSE streams with an `event:` line and a `data:` line per
// event. Tests script them one request at a time.

/** An event as the stream carries it. */
export interface WireEvent {
  type: string;
  [key: string]: unknown;
}

/** How the server answers one request. */
export type Reply = ScriptedReply;

let requestIds = 0;

function requestId(): string {
  requestIds += 1;
  return `req_test${String(requestIds).padStart(4, '0')}`;
}

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return (res, req) => {
    jsonReply(status, body, { 'request-id': requestId(), ...headers })(res, req);
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
  return (res, req) => {
    sseReply(
      events.map((e) => (typeof e === 'string' ? e : sseEvent(e))),
      { 'request-id': requestId() },
    )(res, req);
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

/** A scripted Messages API on a random port of 127.0.0.1 (`baseURL` without `/v1`) for this test file, reset before each test. */
export function useAnthropicTestServer(): () => ScriptedServer {
  return useScriptedServer({ fallback: () => apiError(500, 'api_error', 'no reply scripted') });
}

/** The smallest request: one user message, no tools. */
export const hi: CompletionRequest = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };
