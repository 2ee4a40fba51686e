import type { ProgressEvent, TerminalEvent } from '@headway/protocol';
// Only the zod-free subpath here: the browser client bundles this file.
import { isTerminalEventLite, ProtocolError } from '@headway/protocol/validate-lite';
import { SseError } from './sse-error.js';

/** Called with each event that arrived but failed validation (it is not delivered). */
export type InvalidEventHandler = (error: ProtocolError, data: string) => void;

/** What a subscription does with one received `progress` frame. */
export interface EventGate {
  /** `seq` of the last event delivered (or the `lastEventId` it started from); the resume point. */
  readonly lastSeq: number | undefined;
  /** Validates `data`, drops repeats, delivers; returns the terminal event when this was it. */
  receive(data: string): TerminalEvent | undefined;
}

/**
 * Parses a `lastEventId` option: a non-negative integer (as a number or decimal text).
 *
 * @throws {SseError} `SSE_INVALID_OPTIONS` for anything else.
 */
export function parseLastEventId(value: string | number | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new SseError('SSE_INVALID_OPTIONS', `lastEventId must be a non-negative integer, got ${JSON.stringify(value)}`, {
      issues: [{ path: 'lastEventId', message: 'must be a non-negative integer' }],
    });
  }
  return n;
}

/**
 * The validation both clients share: every frame is parsed with `parse`
 * (an invalid one goes to `onInvalid`, never to `onEvent`), and an event whose `seq` is not
 * after the last delivered one is dropped, so a reconnect can never deliver a duplicate.
 */
export function createEventGate(
  startAfter: number | undefined,
  onEvent: (event: ProgressEvent) => void,
  onInvalid: InvalidEventHandler | undefined,
  /** `parseProgressEventJson` (Node) or the zod-free `parseProgressEventJsonLite` (browser). */
  parse: (data: string) => ProgressEvent,
): EventGate {
  let lastSeq = startAfter;
  return {
    get lastSeq() {
      return lastSeq;
    },
    receive(data) {
      let event: ProgressEvent;
      try {
        event = parse(data);
      } catch (error) {
        if (onInvalid !== undefined && error instanceof ProtocolError) onInvalid(error, data);
        return undefined;
      }
      if (lastSeq !== undefined && event.seq <= lastSeq) return undefined;
      lastSeq = event.seq;
      onEvent(event);
      return isTerminalEventLite(event) ? event : undefined;
    },
  };
}
