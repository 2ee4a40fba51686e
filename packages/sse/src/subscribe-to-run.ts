import { parseProgressEventJson, systemClock, type Clock, type ProgressEvent, type TerminalEvent } from '@headway/protocol';
import { abortError, sleep } from '@headway/protocol/internal';
import { createParser } from 'eventsource-parser';
import { createEventGate, parseLastEventId, type InvalidEventHandler } from './event-gate.js';
import { SseError } from './sse-error.js';
import { SSE_EVENT_NAME } from './sse-frame.js';

/** Options of {@link subscribeToRun} (Node, and any runtime with `fetch`). */
export interface SubscribeOptions {
  /** Every valid event, in `seq` order, each exactly once. */
  onEvent: (event: ProgressEvent) => void;
  /** Aborting closes the connection and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Resume after this event (`seq`): only later events are delivered. */
  lastEventId?: string | number;
  /** Told about each event that failed validation (it is not delivered). */
  onInvalid?: InvalidEventHandler;
  /** Extra request headers, e.g. `authorization`. */
  headers?: Record<string, string>;
  /** Failed connection attempts in a row before giving up (default 10). */
  maxRetries?: number;
  /** First reconnection delay in ms (default 1000, or what the server's `retry:` says); doubles per failure in a row, up to 30 s. */
  retryMs?: number;
  /** The `fetch` to use (default the global one). */
  fetch?: typeof fetch;
  /** Timers the client waits between reconnects on (default protocol's `systemClock`). */
  clock?: Clock;
  /**
   * Characters the server may send without completing an event or a comment (default 4 MiB +
   * 64 Ki, a little above what `parseProgressEventJson` reads). A server past it is cut off
   * and the subscription rejects with `SSE_FRAME_TOO_LARGE`, instead of buffering without end.
   */
  maxEventLength?: number;
}

const DEFAULT_MAX_EVENT_LENGTH = 4 * 1024 * 1024 + 64 * 1024;

const PERMANENT = new Set([400, 401, 403, 404, 405, 410]);

const ABORTED = 'The subscription was aborted';

// A function, so checks after an await are not narrowed away by the one before it.
/** A terminal event nothing can follow: only a `run.error` may end an attempt that a resumed run continues. */
function isFinal(terminal: TerminalEvent | undefined): boolean {
  return terminal !== undefined && terminal.type !== 'run.error';
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/**
 * Follows a run's SSE stream until its terminal event, reconnecting with `Last-Event-ID`
 * after a dropped connection so nothing is missed or repeated. `run.finished` and
 * `run.cancelled` end the subscription at once. A `run.error` may end only an attempt: a run
 * resumed after its worker was lost (as `@headway/redis` serves it) goes on after it in the same
 * stream, so after a `run.error` the subscription follows the stream until the server ends it.
 *
 * Resolves with the terminal event the run ended with (after a `run.error`: once the server
 * ended the stream, or confirmed with 204 that nothing follows), or `undefined` when the server answers 204 before any
 * terminal event (the run had already ended before `lastEventId`'s successor). Rejects with `SseError`
 * `SSE_HTTP_STATUS` on 400/401/403/404/405/410 (not retried), `SSE_CONNECTION_FAILED` after
 * `maxRetries` failed attempts in a row, whatever `onEvent` throws, or the abort reason.
 *
 * @example
 * ```ts
 * const end = await subscribeToRun('http://127.0.0.1:8080/runs/run-1', {
 *   onEvent: (event) => { if (event.type === 'progress') console.log(`${event.percent}%`); },
 *   onInvalid: (error) => console.warn(error.message),
 * });
 * console.log('run ended with', end?.type);
 * ```
 */
export async function subscribeToRun(url: string | URL, options: SubscribeOptions): Promise<TerminalEvent | undefined> {
  const doFetch = options.fetch ?? fetch;
  const clock = options.clock ?? systemClock;
  const maxRetries = options.maxRetries ?? 10;
  const maxEventLength = options.maxEventLength ?? DEFAULT_MAX_EVENT_LENGTH;
  let retryMs = options.retryMs ?? 1000;
  const { signal } = options;
  const gate = createEventGate(parseLastEventId(options.lastEventId), options.onEvent, options.onInvalid, (data) =>
    parseProgressEventJson(data),
  );
  let failures = 0;
  /** The last terminal event delivered, until a later event says the run went on after it. */
  let terminal: TerminalEvent | undefined;

  for (;;) {
    if (isAborted(signal)) throw abortError(signal, ABORTED);
    const connection = new AbortController();
    const onAbort = (): void => {
      connection.abort();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let callbackFailure: { error: unknown } | undefined;
    let received = 0;
    /** Characters fed since the last complete event or comment. */
    let pending = 0;
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream', 'cache-control': 'no-cache', ...options.headers };
      if (gate.lastSeq !== undefined) headers['last-event-id'] = String(gate.lastSeq);
      let response: Response | undefined;
      try {
        response = await doFetch(url, { headers, signal: connection.signal });
      } catch {
        // Network failure: retried below, unless it was our abort.
        if (isAborted(signal)) throw abortError(signal, ABORTED);
      }
      if (response?.status === 204) return terminal;
      if (response !== undefined && PERMANENT.has(response.status)) {
        const text = await response.text().catch(() => '');
        throw new SseError(
          'SSE_HTTP_STATUS',
          `SSE subscription refused with HTTP ${response.status}${text === '' ? '' : `: ${text.slice(0, 300)}`}`,
          {
            status: response.status,
          },
        );
      }
      if (response?.ok === true && response.body !== null) {
        const parser = createParser({
          onEvent(message) {
            pending = 0;
            if (callbackFailure !== undefined || (message.event ?? 'message') !== SSE_EVENT_NAME) return;
            received += 1;
            try {
              const before = gate.lastSeq;
              const end = gate.receive(message.data);
              // A repeat is dropped by the gate; a delivered event is the run's latest word on whether it ended.
              if (gate.lastSeq !== before) terminal = end;
            } catch (error) {
              callbackFailure = { error };
            }
          },
          onRetry(ms) {
            retryMs = ms;
          },
          onComment() {
            pending = 0;
          },
        });
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let ended = false;
        try {
          while (callbackFailure === undefined && !isFinal(terminal)) {
            const { done, value } = await reader.read();
            if (done) {
              ended = true;
              break;
            }
            pending += value.length;
            parser.feed(value);
            if (pending > maxEventLength) {
              callbackFailure = {
                error: new SseError(
                  'SSE_FRAME_TOO_LARGE',
                  `The SSE server sent more than ${String(maxEventLength)} characters without completing an event (maxEventLength)`,
                ),
              };
            }
          }
        } catch {
          // A dropped connection: reconnected below, unless it was our abort.
          if (isAborted(signal)) throw abortError(signal, ABORTED);
        } finally {
          connection.abort();
        }
        if (callbackFailure !== undefined) throw callbackFailure.error;
        // A run that finished or was cancelled has ended. After a run.error the server's end of the
        // stream says nothing follows it; a dropped connection is asked again.
        if (isFinal(terminal) || (terminal !== undefined && ended)) return terminal;
      } else {
        await response?.body?.cancel().catch(() => undefined);
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    failures = received > 0 ? 0 : failures + 1;
    if (failures > maxRetries) {
      throw new SseError('SSE_CONNECTION_FAILED', `SSE connection to ${String(url)} failed ${failures} times in a row`);
    }
    const delay = failures === 0 ? retryMs : Math.min(30_000, retryMs * 2 ** (failures - 1));
    await sleep(clock, delay, signal, ABORTED);
  }
}
