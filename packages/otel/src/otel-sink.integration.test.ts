import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createProgressHub, systemClock } from '@headway/protocol';
import { AgentRuntime, defineTool } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOtelSink } from './otel-sink.js';

interface OtlpAttribute {
  key: string;
  value: {
    stringValue?: string;
    intValue?: string | number;
    boolValue?: boolean;
    doubleValue?: number;
    arrayValue?: { values: { stringValue?: string }[] };
  };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes: OtlpAttribute[];
  events?: { name: string; attributes: OtlpAttribute[] }[];
  status?: { code?: number; message?: string };
}
interface OtlpRequest {
  resourceSpans: { scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[];
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

/** An OTLP/HTTP receiver on 127.0.0.1 that keeps what it was sent. */
async function receiver(): Promise<{ url: string; requests: { path: string; contentType: string; body: OtlpRequest }[] }> {
  const requests: { path: string; contentType: string; body: OtlpRequest }[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((text) => {
      requests.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', body: JSON.parse(text) as OtlpRequest });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${String(port)}/v1/traces`, requests };
}

function attr(span: OtlpSpan, key: string): unknown {
  const value = span.attributes.find((a) => a.key === key)?.value;
  if (value === undefined) return undefined;
  if (value.arrayValue !== undefined) return value.arrayValue.values.map((v) => v.stringValue);
  return value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.boolValue ?? value.doubleValue;
}

describe('OTLP/HTTP JSON export', () => {
  it('a run reaches a collector as one trace with the GenAI names, parents, times and status', async () => {
    const { url, requests } = await receiver();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url }))] });
    const sink = createOtelSink({ tracer: provider.getTracer('@headway/otel'), meter: false });
    let now = 1_767_225_600_000;
    const hub = createProgressHub({ runId: 'run-otlp', clock: { ...systemClock, now: () => now } });
    hub.add(sink);
    hub.emit({ type: 'run.started', agentName: 'exporter', sessionId: 'conv-1', limits: { iterations: 4 } });
    hub.emit({ type: 'iteration', index: 0, max: 4 });
    hub.emit({ type: 'step.started', step: 'llm-1', provider: 'openai', model: 'gpt-4o' });
    now += 250;
    hub.emit({
      type: 'step.finished',
      step: 'llm-1',
      durationMs: 250,
      usage: { inputTokens: 50, outputTokens: 7 },
      finishReason: 'tool_calls',
    });
    hub.emit({ type: 'tool.executing', toolName: 'grep', toolCallId: 'call-1', args: { pattern: 'TODO' } });
    now += 40;
    hub.emit({ type: 'tool.completed', toolName: 'grep', toolCallId: 'call-1', durationMs: 40, ok: false, preview: 'no such file' });
    hub.emit({ type: 'progress', percent: 50 });
    hub.emit({ type: 'run.finished', durationMs: 290, outcome: 'completed' });
    await provider.forceFlush();
    await provider.shutdown();

    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((r) => r.path === '/v1/traces' && r.contentType.startsWith('application/json'))).toBe(true);
    const spans = requests.flatMap((r) => r.body.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)));
    expect(requests[0]!.body.resourceSpans[0]!.scopeSpans[0]!.scope.name).toBe('@headway/otel');
    expect(spans.map((s) => s.name).sort()).toEqual(['chat gpt-4o', 'execute_tool grep', 'invoke_agent exporter']);
    const run = spans.find((s) => s.name === 'invoke_agent exporter')!;
    const chat = spans.find((s) => s.name === 'chat gpt-4o')!;
    const tool = spans.find((s) => s.name === 'execute_tool grep')!;
    expect(run.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([run.traceId]));
    expect(run.parentSpanId ?? '').toBe('');
    expect([chat.parentSpanId, tool.parentSpanId]).toEqual([run.spanId, run.spanId]);
    // SpanKind: INTERNAL = 1, CLIENT = 3 in OTLP.
    expect([run.kind, chat.kind, tool.kind]).toEqual([1, 3, 1]);
    expect(String(run.startTimeUnixNano)).toBe('1767225600000000000');
    expect(String(run.endTimeUnixNano)).toBe('1767225600290000000');
    expect(String(chat.endTimeUnixNano)).toBe('1767225600250000000');
    expect(run.status?.code).toBe(1); // OK
    expect(tool.status).toEqual({ code: 2, message: 'grep failed' }); // ERROR
    expect([
      attr(run, 'gen_ai.operation.name'),
      attr(run, 'gen_ai.agent.name'),
      attr(run, 'gen_ai.conversation.id'),
      attr(run, 'headway.run.id'),
      attr(run, 'headway.run.outcome'),
    ]).toEqual(['invoke_agent', 'exporter', 'conv-1', 'run-otlp', 'completed']);
    expect([
      attr(chat, 'gen_ai.provider.name'),
      attr(chat, 'gen_ai.request.model'),
      attr(chat, 'gen_ai.usage.input_tokens'),
      attr(chat, 'gen_ai.usage.output_tokens'),
      attr(chat, 'gen_ai.response.finish_reasons'),
    ]).toEqual(['openai', 'gpt-4o', 50, 7, ['tool_calls']]);
    expect([
      attr(tool, 'gen_ai.tool.name'),
      attr(tool, 'gen_ai.tool.call.id'),
      attr(tool, 'error.type'),
      attr(tool, 'gen_ai.tool.call.arguments'),
    ]).toEqual(['grep', 'call-1', 'tool_error', undefined]);
    expect(run.events?.map((e) => [e.name, e.attributes.map((a) => a.key)])).toEqual([['headway.progress', ['headway.progress.percent']]]);
  });
});

