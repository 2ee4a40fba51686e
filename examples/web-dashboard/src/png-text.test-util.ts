// A PNG's text chunks (iTXt, UTF-8), so the README's screenshot carries what the page said when
// it was taken, and the browser test can tell whether a new screenshot shows something else.
import { crc32 } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Chunk {
  type: string;
  data: Buffer;
}

function chunksOf(png: Buffer): Chunk[] {
  if (png.length < SIGNATURE.length || !png.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('not a PNG');
  const chunks: Chunk[] = [];
  let at = SIGNATURE.length;
  while (at + 12 <= png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > png.length) throw new Error(`PNG chunk ${type} runs past the end`);
    chunks.push({ type, data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return chunks;
}

function encodeChunk({ type, data }: Chunk): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** The PNG with an uncompressed iTXt chunk `keyword` holding `text`, right after its header. */
export function withPngText(png: Buffer, keyword: string, text: string): Buffer {
  const chunks = chunksOf(png).filter((c) => !(c.type === 'iTXt' && c.data.toString('latin1').startsWith(`${keyword}\0`)));
  // keyword, NUL, not compressed, method 0, no language tag, no translated keyword, the text
  const itxt = { type: 'iTXt', data: Buffer.concat([Buffer.from(`${keyword}\0\0\0\0\0`, 'latin1'), Buffer.from(text, 'utf8')]) };
  const [header, ...rest] = chunks;
  if (header?.type !== 'IHDR') throw new Error('PNG without its IHDR chunk first');
  return Buffer.concat([SIGNATURE, ...[header, itxt, ...rest].map(encodeChunk)]);
}

/** The text of the PNG's uncompressed iTXt chunk `keyword`, if it has one. */
export function pngText(png: Buffer, keyword: string): string | undefined {
  const prefix = Buffer.from(`${keyword}\0\0\0\0\0`, 'latin1');
  const chunk = chunksOf(png).find((c) => c.type === 'iTXt' && c.data.subarray(0, prefix.length).equals(prefix));
  return chunk?.data.subarray(prefix.length).toString('utf8');
}
