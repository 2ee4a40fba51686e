import { redactString } from './redact.js';
import { safeStringify } from './safe-stringify.js';

function toText(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined) return '';
  if (result === null) return 'null';
  if (result instanceof Error) return result.message;
  if (typeof result === 'object') return safeStringify(result) ?? '';
  if (typeof result === 'function') return `[function ${result.name || 'anonymous'}]`;
  if (typeof result === 'symbol') return result.toString();
  if (typeof result === 'number' || typeof result === 'boolean' || typeof result === 'bigint') return String(result);
  return '';
}

/**
 * Characters of a string result looked at beyond `maxLength`: a preview reads the head of the
 * text only, so its cost does not grow with a multi-megabyte result.
 */
const HEAD_SLACK = 64 * 1024;

/** Options of {@link toolResultPreview}. */
export interface ToolResultPreviewOptions {
  /**
   * Secret-shaped text (API keys, `DB_PASSWORD=…`, bearer tokens, URL passwords: protocol's
   * `redactString`) is replaced before the preview is cut, so no cut can leave half a secret
   * unrecognised. Default on; `false` keeps the text as it is; `{ censor }` sets the
   * replacement (default `[REDACTED]`).
   */
  redact?: false | { censor?: string };
}

/**
 * A one-line preview of a tool's result for a person to glance at: secrets redacted,
 * whitespace collapsed, trimmed, and cut so that the preview, `...` included, is exactly
 * `maxLength` characters. Strings as they are, objects as JSON, Errors as their message; never
 * throws. Only the first `maxLength` + 64 Ki characters of the text are read.
 *
 * @example
 * ```ts
 * toolResultPreview({ rows: 15 }); // '{"rows":15}'
 * toolResultPreview('a'.repeat(500), 10); // 'aaaaaaa...'
 * toolResultPreview('OPENAI_API_KEY=sk-proj-0123456789abcdefghij'); // 'OPENAI_API_KEY=[REDACTED]'
 * ```
 */
export function toolResultPreview(result: unknown, maxLength = 100, options: ToolResultPreviewOptions = {}): string {
  const limit = Number.isFinite(maxLength) ? Math.max(0, Math.floor(maxLength)) : 100;
  let text: string;
  try {
    text = toText(result);
  } catch {
    text = '[unreadable result]';
  }
  let read = text.length > limit + HEAD_SLACK ? text.slice(0, limit + HEAD_SLACK) : text;
  if (options.redact !== false) read = redactString(read, options.redact?.censor ?? '[REDACTED]');
  const collapsed = read.replace(/\s+/g, ' ').trim();
  if (collapsed.length <= limit) return collapsed;
  if (limit <= 3) return '.'.repeat(limit);
  let head = collapsed.slice(0, limit - 3);
  // Never leave half of a surrogate pair at the cut; keep the length exact.
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = `${head.slice(0, -1)}.`;
  return `${head}...`;
}
