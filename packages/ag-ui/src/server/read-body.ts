/** A request body passed the size limit; the endpoint answers 413. */
export class BodyTooLargeError extends Error {
  constructor(limit: number) {
    super(`The request body is larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** Reads chunks into text, stopping with {@link BodyTooLargeError} as soon as `limit` bytes are passed. */
export async function readLimited(chunks: AsyncIterable<Uint8Array | string>, limit: number): Promise<string> {
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for await (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    size += bytes.byteLength;
    if (size > limit) throw new BodyTooLargeError(limit);
    text += decoder.decode(bytes, { stream: true });
  }
  return text + decoder.decode();
}
