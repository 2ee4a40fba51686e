import { HeadwayError } from '@headway/protocol';
import { MACHINE_LOAD_FACTOR } from '@headway/protocol/testing';
import type { StreamChunk } from '@headway/runtime';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_CHARS, MessageAssembler } from './message-assembler.js';
import { messageEvents } from './wire-mapping.js';
import { KNOWN_EVENTS } from './wire.js';
import {
  messageDelta,
  messageStart,
  messageStop,
  ping,
  textBlock,
  thinkingBlock,
  toolUseBlock,
  type WireEvent,
} from './anthropic-server.test-util.js';

/** A time limit of this file, stretched on a busy machine as the hostile fuzzing limits are. */
const scaled = (ms: number): number => Math.round(ms * MACHINE_LOAD_FACTOR);

// A hang guard per case on a loaded two-core machine, not a timing assertion.
const CASE_TIMEOUT_MS = scaled(2_000);

type ModelBlock =
  | { kind: 'text'; pieces: string[] }
  | { kind: 'thinking'; pieces: string[]; signature: string }
  | { kind: 'tool'; id: string; name: string; args: Record<string, unknown>; cuts: number[] };

/** Splits `text` at the given cut points (any positions, sorted and deduplicated). */
function split(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const p of points) {
    pieces.push(text.slice(from, p));
    from = p;
  }
  pieces.push(text.slice(from));
  return pieces;
}

function eventsOf(
  blocks: ModelBlock[],
  stopReason: string,
  usage: { input: number; output: number; read: number; write: number },
): WireEvent[] {
  return [
    messageStart({ input_tokens: usage.input, cache_read_input_tokens: usage.read, cache_creation_input_tokens: usage.write }),
    ...blocks.flatMap((b, i) => {
      if (b.kind === 'text') return textBlock(i, ...b.pieces);
      if (b.kind === 'thinking') return thinkingBlock(i, b.signature, ...b.pieces);
      return toolUseBlock(i, b.id, b.name, ...split(JSON.stringify(b.args), b.cuts));
    }),
    messageDelta(stopReason, { output_tokens: usage.output }),
    messageStop,
  ];
}

