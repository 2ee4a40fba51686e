import { parseProgressEventJson, type ProgressEvent } from '@headway/protocol';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseError } from './sse-error.js';
import { SSE_HEARTBEAT, formatProgressFrame, formatRetryFrame, formatSseFrame } from './sse-frame.js';

// Any code point but a lone surrogate, with control characters and line breaks over-represented.
const codePoint = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x20, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff }))
  .map((c) => String.fromCodePoint(c));

function parseAll(chunks: readonly string[]): { messages: EventSourceMessage[]; retries: number[]; comments: string[] } {
  const messages: EventSourceMessage[] = [];
  const retries: number[] = [];
  const comments: string[] = [];
  const parser = createParser({
    onEvent: (m) => messages.push(m),
    onRetry: (ms) => retries.push(ms),
    onComment: (c) => comments.push(c),
  });
  for (const chunk of chunks) parser.feed(chunk);
  return { messages, retries, comments };
}

/** Cuts `text` at the given fractions, so the parser sees frames split anywhere. */
function cut(text: string, fractions: readonly number[]): string[] {
  const points = [...new Set(fractions.map((f) => Math.floor(f * text.length)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const p of points) {
    out.push(text.slice(from, p));
    from = p;
  }
  out.push(text.slice(from));
  return out;
}

describe('formatSseFrame', () => {
  it('writes id, event, retry and one data line per line of text', () => {
    expect(formatSseFrame({ id: '7', event: 'progress', retry: 1500, data: 'a\nb\r\nc\rd' })).toBe(
      'id: 7\nevent: progress\nretry: 1500\ndata: a\ndata: b\ndata: c\ndata: d\n\n',
    );
    expect(formatSseFrame({ data: '' })).toBe('data: \n\n');
  });

  it('writes a progress event as id: seq, event: progress, data: one line of JSON', () => {
    const event: ProgressEvent = { type: 'text.delta', runId: 'r', seq: 3, ts: 10, text: 'line one\nline two\r\u0000' };
    expect(formatProgressFrame(event)).toBe(
      'id: 3\nevent: progress\ndata: {"type":"text.delta","runId":"r","seq":3,"ts":10,"text":"line one\\nline two\\r\\u0000"}\n\n',
    );
  });

  it('still writes an event whose args JSON cannot hold (cycles, bigints)', () => {
    const args: Record<string, unknown> = { n: 10n };
    args.self = args;
    const frame = formatProgressFrame({ type: 'tool.executing', runId: 'r', seq: 1, ts: 0, toolName: 't', args });
    expect(frame).toBe(
      'id: 1\nevent: progress\ndata: {"type":"tool.executing","runId":"r","seq":1,"ts":0,"toolName":"t","args":{"n":"10","self":"[Circular]"}}\n\n',
    );
  });

  it('refuses ids and names that would break the framing', () => {
    for (const id of ['1\n2', '1\r', 'a\u0000b']) expect(() => formatSseFrame({ id, data: 'x' })).toThrow(SseError);
    expect(() => formatSseFrame({ event: 'a\nb', data: 'x' })).toThrow(/event name/);
    expect(() => formatSseFrame({ retry: -1, data: 'x' })).toThrow(/retry/);
    expect(() => formatRetryFrame(1.5)).toThrow(/retry/);
  });

  it('heartbeat and retry frames dispatch no event', () => {
    const { messages, retries, comments } = parseAll([formatRetryFrame(2000), SSE_HEARTBEAT]);
    expect(messages).toEqual([]);
    expect(retries).toEqual([2000]);
    expect(comments).toEqual(['']);
  });

  it('fuzz: any data (newlines, CR, NUL, unicode) parses back, line breaks as LF, however the stream is cut', () => {
    const data = fc.string({
      unit: fc.oneof(fc.constantFrom('\n', '\r', '\u0000', ' ', ':', 'data: ', 'id: 9', '\u2028', '\uFEFF', '😀'), codePoint),
      maxLength: 40,
    });
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: fc.nat().map(String), data }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
        (frames, fractions) => {
          const text = formatRetryFrame(10) + frames.map((f) => formatSseFrame({ ...f, event: 'progress' })).join('');
          const { messages } = parseAll(cut(text, fractions));
          expect(messages.map((m) => ({ id: m.id, event: m.event, data: m.data }))).toEqual(
            frames.map((f) => ({ id: f.id, event: 'progress', data: f.data.replace(/\r\n|\r/g, '\n') })),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('fuzz: progress events with hostile text round-trip through the frame and parseProgressEventJson', () => {
    fc.assert(
      fc.property(fc.string({ unit: codePoint, maxLength: 60 }), fc.integer({ min: 1, max: 1e9 }), (text, seq) => {
        const event: ProgressEvent = { type: 'text.delta', runId: 'run-1', seq, ts: 0, text };
        const { messages } = parseAll([formatProgressFrame(event)]);
        expect(messages).toHaveLength(1);
        expect(messages[0]?.id).toBe(String(seq));
        expect(parseProgressEventJson(messages[0]?.data ?? '')).toEqual(event);
      }),
      { numRuns: 300 },
    );
  });
});
