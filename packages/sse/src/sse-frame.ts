import { safeStringify, type ProgressEvent } from '@headway/protocol';
import { SseError } from './sse-error.js';

/** The fields of one Server-Sent Events frame. */
export interface SseFrame {
  /** Becomes the client's `lastEventId`; may not contain CR, LF or NUL. */
  id?: string;
  /** The event name (`progress` for headway events); may not contain CR or LF. */
  event?: string;
  /** Any text: line breaks (LF, CR, CRLF) are split into several `data:` lines. */
  data: string;
  /** Reconnection delay the client should use, in ms (a non-negative integer). */
  retry?: number;
}

/** The SSE event name headway's progress events are sent under. */
export const SSE_EVENT_NAME = 'progress';

/** A comment frame that keeps idle connections (and proxies) from timing out. */
export const SSE_HEARTBEAT = ':\n\n';

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * Writes one frame in the `text/event-stream` format.
 *
 * `data` is split at every line break so a parser joins it back (the format turns each
 * `data:` line into one line of the data, so CR and CRLF arrive as LF; NUL and every other
 * character arrive unchanged); a line starting with a space keeps it, because exactly one
 * space after the colon is always written. Progress events are JSON, in which every line
 * break is escaped, so they arrive exactly.
 *
 * @throws {SseError} `SSE_INVALID_FRAME` for an `id` or `event` that would break the
 * framing, or a `retry` that is not a non-negative integer.
 * @example
 * ```ts
 * formatSseFrame({ id: '3', event: 'progress', data: 'a\nb' });
 * // 'id: 3\nevent: progress\ndata: a\ndata: b\n\n'
 * ```
 */
export function formatSseFrame(frame: SseFrame): string {
  let out = '';
  if (frame.id !== undefined) {
    if (/[\r\n\0]/.test(frame.id)) throw new SseError('SSE_INVALID_FRAME', 'SSE id may not contain CR, LF or NUL');
    out += `id: ${frame.id}\n`;
  }
  if (frame.event !== undefined) {
    if (/[\r\n]/.test(frame.event)) throw new SseError('SSE_INVALID_FRAME', 'SSE event name may not contain CR or LF');
    out += `event: ${frame.event}\n`;
  }
  if (frame.retry !== undefined) {
    if (!Number.isSafeInteger(frame.retry) || frame.retry < 0) {
      throw new SseError('SSE_INVALID_FRAME', `SSE retry must be a non-negative integer, got ${String(frame.retry)}`);
    }
    out += `retry: ${frame.retry}\n`;
  }
  for (const line of frame.data.split(LINE_BREAK)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/**
 * The frame of one progress event: `id: <seq>`, `event: progress`, `data: <JSON>`.
 *
 * An event that plain `JSON.stringify` cannot write (a circular or bigint `args`) is
 * written with `safeStringify` instead, so it still goes out. JSON escapes every control
 * character, so the data is always one line.
 */
export function formatProgressFrame(event: ProgressEvent): string {
  let data: string;
  try {
    data = JSON.stringify(event);
  } catch {
    data = safeStringify(event) ?? 'null';
  }
  return `id: ${event.seq}\nevent: ${SSE_EVENT_NAME}\ndata: ${data}\n\n`;
}

/** The frame that tells a client how long to wait before reconnecting. */
export function formatRetryFrame(retryMs: number): string {
  if (!Number.isSafeInteger(retryMs) || retryMs < 0) {
    throw new SseError('SSE_INVALID_FRAME', `SSE retry must be a non-negative integer, got ${String(retryMs)}`);
  }
  return `retry: ${retryMs}\n\n`;
}
