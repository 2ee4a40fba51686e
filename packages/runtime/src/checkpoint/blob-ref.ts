import { createHash } from 'node:crypto';

/** The reference of a stored text: derived from its content, so storing it twice stores it once. */
export function blobRef(content: string): string {
  return `blob:sha256:${createHash('sha256').update(content).digest('hex')}`;
}
