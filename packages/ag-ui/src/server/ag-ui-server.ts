// The endpoint behind both adapters (node:http and fetch): it decides the answer to a request
// and keeps the runs it started, each with one mapper whose AG-UI events are encoded once and
// written to every client attached to the run.
import type { AGUIEvent, RunAgentInput } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import {
  createProgressHub,
  HeadwayError,
  type Clock,
  type InternalErrorContext,
  type OnInternalError,
  type ProgressEvent,
  type ProgressEventBody,
  type ProgressHub,
  type ValidationIssue,
  systemClock,
} from '@headway/protocol';
import { adoptThenable, describeThrown, errorMessage, unrefClock } from '@headway/protocol/internal';
import { createReplayLog, type ReplayLog } from '@headway/sse';
import { AgUiError, type AgUiErrorCode } from '../ag-ui-error.js';
import { toAgUiEvents, type AgUiEventMapper } from '../mapping/to-ag-ui-events.js';
import { parseRunAgentInput, reattachOf, type ReattachRequest } from './run-input.js';

/** What a run function gets: the request, where to emit, and the signal that says stop. */
export interface AgUiRunContext {
  /** The validated `RunAgentInput`; its `runId` is the hub's run id. */
  input: RunAgentInput;
  /** Aborted when the run is cancelled (`server.cancel`) or every client went away (after `disconnectGraceMs`). */
  signal: AbortSignal;
  /** The run's progress hub: add sinks, or emit. */
  hub: ProgressHub;
  /** Emits an event on the run; after the run's terminal event it does nothing and returns `undefined`. */
  emit: (body: ProgressEventBody) => ProgressEvent | undefined;
  /**
   * A sink for events of another hub (`AgentRuntime`'s `sinks`, its `runStream()`): each is
   * emitted again on this run, so it gets this run's `runId` and `seq`.
   */
  sink: (event: ProgressEvent) => void;
}

/**
 * Starts a run. It may return a promise: when it settles without the run having ended, the
 * run ends with `run.finished` (or `run.cancelled` when the signal was aborted); when it
 * throws or rejects, with `run.error`.
 */
export type AgUiRunFunction = (context: AgUiRunContext) => unknown;

/** Options of {@link createAgUiServer}, {@link createAgUiHandler} and {@link createAgUiResponse}. */
export interface AgUiServerOptions {
  /** Starts a run for each new `RunAgentInput`. */
  run: AgUiRunFunction;
  /**
   * Where runs' events are kept for reattaching (default a new `createReplayLog()`). Give the
   * log an `@headway/sse` handler serves and the same runs are readable there, and runs other
   * code emits into it can be reattached to here.
   */
  log?: ReplayLog;
  /** How long a run with no client left keeps going before its signal is aborted (default 0: at once). */
  disconnectGraceMs?: number;
  /**
   * Secrets in tool results and arguments become `[REDACTED]` in the AG-UI frames (see
   * `toAgUiEvents`' `redact`), whoever emitted the events. `false` turns this off, for a
   * trusted, local client only.
   */
  redact?: false;
  /** Largest request body accepted (default 1 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /** A client whose unsent data passes this is disconnected (default 1 MiB); it can reattach. */
  maxBufferedBytes?: number;
  /** An SSE comment is sent to an idle client this often (default 15 000 ms; 0 turns it off). */
  heartbeatMs?: number;
  /**
   * Clock for the events' `ts`, run durations, heartbeats and the disconnect grace period
   * (default protocol's `systemClock`); its timers are unref'd.
   */
  clock?: Clock;
  /** Told about failures the endpoint survived: a hub sink that threw, a write to a closed client. */
  onInternalError?: OnInternalError<AgUiErrorContext>;
}

/** The places {@link AgUiErrorContext.where} names. */
export type AgUiErrorWhere = 'sink' | 'write' | 'encode';

/**
 * Where a failure the endpoint survived happened: `where` is `sink` (a hub sink threw), `write`
 * (a closed client) or `encode` (an AG-UI event the encoder could not write, left out).
 */
export interface AgUiErrorContext extends InternalErrorContext {
  readonly where: AgUiErrorWhere;
  readonly runId: string;
}

/** A client stream, whatever the server framework. */
export interface AgUiConnection {
  write(chunk: string): void;
  /** Bytes written and not yet sent. */
  bufferedBytes(): number;
  /** Ends the response normally. */
  end(): void;
  /** Cuts the response off (a slow client). */
  destroy(): void;
}

