const encoder = new TextEncoder();
// Buffer.from allocates small strings from a shared pool: several times faster than
// TextEncoder for frame-sized text, and a Buffer is a Uint8Array. Runtimes without it
// (Workers) use TextEncoder.
const nodeBuffer = (globalThis as { Buffer?: { from(text: string, encoding: 'utf8'): Uint8Array } }).Buffer;

/** UTF-8 bytes of `text`, the form every frame is sent (and counted) in. */
export function encodeUtf8(text: string): Uint8Array {
  return nodeBuffer === undefined ? encoder.encode(text) : nodeBuffer.from(text, 'utf8');
}
