// The browser entry: EventSource only, nothing from Node.
import type { ProgressEvent, TerminalEvent } from '@headway/protocol';
import { parseProgressEventJsonLite } from '@headway/protocol/validate-lite';
import { createEventGate, parseLastEventId, type InvalidEventHandler } from './event-gate.js';
import { abortReason } from './abort-reason.js';
import { SseError } from './sse-error.js';
import { SSE_EVENT_NAME } from './sse-frame.js';

export { SseError } from './sse-error.js';
export type { SseErrorCode, SseErrorOptions } from './sse-error.js';
export type { InvalidEventHandler } from './event-gate.js';

/** The part of a browser `MessageEvent` the client reads. */
export interface EventSourceMessage {
  readonly data: string;
}

/** The part of the browser's `EventSource` the client uses. */
export interface EventSourceLike {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: EventSourceMessage) => void): void;
  close(): void;
}

/** A constructor like the browser's `EventSource`. */
export type EventSourceConstructor = new (url: string, init?: { withCredentials?: boolean }) => EventSourceLike;

/** Options of the browser {@link subscribeToRun}. */
export interface BrowserSubscribeOptions {
  /** Every valid event, in `seq` order, each exactly once. */
  onEvent: (event: ProgressEvent) => void;
  /** Aborting closes the `EventSource` and rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Resume after this event (`seq`), e.g. one kept in `sessionStorage` across a reload. It
   * is sent as the `lastEventId` query parameter, since `EventSource` cannot set headers;
   * later reconnects send the `Last-Event-ID` header, which the server prefers.
   */
  lastEventId?: string | number;
  /** Told about each event that failed validation (it is not delivered). */
  onInvalid?: InvalidEventHandler;
  /** Send cookies cross-origin (the server must allow the origin with `credentials`). */
  withCredentials?: boolean;
  /** The `EventSource` to use (default the global one). */
  EventSource?: EventSourceConstructor;
}

const CLOSED = 2;

function withQuery(url: string, name: string, value: string): string {
  const hash = url.indexOf('#');
  const base = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : url.slice(hash);
  return `${base}${base.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(value)}${fragment}`;
}

/**
 * Follows a run's SSE stream in a browser until its terminal event. `EventSource`
 * reconnects by itself with `Last-Event-ID`; events are validated and de-duplicated by
 * `seq`, so a reconnect never loses or repeats one.
 *
 * Resolves with the terminal event. Rejects with `SseError` `SSE_CONNECTION_FAILED` when
 * the browser gives up (the server refused the request: 4xx, or 204 for a run that had
 * already ended), with whatever `onEvent` throws, or with the abort reason.
 *
 * @example
 * ```ts
 * import { subscribeToRun } from '@headway/sse/client';
 * await subscribeToRun(`/runs/${runId}/events`, {
 *   onEvent: (event) => {
 *     if (event.type === 'progress') bar.value = event.percent;
 *     sessionStorage.setItem('lastSeq', String(event.seq));
 *   },
 *   lastEventId: sessionStorage.getItem('lastSeq') ?? undefined,
 * });
 * ```
 */
export async function subscribeToRun(url: string | URL, options: BrowserSubscribeOptions): Promise<TerminalEvent> {
  const startAfter = parseLastEventId(options.lastEventId);
  const Source = options.EventSource ?? (globalThis as { EventSource?: EventSourceConstructor }).EventSource;
  return new Promise<TerminalEvent>((resolve, reject) => {
    const { signal } = options;
    if (Source === undefined) {
      reject(new SseError('SSE_INVALID_OPTIONS', 'No EventSource in this environment; pass options.EventSource'));
      return;
    }
    if (signal?.aborted === true) {
      reject(abortReason(signal));
      return;
    }
    const href = String(url);
    const source = new Source(startAfter === undefined ? href : withQuery(href, 'lastEventId', String(startAfter)), {
      withCredentials: options.withCredentials === true,
    });
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      source.close();
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const onAbort = (): void => {
      finish(() => {
        reject(abortReason(signal));
      });
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const gate = createEventGate(startAfter, options.onEvent, options.onInvalid, (data) => parseProgressEventJsonLite(data));
    source.addEventListener(SSE_EVENT_NAME, (message) => {
      if (settled) return;
      try {
        const terminal = gate.receive(message.data);
        if (terminal !== undefined) {
          finish(() => {
            resolve(terminal);
          });
        }
      } catch (error) {
        finish(() => {
          // The gate throws SseError or ProtocolError; the fallback only guards against the impossible.
          reject(error instanceof Error ? error : new Error(String(error)));
        });
      }
    });
    source.addEventListener('error', () => {
      // While CONNECTING the browser is retrying by itself; CLOSED means it gave up.
      if (source.readyState !== CLOSED) return;
      finish(() => {
        reject(new SseError('SSE_CONNECTION_FAILED', `The server refused or ended the SSE stream ${href} before the run's terminal event`));
      });
    });
  });
}
