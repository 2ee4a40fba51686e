import { errorMessage } from '@headway/protocol/internal';
import { McpError } from './mcp-error.js';

/** What an MCP tool call gives the run: its text, and its structured content when it sent some. */
export type McpToolResult = string | { text: string; structuredContent: Record<string, unknown> };

/** Where a result came from, for error messages. */
export interface ResultOrigin {
  server: string;
  tool: string;
}

/** Content blocks read from one result; more are summarised, not read (a hostile server may send millions). */
const MAX_BLOCKS = 1_000;
/** Characters kept per text block; the runtime truncates the whole result again for the model. */
const MAX_BLOCK_CHARS = 1_000_000;

function read(value: object, key: string): unknown {
  return (value as Record<string, unknown>)[key];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function short(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 200) : '';
}

function blockText(block: unknown): string {
  if (!isPlainObject(block)) return '[unreadable content block]';
  const type = read(block, 'type');
  switch (type) {
    case 'text': {
      const text = read(block, 'text');
      return typeof text === 'string' ? text.slice(0, MAX_BLOCK_CHARS) : '[text block without text]';
    }
    case 'image':
    case 'audio':
      return `[${type} ${short(read(block, 'mimeType')) || 'of unknown type'}]`;
    case 'resource_link':
      return `[resource ${[short(read(block, 'name')), short(read(block, 'uri'))].filter((s) => s !== '').join(' ')}]`;
    case 'resource': {
      const resource = read(block, 'resource');
      if (!isPlainObject(resource)) return '[resource]';
      const text = read(resource, 'text');
      return typeof text === 'string' ? text.slice(0, MAX_BLOCK_CHARS) : `[resource ${short(read(resource, 'uri'))}]`;
    }
    default:
      return `[${short(type) || 'unknown'} content]`;
  }
}

/**
 * Turns what an MCP server answered to `tools/call` into the tool's result for the run: text
 * blocks joined by newlines, other blocks summarised in brackets (the model gets no base64),
 * `structuredContent` kept beside the text. The answer is untrusted: a getter may throw, a proxy
 * may be revoked, arrays may be huge; none of that escapes as anything but a typed error.
 *
 * @throws {McpError} `MCP_TOOL_ERROR` with the tool's text when it answered `isError: true`;
 * `MCP_INVALID_RESULT` when the answer is not a tool result.
 */
export function mapCallToolResult(value: unknown, origin: ResultOrigin): McpToolResult {
  const where = `MCP server "${origin.server}", tool "${origin.tool}"`;
  let text: string;
  let structured: Record<string, unknown> | undefined;
  let isError: boolean;
  // The plain errors thrown in here never leave: the catch turns them into MCP_INVALID_RESULT.
  try {
    if (!isPlainObject(value))
      throw new TypeError(`expected an object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
    const content = read(value, 'content') ?? [];
    if (!Array.isArray(content)) throw new TypeError('content: expected an array');
    const parts: string[] = [];
    const count = Math.min(content.length, MAX_BLOCKS);
    for (let i = 0; i < count; i++) parts.push(blockText(content[i]));
    if (content.length > MAX_BLOCKS) parts.push(`[${String(content.length - MAX_BLOCKS)} more content blocks]`);
    text = parts.join('\n');
    const sc = read(value, 'structuredContent');
    if (sc !== undefined && !isPlainObject(sc)) throw new TypeError('structuredContent: expected an object');
    structured = sc;
    isError = read(value, 'isError') === true;
  } catch (error) {
    throw new McpError('MCP_INVALID_RESULT', `${where} answered with an invalid result: ${errorMessage(error)}`, {
      cause: error,
      server: origin.server,
      tool: origin.tool,
    });
  }
  if (isError) {
    throw new McpError('MCP_TOOL_ERROR', `${where} reported an error: ${text === '' ? '(no text)' : text}`, {
      server: origin.server,
      tool: origin.tool,
    });
  }
  return structured === undefined ? text : { text, structuredContent: structured };
}