const jsonValue = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const blockArb: fc.Arbitrary<ModelBlock> = fc.oneof(
  fc.record({ kind: fc.constant('text' as const), pieces: fc.array(fc.string({ unit: 'binary' }), { maxLength: 5 }) }),
  fc.record({ kind: fc.constant('thinking' as const), pieces: fc.array(fc.string(), { maxLength: 5 }), signature: fc.string() }),
  fc.record({
    kind: fc.constant('tool' as const),
    id: fc.stringMatching(/^toolu_\w{1,12}$/),
    name: fc.stringMatching(/^\w{1,20}$/),
    args: fc.dictionary(fc.string({ maxLength: 8 }), jsonValue, { maxKeys: 4 }),
    cuts: fc.array(fc.nat(), { maxLength: 6 }),
  }),
);
const modelArb = fc.record({
  blocks: fc.array(blockArb, { maxLength: 6 }),
  stopReason: fc.constantFrom('end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'refusal', 'pause_turn'),
  usage: fc.record({ input: fc.nat(1e6), output: fc.nat(1e6), read: fc.nat(1e6), write: fc.nat(1e6) }),
});

/** Pushes every event, then ends: the chunks, or the error thrown. */
async function assemble(events: readonly unknown[]): Promise<{ chunks: StreamChunk[]; error?: unknown }> {
  const assembler = new MessageAssembler('anthropic');
  const chunks: StreamChunk[] = [];
  try {
    for (const event of events) {
      chunks.push(...assembler.push(event));
      // Lets the per-case timeout fire between events.
      await Promise.resolve();
    }
    assembler.end();
    return { chunks };
  } catch (error) {
    return { chunks, error };
  }
}

function expectProviderError(error: unknown): void {
  expect(HeadwayError.isInstance(error)).toBe(true);
  expect(['PROVIDER_INVALID_RESPONSE', 'PROVIDER_REQUEST_FAILED']).toContain((error as HeadwayError).code);
  expect((error as Error).message).toMatch(/^Provider "anthropic" /);
}

const { proxy: revoked, revoke } = Proxy.revocable({}, {});
revoke();
let deep: unknown = { type: 'message_start' };
for (let i = 0; i < 10_000; i++) deep = { type: 'content_block_start', index: 0, content_block: deep };
const hostile: unknown[] = [
  revoked,
  { type: 'content_block_delta', index: 0, delta: revoked },
  Object.defineProperty({}, 'type', {
    enumerable: true,
    get() {
      throw new Error('getter');
    },
  }),
  {
    type: 'content_block_start',
    index: 0,
    content_block: {
      type: 'tool_use',
      id: 'x',
      name: 'y',
      input: {
        get z(): never {
          throw new Error('input getter');
        },
      },
    },
  },
  deep,
  { type: 'content_block_delta', index: -1, delta: { type: 'text_delta', text: 'x' } },
  { type: 'content_block_delta', index: 1.5, delta: { type: 'text_delta', text: 'x' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 7 } },
  { type: 'message_delta', delta: { stop_reason: '\u0000\u001b[31m' }, usage: { output_tokens: -1 } },
  { type: 'content_block_start', index: 0, content_block: { type: '\u202e\n'.repeat(10_000) } },
  { type: 'message_start', message: { usage: { input_tokens: 1, output_tokens: 1 }, content: [{ type: 'text' }] } },
  { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
  { type: '__proto__' },
  { type: 'constructor' },
  null,
  'event: ping',
  42,
  [],
];

describe('MessageAssembler', () => {
  it('reads back any well-formed message exactly: text, thinking, tool calls from any JSON split, finish reason and usage (property)', async () => {
    await fc.assert(
      fc.asyncProperty(modelArb, async ({ blocks, stopReason, usage }) => {
        const { chunks, error } = await assemble(eventsOf(blocks, stopReason, usage));
        expect(error).toBeUndefined();
        const text = blocks.flatMap((b) => (b.kind === 'text' ? b.pieces : [])).join('');
        const reasoning = blocks.flatMap((b) => (b.kind === 'thinking' ? b.pieces : [])).join('');
        expect(chunks.flatMap((c) => (c.type === 'text-delta' ? [c.text] : [])).join('')).toBe(text);
        expect(chunks.flatMap((c) => (c.type === 'reasoning-delta' ? [c.text] : [])).join('')).toBe(reasoning);
        const tools = blocks.filter((b) => b.kind === 'tool');
        expect(chunks.flatMap((c) => (c.type === 'tool-call' ? [c.toolCall] : []))).toEqual(
          tools.map((t) => ({ id: t.id, name: t.name, args: t.args })),
        );
        expect(chunks.at(-1)).toEqual({
          type: 'finish',
          finishReason: {
            end_turn: 'stop',
            stop_sequence: 'stop',
            tool_use: 'tool_calls',
            max_tokens: 'length',
            refusal: 'content_filter',
            pause_turn: 'other',
          }[stopReason],
          usage: {
            inputTokens: usage.input + usage.read + usage.write,
            outputTokens: usage.output,
            cacheReadTokens: usage.read,
            cacheWriteTokens: usage.write,
          },
        });
      }),
      { numRuns: 300, timeout: CASE_TIMEOUT_MS },
    );
  });

  it('a stream cut at any point is a ProviderError and never yields a tool call (property)', async () => {
    await fc.assert(
      fc.asyncProperty(modelArb, fc.nat(), async ({ blocks, stopReason, usage }, cut) => {
        const events = eventsOf(blocks, stopReason, usage);
        const { chunks, error } = await assemble(events.slice(0, cut % events.length));
        expectProviderError(error);
        expect((error as HeadwayError).code).toBe('PROVIDER_INVALID_RESPONSE');
        expect(chunks.some((c) => c.type === 'tool-call' || c.type === 'finish')).toBe(false);
      }),
      { numRuns: 300, timeout: CASE_TIMEOUT_MS },
    );
  });

  it('garbage and hostile events anywhere end in a ProviderError or are skipped, never in another error (property)', async () => {
    const garbage = fc.oneof(
      fc.anything({ maxDepth: 3 }),
      // An index, not the value: fast-check itself cannot hold a revoked proxy.
      fc.nat(hostile.length - 1).map((i) => ({ hostileIndex: i })),
      fc.record({
        type: fc.constantFrom(...KNOWN_EVENTS, 'future_event'),
        index: fc.integer({ min: -1, max: 8 }),
        delta: fc.anything({ maxDepth: 2 }),
        content_block: fc.anything({ maxDepth: 2 }),
      }),
      fc.record({
        type: fc.constant('content_block_delta'),
        index: fc.nat(6),
        delta: fc.record({
          type: fc.constantFrom('text_delta', 'input_json_delta', 'thinking_delta', 'signature_delta', 'citations_delta', 'hologram_delta'),
          text: fc.string(),
          partial_json: fc.string(),
          thinking: fc.string(),
          signature: fc.string(),
        }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        modelArb,
        fc.array(fc.tuple(fc.nat(), garbage), { minLength: 1, maxLength: 4 }),
        async ({ blocks, stopReason, usage }, inserts) => {
          const events: unknown[] = eventsOf(blocks, stopReason, usage);
          for (const [at, event] of inserts) {
            const hostileIndex = (event as { hostileIndex?: unknown } | null)?.hostileIndex;
            events.splice(at % (events.length + 1), 0, typeof hostileIndex === 'number' ? hostile[hostileIndex] : event);
          }
          const { error } = await assemble(events);
          if (error !== undefined) expectProviderError(error);
        },
      ),
      { numRuns: 400, timeout: CASE_TIMEOUT_MS },
    );
  });

  it('skips pings and event types it does not know, as the API versioning policy asks', async () => {
    const { chunks, error } = await assemble([
      ping,
      messageStart(),
      { type: 'content_block_hint', index: 0 },
      ...textBlock(0, 'ok'),
      ping,
      messageDelta('end_turn'),
      messageStop,
    ]);
    expect(error).toBeUndefined();
    expect(chunks.map((c) => c.type)).toEqual(['text-delta', 'finish']);
  });

  it('refuses a message larger than its bound', async () => {
    const big = 'x'.repeat(MAX_MESSAGE_CHARS / 2 + 1);
    const { error } = await assemble([messageStart(), ...textBlock(0, big, big)]);
    expectProviderError(error);
    expect((error as Error).message).toContain(
      `the message is larger than ${MAX_MESSAGE_CHARS} characters (at event #4 content_block_delta, content[0])`,
    );
  });

  it('reads hostile values as broken events, saying which', async () => {
    const { error } = await assemble([messageStart(), hostile[1]]);
    expect((error as Error).message).toBe(
      'Provider "anthropic" answered with a broken stream: content_block_delta does not match the wire format (unreadable: TypeError: Cannot perform \'IsArray\' on a proxy that has been revoked) (at event #2 content_block_delta)',
    );
    const getter = await assemble([hostile[2]]);
    expect((getter.error as Error).message).toBe(
      'Provider "anthropic" answered with a broken stream: the event is not an object with a string "type" (unreadable: getter) (at event #1)',
    );
  });

  it('reads a whole message through the same checks', () => {
    const assembler = new MessageAssembler('anthropic', 'message');
    const events = messageEvents('anthropic', {
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: [1] }],
      stop_reason: 'tool_use',
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    expect(() => {
      events.forEach((e) => assembler.push(e));
    }).toThrow(
      'Provider "anthropic" answered with an invalid message: tool call "f" (toolu_1) arguments are not a JSON object (at content[0])',
    );
    expect(() => messageEvents('anthropic', { content: [], usage: { input_tokens: -1, output_tokens: 0 } })).toThrow(/usage\.input_tokens/);
  });
});
