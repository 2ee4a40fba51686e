const encoder = new TextEncoder();

/** UTF-8 bytes of `text`, the form every frame is sent (and counted) in. */
export function encodeUtf8(text: string): Uint8Array {
  return encoder.encode(text);
}