describe('secrets never reach the collector (issue 31)', () => {
  const KEY = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123';
  const PASSWORD = 'hunter2-correct-horse-battery';

  async function exportRun(
    emitAll: (hub: ReturnType<typeof createProgressHub>) => Promise<void>,
    captureContent: Parameters<typeof createOtelSink>[0] = {},
  ): Promise<string> {
    const { url, requests } = await receiver();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url }))] });
    const sink = createOtelSink({ tracer: provider.getTracer('@headway/otel'), meter: false, captureContent: true, ...captureContent });
    const hub = createProgressHub({ runId: 'run-secret' });
    hub.add(sink);
    await emitAll(hub);
    await provider.forceFlush();
    await provider.shutdown();
    return JSON.stringify(requests.map((r) => r.body));
  }

  it("a runtime run with content capture: no span attribute or event carries the tool result's secrets", async () => {
    const envDump = defineTool({
      name: 'env_dump',
      description: 'Print the environment',
      parameters: z.object({ password: z.string() }),
      execute: () => `OPENAI_API_KEY=${KEY}\nDB_PASSWORD=${PASSWORD}`,
    });
    const wire = await exportRun(async (hub) => {
      const runtime = new AgentRuntime(
        { provider: 'scripted', planTool: true },
        {
          provider: new ScriptedProvider([
            {
              toolCalls: [
                { name: 'env_dump', args: { password: PASSWORD } },
                { name: 'update_plan', args: { items: [{ text: `Rotate ${KEY}`, status: 'in_progress' }] } },
              ],
            },
            { content: 'Rotated.' },
          ]),
          tools: [envDump],
          sinks: [(event) => void hub.emit(event)],
        },
      );
      await runtime.run(`Rotate the keys; DB_PASSWORD=${PASSWORD}`, { stream: true });
    });
    expect(wire).toContain('gen_ai.tool.call.result');
    expect(wire).toContain('OPENAI_API_KEY=[REDACTED]');
    expect(wire).not.toContain(KEY);
    expect(wire).not.toContain(PASSWORD);
  });

  it('events emitted by hand (result, arguments, text split over deltas) are redacted; captureContent.redact: false is the opt-out', async () => {
    const emitSecrets = (hub: ReturnType<typeof createProgressHub>): Promise<void> => {
      hub.emit({ type: 'run.started', agentName: 'hand', task: 'x' });
      hub.emit({ type: 'step.started', step: 'llm-1', provider: 'openai', model: 'gpt-4o' });
      hub.emit({ type: 'text.delta', text: 'the key is OPENAI_API_KEY=sk-proj-AbCdEf' });
      hub.emit({ type: 'text.delta', text: 'GhIjKlMnOpQrStUvWx0123 ok' });
      hub.emit({ type: 'step.finished', step: 'llm-1', durationMs: 1 });
      hub.emit({ type: 'tool.executing', toolName: 'login', toolCallId: 'c1', args: { password: PASSWORD } });
      hub.emit({
        type: 'tool.completed',
        toolName: 'login',
        toolCallId: 'c1',
        durationMs: 1,
        ok: true,
        preview: `DB_PASSWORD=${PASSWORD}`,
      });
      hub.emit({ type: 'run.finished', durationMs: 2, outcome: 'completed' });
      return Promise.resolve();
    };
    const wire = await exportRun(emitSecrets);
    expect(wire).not.toContain('GhIjKlMnOpQrStUvWx0123');
    expect(wire).not.toContain(PASSWORD);
    const raw = await exportRun(emitSecrets, { captureContent: { redact: false } });
    expect(raw).toContain(KEY);
    expect(raw).toContain(PASSWORD);
  });
});
