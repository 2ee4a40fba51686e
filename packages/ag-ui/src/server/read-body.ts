import { AgUiError } from '../ag-ui-error.js';

/** Reads chunks into text, stopping with `AG_UI_BODY_TOO_LARGE` as soon as `limit` bytes are passed. */
export async function readLimited(chunks: AsyncIterable<Uint8Array | string>, limit: number): Promise<string> {
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for await (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    size += bytes.byteLength;
    if (size > limit) throw new AgUiError('AG_UI_BODY_TOO_LARGE', `The request body is larger than ${limit} bytes`);
    text += decoder.decode(bytes, { stream: true });
  }
  return text + decoder.decode();
}
