import { ProviderError } from '@headway/runtime';
import { createParser } from 'eventsource-parser';

/**
 * Longest answer read, in bytes (16 MiB): a whole non-streamed body, one server-sent event, or
 * the arguments of one streamed tool call. Past it the call fails with `PROVIDER_INVALID_RESPONSE`
 * instead of exhausting memory (a 600 MB answer used to die in `ERR_STRING_TOO_LONG`).
 */
export const MAX_ANSWER_BYTES: number = 16 * 1024 * 1024;

/** Longest piece of a server's text repeated in an error message. */
const QUOTED_CHARS = 500;

/** `text` cut to `max` characters with `…` (never splitting a surrogate pair). */
export function clip(text: string, max: number = QUOTED_CHARS): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 2);
  return `${text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 2 : max - 1)}…`;
}

function tooLarge(provider: string, what: string): ProviderError {
  return new ProviderError('PROVIDER_INVALID_RESPONSE', `Provider "${provider}" sent ${what} larger than ${MAX_ANSWER_BYTES} bytes`, {
    provider,
    retryable: false,
  });
}

/** The body of `response` as text, at most {@link MAX_ANSWER_BYTES}: chunks are kept as bytes and decoded once (linear). */
export async function readCappedText(response: Response, provider: string): Promise<string> {
  const body = response.body;
  if (body === null) return '';
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(provider, 'an answer');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** The `data` of each server-sent event of `response`, parsed by eventsource-parser (linear in a long line), each at most {@link MAX_ANSWER_BYTES}. */
export async function* readEventData(response: Response, provider: string): AsyncGenerator<string> {
  const body = response.body;
  if (body === null) return;
  const events: string[] = [];
  let failure: ProviderError | undefined;
  const parser = createParser({
    onEvent: (event) => events.push(event.data),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') failure = tooLarge(provider, 'an event');
    },
    maxBufferSize: MAX_ANSWER_BYTES,
  });
  const decoder = new TextDecoder();
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      parser.feed(done ? decoder.decode() : decoder.decode(value, { stream: true }));
      if (failure !== undefined) throw failure;
      yield* events.splice(0);
      if (done) break;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
