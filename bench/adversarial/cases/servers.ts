// Growth cases for the server-side adapters (redis, providers): the worst inputs known, at about
// n characters. The runner in ../run.ts times each at n = 10 KB, 100 KB and 1 MB.
import { ManualClock, type ProgressEvent } from '@headway/protocol';
import { OpenAIProvider } from '@headway/provider-openai';
import { createRedisSink } from '@headway/redis';
import { collectStream } from '@headway/runtime';

/** One growth case (the runner's shape, declared here so this file stands alone). */
interface AdversarialCase {
  name: string;
  /** The worst known input of about n bytes. */
  make(n: number): unknown;
  run(input: unknown): unknown;
}

/** Splits `text` into 16 KB network chunks, as a server's answer arrives. */
function chunked(text: string): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 16_384) out.push(bytes.subarray(i, i + 16_384));
  return out;
}

/** An OpenAI provider whose fetch answers with `chunks` as an event stream, without a network. */
function streamingProvider(chunks: Uint8Array[]): OpenAIProvider {
  return new OpenAIProvider({
    apiKey: 'k',
    baseURL: 'http://127.0.0.1:9/v1',
    fetch: () =>
      Promise.resolve(
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              for (const chunk of chunks) controller.enqueue(chunk);
              controller.close();
            },
          }),
          { status: 200, headers: { 'content-type': 'text/event-stream' } },
        ),
      ),
  });
}

/** A Redis client that acknowledges every write without a server: the sink's own work is what is timed. */
const acknowledging = { sendCommand: () => Promise.resolve([1]) };

export const cases: AdversarialCase[] = [
  {
    // The sink cuts the event to a tenth of its size: the longest strings first, escapes counted.
    name: 'redis: createRedisSink handle — a run.finished summary of escapes, 10× over maxEventBytes',
    make: (n): { event: ProgressEvent; max: number } => ({
      event: {
        type: 'run.finished',
        runId: 'r',
        seq: 2,
        ts: 1,
        durationMs: 1,
        outcome: 'completed',
        summary: '\u0001"x'.repeat(Math.ceil(n / 3)),
      },
      max: Math.max(300, Math.floor(n / 10)),
    }),
    run: (input) => {
      const { event, max } = input as { event: ProgressEvent; max: number };
      const sink = createRedisSink(acknowledging, {
        maxEventBytes: max,
        clock: new ManualClock({ start: 0 }),
        onInternalError: () => undefined,
      });
      return sink.handle(event);
    },
  },
  {
    // One long `data:` line arriving in 16 KB chunks: a decoder that re-joins its buffer per chunk is quadratic here.
    name: 'provider-openai: OpenAIProvider stream — one long SSE data line in 16 KB chunks',
    make: (n) =>
      chunked(
        `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'a'.repeat(n) }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`,
      ),
    run: (input) =>
      collectStream(streamingProvider(input as Uint8Array[]).stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] })),
  },
];
