import { progressEventSchema, type ProgressEvent } from './events.js';
import { describeIssues, toValidationIssues } from './format-issues.js';
import { ProtocolError } from './protocol-error.js';

/**
 * Validates untrusted input (an event read back from JSON lines, SSE, a database) and
 * returns it typed.
 *
 * @throws {ProtocolError} `PROTOCOL_INVALID_EVENT`, whose message names every offending
 * path; nothing else is ever thrown, whatever the input.
 * @example
 * ```ts
 * const event = parseProgressEvent(JSON.parse(line));
 * if (event.type === 'progress') bar.update(event.percent);
 * ```
 */
export function parseProgressEvent(input: unknown): ProgressEvent {
  let result;
  try {
    result = progressEventSchema.safeParse(input);
  } catch (cause) {
    // Hostile inputs (throwing getters, revoked proxies) must still end in a ProtocolError.
    throw new ProtocolError('PROTOCOL_INVALID_EVENT', 'Invalid progress event: input could not be read', [], { cause });
  }
  if (result.success) return result.data;
  const issues = toValidationIssues(result.error);
  const type = typeof input === 'object' && input !== null && 'type' in input ? (input).type : undefined;
  const label = typeof type === 'string' ? ` (type "${type}")` : '';
  throw new ProtocolError('PROTOCOL_INVALID_EVENT', `Invalid progress event${label}: ${describeIssues(issues)}`, issues);
}

/**
 * Parses one line of JSON text into a validated event.
 *
 * @throws {ProtocolError} `PROTOCOL_INVALID_EVENT` for text that is not JSON or not an event.
 */
export function parseProgressEventJson(text: string): ProgressEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ProtocolError('PROTOCOL_INVALID_EVENT', `Invalid progress event: not JSON (${reason})`, [{ path: '', message: 'not JSON' }], {
      cause,
    });
  }
  return parseProgressEvent(value);
}
