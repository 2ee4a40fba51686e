import { propagation, trace, type Span, type TextMapPropagator, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { collectStream } from '@headway/runtime';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from './anthropic-provider.js';
import { startAnthropicTestServer, messageDelta, messageStart, messageStop, sse, textBlock } from './anthropic-server.test-util.js';
import type { ScriptedServer } from '@headway/runtime/testing';

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
const provider: TracerProvider = { getTracer: () => tracer };
const propagator: TextMapPropagator = {
  inject: (context, carrier, setter) => {
    const span = trace.getSpanContext(context);
    if (span !== undefined) setter.set(carrier, 'traceparent', `00-${span.traceId}-${span.spanId}-01`);
  },
  extract: (context) => context,
  fields: () => ['traceparent'],
};

let server: ScriptedServer;

beforeAll(async () => {
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(propagator);
  server = await startAnthropicTestServer();
});

afterAll(async () => {
  trace.disable();
  propagation.disable();
  await server.close();
});

beforeEach(() => {
  server.reset();
  started.length = 0;
});

const answer = sse([messageStart(), ...textBlock(0, 'hi'), messageDelta('end_turn'), messageStop]);
const hi = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };

describe('the SDK telemetry', () => {
  it('is off by default: no span, no trace headers, even when the application registered OpenTelemetry', async () => {
    server.reply(answer);
    await collectStream(new AnthropicProvider({ apiKey: 'k', baseURL: server.baseURL, env: {} }).stream(hi));
    expect(started).toEqual([]);
    expect(server.received[0]?.headers).not.toHaveProperty('traceparent');
  });

  it('is on when asked for', async () => {
    server.reply(answer);
    await collectStream(new AnthropicProvider({ apiKey: 'k', baseURL: server.baseURL, env: {}, openTelemetry: {} }).stream(hi));
    expect(started).toEqual(['anthropic.messages.create']);
    expect(server.received[0]?.headers.traceparent).toBe('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
  });
});