/** The parts of a request the endpoint reads. */
export interface AgUiRequest {
  method: string;
  url: URL;
  /**
   * The request's headers (a fetch `Headers`, or anything with its `get`): `content-type` must
   * name JSON on a POST, and `last-event-id` is read on a GET reattach.
   */
  headers: { get(name: string): string | null };
  /** The body as text, or a rejection with an {@link AgUiError} `AG_UI_BODY_TOO_LARGE` past `limit` bytes. */
  readBody(limit: number): Promise<string>;
}

/** A complete answer that is not a stream. */
export interface AgUiPlainAnswer {
  kind: 'plain';
  status: number;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A stream: call `start` with the connection once the 200 headers are out; call the function it returns when the client goes. */
export interface AgUiStreamAnswer {
  kind: 'stream';
  status: 200;
  headers: Record<string, string>;
  start(connection: AgUiConnection): () => void;
}

interface Client {
  connection: AgUiConnection;
  heartbeat: unknown;
  closed: boolean;
}

interface RunRecord {
  readonly runId: string;
  readonly hub: ProgressHub;
  readonly mapper: AgUiEventMapper;
  readonly controller: AbortController;
  readonly clients: Set<Client>;
  graceTimer: unknown;
}

const STREAM_HEADERS: Record<string, string> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

const HEARTBEAT = ': keep-alive\n\n';

function plain(
  status: number,
  code: AgUiErrorCode,
  message: string,
  issues?: readonly ValidationIssue[],
  headers: Record<string, string> = {},
): AgUiPlainAnswer {
  const body = issues === undefined ? { code, message } : { code, message, issues };
  return {
    kind: 'plain',
    status,
    headers: { ...headers, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: JSON.stringify(body),
  };
}

/** True for `application/json` and `application/<x>+json`, with any parameters. */
function isJsonMediaType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const type = (contentType.split(';', 1)[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

function nonNegativeInteger(name: string, value: number | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min) {
    throw new AgUiError('AG_UI_INVALID_OPTIONS', `${name} must be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}

/** The endpoint: answers requests, and cancels runs on demand. */
export interface AgUiServer {
  /** Decides the answer to one request (a stream, or a plain JSON error). */
  answer(request: AgUiRequest): Promise<AgUiPlainAnswer | AgUiStreamAnswer>;
  /** Aborts a running run's signal; false when no such run is running. */
  cancel(runId: string, reason?: string): boolean;
  /** Ids of the runs this endpoint started that have not ended. */
  activeRuns(): string[];
}

/**
 * Creates the endpoint behind {@link createAgUiHandler} and {@link createAgUiResponse}; use it
 * directly to serve both from one set of runs, or to cancel a run.
 *
 * @throws {AgUiError} `AG_UI_INVALID_OPTIONS` for out-of-range options.
 * @example
 * ```ts
 * const options = { run: async ({ emit }) => { emit({ type: 'text.delta', text: 'hi' }); } };
 * const server = agUiServerFor(options);        // the one createAgUiResponse(request, options) uses
 * app.post('/agent', (c) => createAgUiResponse(c.req.raw, options));
 * app.post('/agent/:runId/cancel', (c) => c.json({ cancelled: server.cancel(c.req.param('runId')) }));
 * ```
 */
export function createAgUiServer(options: AgUiServerOptions): AgUiServer {
  if (typeof (options as Partial<AgUiServerOptions>).run !== 'function') {
    throw new AgUiError('AG_UI_INVALID_OPTIONS', 'run must be a function that starts a run');
  }
  const log = options.log ?? createReplayLog();
  const graceMs = nonNegativeInteger('disconnectGraceMs', options.disconnectGraceMs, 0);
  const maxBodyBytes = nonNegativeInteger('maxBodyBytes', options.maxBodyBytes, 1024 * 1024, 1);
  const maxBufferedBytes = nonNegativeInteger('maxBufferedBytes', options.maxBufferedBytes, 1024 * 1024, 1);
  const heartbeatMs = nonNegativeInteger('heartbeatMs', options.heartbeatMs, 15_000);
  const clock = unrefClock(options.clock ?? systemClock);
  const timers = clock;
  const encoder = new EventEncoder();
  const redactOption = options.redact === false ? { redact: false as const } : {};
  const runs = new Map<string, RunRecord>();

  function internalError(error: unknown, runId: string, where: AgUiErrorWhere): void {
    try {
      options.onInternalError?.(error, { where, runId });
    } catch {
      // The callback may not break the endpoint either.
    }
  }

  /**
   * The SSE frames of `events`, each with `id: <seq>` of the headway event they came from;
   * frames that come from no event (the run's opening frames) carry no id. An event the
   * encoder cannot write is reported and left out rather than thrown into a request handler.
   */
  function encode(events: readonly AGUIEvent[], seq: number | undefined, runId: string): string {
    const id = seq === undefined || seq <= 0 ? '' : `id: ${seq}\n`;
    let text = '';
    for (const event of events) {
      try {
        text += id + encoder.encodeSSE(event);
      } catch (error) {
        internalError(error, runId, 'encode');
      }
    }
    return text;
  }

  function send(client: Client, chunk: string, runId: string): void {
    if (client.closed) return;
    try {
      client.connection.write(chunk);
      if (client.connection.bufferedBytes() > maxBufferedBytes) {
        closeClient(client);
        client.connection.destroy();
      }
    } catch (error) {
      internalError(error, runId, 'write');
      closeClient(client);
    }
  }

  function closeClient(client: Client): void {
    if (client.closed) return;
    client.closed = true;
    if (client.heartbeat !== undefined) timers.clearTimeout(client.heartbeat);
  }

  function armHeartbeat(client: Client, runId: string): void {
    if (heartbeatMs === 0 || client.closed) return;
    client.heartbeat = timers.setTimeout(() => {
      send(client, HEARTBEAT, runId);
      armHeartbeat(client, runId);
    }, heartbeatMs);
  }

  function sweep(): void {
    for (const record of runs.values()) {
      if (record.mapper.ended && record.clients.size === 0 && !log.has(record.runId)) runs.delete(record.runId);
    }
  }

  function detach(record: RunRecord, client: Client): void {
    closeClient(client);
    record.clients.delete(client);
    if (record.clients.size > 0 || record.mapper.ended || record.controller.signal.aborted) return;
    const abort = (): void => {
      record.graceTimer = undefined;
      if (record.clients.size === 0 && !record.mapper.ended)
        record.controller.abort(new AgUiError('AG_UI_CLIENTS_GONE', 'Every client of the run disconnected'));
    };
    if (graceMs === 0) abort();
    else record.graceTimer = timers.setTimeout(abort, graceMs);
  }

  function attach(record: RunRecord, connection: AgUiConnection, first: string): () => void {
    const client: Client = { connection, heartbeat: undefined, closed: false };
    if (record.graceTimer !== undefined) {
      timers.clearTimeout(record.graceTimer);
      record.graceTimer = undefined;
    }
    record.clients.add(client);
    send(client, first, record.runId);
    if (record.mapper.ended) {
      closeClient(client);
      record.clients.delete(client);
      connection.end();
      return () => undefined;
    }
    armHeartbeat(client, record.runId);
    return () => {
      detach(record, client);
    };
  }

  function startRun(input: RunAgentInput): AgUiStreamAnswer {
    const hub = createProgressHub({
      runId: input.runId,
      clock,
      onInternalError: (error) => {
        internalError(error, input.runId, 'sink');
      },
    });
    const mapper = toAgUiEvents({ threadId: input.threadId, runId: input.runId, input, ...redactOption });
    const record: RunRecord = {
      runId: input.runId,
      hub,
      mapper,
      controller: new AbortController(),
      clients: new Set(),
      graceTimer: undefined,
    };
    // Encoded before the run is registered: nothing is kept for a request that cannot be answered.
    const first = encode(mapper.start(), undefined, input.runId);
    runs.set(input.runId, record);
    hub.add(
      (event) => {
        const out = mapper.push(event);
        if (out.length === 0) return;
        const chunk = encode(out, event.seq, record.runId);
        for (const client of [...record.clients]) send(client, chunk, record.runId);
        if (mapper.ended) {
          for (const client of [...record.clients]) {
            closeClient(client);
            client.connection.end();
          }
          record.clients.clear();
        }
      },
      { name: 'ag-ui' },
    );
    log.attach(hub);
    return {
      kind: 'stream',
      status: 200,
      headers: STREAM_HEADERS,
      start(connection) {
        const detachClient = attach(record, connection, first);
        execute(record, input);
        return detachClient;
      },
    };
  }

  function execute(record: RunRecord, input: RunAgentInput): void {
    const { hub, controller } = record;
    const started = clock.now();
    const emit = (body: ProgressEventBody): ProgressEvent | undefined => (hub.ended ? undefined : hub.emit(body));
    const end = (outcome: 'settled' | 'threw', thrown?: unknown): void => {
      if (hub.ended) return;
      const durationMs = Math.max(0, clock.now() - started);
      if (outcome === 'threw' && !controller.signal.aborted) emit({ type: 'run.error', error: describeThrown(thrown) });
      else if (controller.signal.aborted) emit({ type: 'run.cancelled', reason: errorMessage(controller.signal.reason) });
      else emit({ type: 'run.finished', durationMs, outcome: 'completed' });
    };
    const context: AgUiRunContext = {
      input,
      signal: controller.signal,
      hub,
      emit,
      sink(event) {
        const { runId: _runId, seq: _seq, ts: _ts, ...body } = event;
        emit(body);
      },
    };
    let result: unknown;
    try {
      result = options.run(context);
    } catch (error) {
      end('threw', error);
      return;
    }
    // The return value is untrusted: a `then` that throws or calls back twice becomes an ordinary promise.
    const pending = adoptThenable(result);
    if (pending === undefined) {
      end('settled');
      return;
    }
    pending.then(
      () => {
        end('settled');
      },
      (error: unknown) => {
        end('threw', error);
      },
    );
  }

  function reattach(request: ReattachRequest): AgUiPlainAnswer | AgUiStreamAnswer {
    const record = runs.get(request.runId);
    if (record !== undefined) {
      if (request.lastSeq !== undefined && request.lastSeq > record.hub.lastSeq) return ahead(request, record.hub.lastSeq);
      return {
        kind: 'stream',
        status: 200,
        headers: STREAM_HEADERS,
        start(connection) {
          // Taken when the stream starts, in the same tick as attaching: nothing can slip between.
          return attach(record, connection, encode(record.mapper.snapshot(), record.mapper.lastSeq, record.runId));
        },
      };
    }
    return reattachFromLog(request);
  }

  function ahead(request: ReattachRequest, lastSeq: number): AgUiPlainAnswer {
    return plain(
      400,
      'AG_UI_LAST_SEQ_AHEAD',
      `lastSeq ${String(request.lastSeq)} is ahead of run ${JSON.stringify(request.runId)} (last seq ${lastSeq})`,
    );
  }

  /** A run this endpoint did not start, rebuilt from the log (which must hold it from its first event). */
  function reattachFromLog(request: ReattachRequest): AgUiPlainAnswer | AgUiStreamAnswer {
    const events = log.events(request.runId);
    if (events === undefined) return plain(404, 'AG_UI_UNKNOWN_RUN', `Unknown run ${JSON.stringify(request.runId)}`);
    const lastSeq = events.at(-1)?.seq ?? 0;
    if (request.lastSeq !== undefined && request.lastSeq > lastSeq) return ahead(request, lastSeq);
    if (events.length > 0 && events[0]?.seq !== 1) {
      return plain(410, 'AG_UI_EVENTS_EXPIRED', `The replay log no longer holds the start of run ${JSON.stringify(request.runId)}`);
    }
    return {
      kind: 'stream',
      status: 200,
      headers: STREAM_HEADERS,
      start(connection) {
        const mapper = toAgUiEvents({ runId: request.runId, ...redactOption });
        const client: Client = { connection, heartbeat: undefined, closed: false };
        const pull = (): void => {
          // The cursor only paces and wakes this reader; the events come from the log itself.
          if (opened?.ok === true) while (opened.cursor.take(Number.MAX_SAFE_INTEGER) !== undefined);
          for (const event of log.events(request.runId, mapper.lastSeq) ?? []) {
            const out = mapper.push(event);
            if (out.length > 0) send(client, encode(out, event.seq, request.runId), request.runId);
          }
        };
        for (const event of log.events(request.runId) ?? []) mapper.push(event);
        send(client, encode(mapper.snapshot(), mapper.lastSeq, request.runId), request.runId);
        const opened = mapper.ended
          ? undefined
          : log.open(request.runId, mapper.lastSeq, () => {
              pull();
              finishIfDone();
            });
        function finishIfDone(): void {
          const lost = opened !== undefined && (!opened.ok || opened.cursor.lost);
          if (!mapper.ended && !lost) return;
          if (!mapper.ended)
            send(client, encode(mapper.end('The replay log lost events of the run'), mapper.lastSeq, request.runId), request.runId);
          if (opened?.ok === true) opened.cursor.close();
          if (!client.closed) {
            closeClient(client);
            connection.end();
          }
        }
        pull();
        finishIfDone();
        armHeartbeat(client, request.runId);
        return () => {
          closeClient(client);
          if (opened?.ok === true) opened.cursor.close();
        };
      },
    };
  }

  async function readJson(request: AgUiRequest): Promise<{ ok: true; value: unknown } | { ok: false; answer: AgUiPlainAnswer }> {
    let text: string;
    try {
      text = await request.readBody(maxBodyBytes);
    } catch (error) {
      if (HeadwayError.isInstance(error, 'AG_UI_BODY_TOO_LARGE'))
        return { ok: false, answer: plain(413, 'AG_UI_BODY_TOO_LARGE', `The request body is larger than ${maxBodyBytes} bytes`) };
      return { ok: false, answer: plain(400, 'AG_UI_INVALID_JSON', `The request body could not be read: ${describeThrown(error, 200)}`) };
    }
    try {
      return { ok: true, value: JSON.parse(text) as unknown };
    } catch (error) {
      const message = `The request body is not JSON: ${describeThrown(error, 200)}`;
      return { ok: false, answer: plain(400, 'AG_UI_INVALID_JSON', message, [{ path: '', message }]) };
    }
  }

  return {
    async answer(request) {
      sweep();
      if (request.method === 'GET') {
        const runId = request.url.searchParams.get('runId');
        if (runId === null || runId === '') return plain(404, 'AG_UI_UNKNOWN_RUN', 'No run named in the request (?runId=)');
        // An EventSource that reconnects sends the id of the last frame it got as Last-Event-ID.
        const rawSeq = request.url.searchParams.get('lastSeq') ?? request.headers.get('last-event-id');
        const lastSeq = rawSeq === null ? undefined : /^(?:0|[1-9]\d{0,15})$/.test(rawSeq) ? Number(rawSeq) : Number.NaN;
        if (lastSeq !== undefined && !Number.isSafeInteger(lastSeq)) {
          return plain(400, 'AG_UI_INVALID_INPUT', 'lastSeq must be a non-negative integer', [
            { path: 'lastSeq', message: 'expected a non-negative integer' },
          ]);
        }
        return reattach({ runId, lastSeq });
      }
      if (request.method !== 'POST')
        return plain(405, 'AG_UI_METHOD_NOT_ALLOWED', 'Use POST (or GET ?runId= to reattach)', undefined, { allow: 'GET, POST' });
      // Only JSON: a page may POST text/plain, a form or multipart to any origin without a CORS
      // preflight, and could start a run on a local endpoint with its own prompt.
      if (!isJsonMediaType(request.headers.get('content-type'))) {
        return plain(415, 'AG_UI_UNSUPPORTED_MEDIA_TYPE', 'The request body must be JSON (content-type: application/json)', undefined, {
          accept: 'application/json',
        });
      }
      const body = await readJson(request);
      if (!body.ok) return body.answer;
      let input: RunAgentInput;
      let wanted: ReattachRequest | undefined;
      try {
        input = parseRunAgentInput(body.value);
        wanted = reattachOf(input);
      } catch (error) {
        const issues = AgUiError.isInstance(error) ? error.issues : [];
        return plain(400, 'AG_UI_INVALID_INPUT', AgUiError.isInstance(error) ? error.message : describeThrown(error), issues);
      }
      if (wanted !== undefined) return reattach(wanted);
      if (runs.has(input.runId) || log.has(input.runId)) {
        return plain(
          409,
          'AG_UI_RUN_EXISTS',
          `Run ${JSON.stringify(input.runId)} exists; reattach with forwardedProps.headway.reattach, or use a new runId`,
        );
      }
      return startRun(input);
    },
    cancel(runId, reason) {
      const record = runs.get(runId);
      if (record === undefined || record.mapper.ended || record.controller.signal.aborted) return false;
      record.controller.abort(new AgUiError('AG_UI_RUN_CANCELLED', reason ?? 'Cancelled'));
      return true;
    },
    activeRuns() {
      return [...runs.values()].filter((r) => !r.mapper.ended).map((r) => r.runId);
    },
  };
}
