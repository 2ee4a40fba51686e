// What the Anthropic provider costs on top of the bare SDK when it reads a streamed answer:
// both read the same SSE bytes (a long text answer and a tool call, from an in-memory fetch,
// no network) through the same SDK client settings; the provider also checks every event
// against the wire format and assembles the runtime's chunks. Run: pnpm -F @headway/bench bench:provider-anthropic
import Anthropic from '@anthropic-ai/sdk';
import { AnthropicProvider } from '@headway/provider-anthropic';
import { collectStream } from '@headway/runtime';
import { Bench } from 'tinybench';

const events: { type: string; [key: string]: unknown }[] = [
  {
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [],
      model: 'claude-sonnet-4-6',
      stop_reason: null,
      usage: { input_tokens: 900, output_tokens: 1 },
    },
  },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  ...Array.from({ length: 300 }, (_, i) => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: `word${i} ` } })),
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'file_read', input: {} } },
  ...Array.from({ length: 30 }, (_, i) => ({
    type: 'content_block_delta',
    index: 1,
    delta: { type: 'input_json_delta', partial_json: i === 0 ? '{"path":"' : i === 29 ? 'x.md"}' : 'dir/' },
  })),
  { type: 'content_block_stop', index: 1 },
  { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 340 } },
  { type: 'message_stop' },
];
const body = new TextEncoder().encode(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(''));

/** An in-memory server: every request gets the same streamed answer. */
const memoryFetch: typeof fetch = () =>
  Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }));

const options = {
  apiKey: 'k',
  baseURL: 'http://127.0.0.1:1',
  maxRetries: 0,
  fetch: memoryFetch,
  openTelemetry: false as const,
  logLevel: 'off' as const,
};
const sdk = new Anthropic(options);
const provider = new AnthropicProvider({ apiKey: 'k', baseURL: 'http://127.0.0.1:1', fetch: memoryFetch, env: {} });
const request = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };

async function bareSdk(): Promise<void> {
  const stream = await sdk.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 8192,
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
  });
  let n = 0;
  for await (const _event of stream) n += 1;
  if (n !== events.length) throw new Error(`sdk: ${n} events`);
}

async function headway(): Promise<void> {
  const response = await collectStream(provider.stream(request));
  if (response.toolCalls.length !== 1) throw new Error('headway: no tool call');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const variants = [
  { name: 'bare SDK (baseline)', fn: bareSdk },
  { name: 'AnthropicProvider.stream', fn: headway },
];
const perRound: Record<string, number[]> = {};
for (let round = 0; round < 7; round++) {
  const bench = new Bench({ time: 300, warmup: true });
  for (const v of round % 2 === 0 ? variants : [...variants].reverse()) bench.add(v.name, v.fn);
  await bench.run();
  for (const task of bench.tasks) {
    if (task.result.state !== 'completed') throw new Error(`${task.name}: ${task.result.state}`);
    (perRound[task.name] ??= []).push(task.result.latency.mean);
  }
}
const base = perRound[variants[0]!.name]!;
console.log(`\nReading one streamed answer (${events.length} events), median of 7 interleaved rounds`);
console.log('| variant | µs per answer | × bare SDK |');
console.log('|---|---:|---:|');
for (const v of variants) {
  const times = perRound[v.name]!;
  console.log(`| ${v.name} | ${(median(times) * 1000).toFixed(0)} | ${median(times.map((t, i) => t / base[i]!)).toFixed(2)} |`);
}
