import { compileCors, type CompiledCors, type CorsOptions } from './cors.js';
import type { ReplayCursor, ReplayOpenResult } from './replay-log.js';
import { systemClock, type Clock } from '@headway/protocol';
import type { DisconnectReason } from './client-stream.js';
import { SseError } from './sse-error.js';
import { logOf, type ReplaySource, type SseSource } from './sse-source.js';

/** What `authorize` may answer: `true` allows; `false` or `403` forbids; `401` asks for credentials. */
export type AuthorizeResult = boolean | 401 | 403;

/** Options shared by {@link createSseHandler} and {@link createSseResponse}; `Req` is the request type of each. */
export interface SseServeOptions<Req> {
  /** A replay log (serves any run it holds) or one run's progress hub (serves that run). */
  source: SseSource;
  /** Allows or denies `runId` to this request; runs before the run is looked up, so a denied client learns nothing. */
  authorize?: (req: Req, runId: string) => AuthorizeResult | Promise<AuthorizeResult>;
  /** Which run the request asks for. Default: the hub's run; for a log, the `runId` query parameter, else the last path segment. */
  runId?: (req: Req) => string | undefined;
  /** Cross-origin access; without it no CORS headers are sent. */
  cors?: CorsOptions;
  /** A `:` comment is sent to an idle client this often (default 15 000 ms; 0 turns it off). */
  heartbeatMs?: number;
  /** A client whose unsent data passes this is disconnected (default 1 MiB). */
  maxBufferedBytes?: number;
  /** The `retry:` reconnection delay sent to clients (default 2000 ms). */
  retryMs?: number;
  /** Timers of the heartbeats (default protocol's `systemClock`). */
  clock?: Clock;
  /** Told when a client's stream ends and why (`slow` = cut off for backpressure). */
  onDisconnect?: (info: { runId: string; reason: DisconnectReason }) => void;
}

/** The parts of a request the handlers look at, whatever the server framework. */
export interface RequestFacts {
  method: string;
  url: URL;
  origin: string | undefined;
  lastEventId: string | undefined;
}

/** A complete answer that is not a stream. */
export interface PlainAnswer {
  kind: 'plain';
  status: number;
  headers: Record<string, string>;
  body: string | undefined;
}

/** Start a stream from `cursor`; `setWake` tells the log whom to wake on new events. */
export interface StreamAnswer {
  kind: 'stream';
  runId: string;
  headers: Record<string, string>;
  cursor: ReplayCursor;
  setWake(wake: () => void): void;
}

/** Validated serving settings. */
export interface ServeSettings<Req> {
  log: ReplaySource;
  hubRunId: string | undefined;
  cors: CompiledCors | undefined;
  heartbeatMs: number;
  maxBufferedBytes: number;
  retryMs: number;
  clock: Clock;
  options: SseServeOptions<Req>;
}

function nonNegativeInteger(name: string, value: number | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min) {
    throw new SseError('SSE_INVALID_OPTIONS', `${name} must be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}

/** Checks the options once, when the handler is created. */
export function settle<Req>(options: SseServeOptions<Req>): ServeSettings<Req> {
  const { log, hubRunId } = logOf(options.source);
  return {
    log,
    hubRunId,
    cors: options.cors === undefined ? undefined : compileCors(options.cors),
    heartbeatMs: nonNegativeInteger('heartbeatMs', options.heartbeatMs, 15_000),
    maxBufferedBytes: nonNegativeInteger('maxBufferedBytes', options.maxBufferedBytes, 1024 * 1024, 1),
    retryMs: nonNegativeInteger('retryMs', options.retryMs, 2000),
    clock: options.clock ?? systemClock,
    options,
  };
}

const STREAM_HEADERS: Record<string, string> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

function plain(status: number, headers: Record<string, string>, code?: string, message?: string): PlainAnswer {
  if (code === undefined) return { kind: 'plain', status, headers, body: undefined };
  return {
    kind: 'plain',
    status,
    headers: { ...headers, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: JSON.stringify({ code, message }),
  };
}

/**
 * The URL of a request target, or `undefined` when it is none: Node's HTTP parser passes on
 * targets such as `http://[/runs/r1` that `new URL()` rejects by throwing.
 */
export function requestUrl(target: string, base?: string): URL | undefined {
  try {
    return new URL(target, base);
  } catch {
    return undefined;
  }
}

/** Tells `onDisconnect`, which may not throw into the stream's event handlers. */
export function notifyDisconnect<Req>(options: SseServeOptions<Req>, runId: string, reason: DisconnectReason): void {
  try {
    options.onDisconnect?.({ runId, reason });
  } catch {
    // A throwing callback must not become an uncaught exception in a socket's 'close' handler.
  }
}

function defaultRunId(url: URL): string | undefined {
  const fromQuery = url.searchParams.get('runId');
  if (fromQuery !== null && fromQuery !== '') return fromQuery;
  const segments = url.pathname.split('/').filter((s) => s !== '');
  const last = segments.at(-1);
  if (last === undefined) return undefined;
  try {
    return decodeURIComponent(last);
  } catch {
    return undefined;
  }
}

/** `Last-Event-ID` (header, else the `lastEventId` query parameter, which `EventSource` cannot send as a header on its first connection). */
function lastEventIdOf(facts: RequestFacts): string | undefined {
  if (facts.lastEventId !== undefined && facts.lastEventId !== '') return facts.lastEventId;
  const fromQuery = facts.url.searchParams.get('lastEventId');
  return fromQuery === null || fromQuery === '' ? undefined : fromQuery;
}

/**
 * Decides the answer to one request: a preflight, an error status, or a stream.
 *
 * Statuses: 204 preflight, or a finished run with nothing after `Last-Event-ID` (which
 * tells `EventSource` to stop reconnecting); 400 a `Last-Event-ID` that is not a
 * non-negative integer, or is ahead of the run; 401/403 from `authorize`; 403 a preflight
 * from an origin not allowed; 404 an unknown run; 405 another method; 410 events after
 * `Last-Event-ID` were evicted from the replay log (resuming would leave a gap).
 */
export async function decide<Req>(settings: ServeSettings<Req>, req: Req, facts: RequestFacts): Promise<PlainAnswer | StreamAnswer> {
  const { cors, options, log } = settings;
  const corsHeaders = cors?.headersFor(facts.origin) ?? {};
  if (facts.method === 'OPTIONS') {
    if (cors === undefined) return plain(405, { allow: 'GET, HEAD' }, 'SSE_METHOD_NOT_ALLOWED', 'Use GET');
    const preflight = cors.preflight(facts.origin);
    if (preflight === undefined) return plain(403, corsHeaders, 'SSE_ORIGIN_NOT_ALLOWED', 'Origin not allowed');
    return plain(204, preflight);
  }
  if (facts.method !== 'GET' && facts.method !== 'HEAD') {
    return plain(
      405,
      { ...corsHeaders, allow: cors === undefined ? 'GET, HEAD' : 'GET, HEAD, OPTIONS' },
      'SSE_METHOD_NOT_ALLOWED',
      'Use GET',
    );
  }
  let runId: string | undefined;
  try {
    runId = options.runId === undefined ? (settings.hubRunId ?? defaultRunId(facts.url)) : options.runId(req);
  } catch {
    return plain(500, corsHeaders, 'SSE_RUN_ID_FAILED', 'The run could not be named from the request');
  }
  if (typeof runId !== 'string') runId = undefined;
  if (runId === undefined || runId === '') return plain(404, corsHeaders, 'SSE_UNKNOWN_RUN', 'No run named in the request');
  if (options.authorize !== undefined) {
    let verdict: AuthorizeResult;
    try {
      verdict = await options.authorize(req, runId);
    } catch {
      return plain(500, corsHeaders, 'SSE_AUTHORIZE_FAILED', 'Authorization could not be checked');
    }
    if (verdict === 401) return plain(401, corsHeaders, 'SSE_UNAUTHENTICATED', 'Credentials required');
    if (verdict !== true) return plain(403, corsHeaders, 'SSE_FORBIDDEN', 'Not allowed to read this run');
  }
  const rawId = lastEventIdOf(facts);
  let afterSeq: number | undefined;
  if (rawId !== undefined) {
    afterSeq = /^(?:0|[1-9]\d{0,15})$/.test(rawId) ? Number(rawId) : Number.NaN;
    if (!Number.isSafeInteger(afterSeq)) {
      return plain(
        400,
        corsHeaders,
        'SSE_BAD_LAST_EVENT_ID',
        `Last-Event-ID must be a non-negative integer (an event's seq), got ${JSON.stringify(rawId.slice(0, 40))}`,
      );
    }
  }
  let wake: () => void = () => undefined;
  let opened: ReplayOpenResult;
  try {
    opened = await log.open(runId, afterSeq, () => {
      wake();
    });
  } catch {
    return plain(503, corsHeaders, 'SSE_SOURCE_UNAVAILABLE', "The run's events cannot be read right now; retry");
  }
  if (!opened.ok) {
    switch (opened.reason) {
      case 'unknown-run':
        return plain(404, corsHeaders, 'SSE_UNKNOWN_RUN', `Unknown run ${JSON.stringify(runId)}`);
      case 'ahead':
        return plain(
          400,
          corsHeaders,
          'SSE_LAST_EVENT_ID_AHEAD',
          `Last-Event-ID ${String(afterSeq)} is ahead of the run (last seq ${opened.lastSeq})`,
        );
      case 'expired':
        return plain(
          410,
          corsHeaders,
          'SSE_EVENTS_EXPIRED',
          `Events after ${String(afterSeq)} are no longer retained; start over without Last-Event-ID`,
        );
      case 'ended':
        return plain(204, corsHeaders);
    }
  }
  if (facts.method === 'HEAD') {
    opened.cursor.close();
    return plain(200, { ...STREAM_HEADERS, ...corsHeaders });
  }
  return {
    kind: 'stream',
    runId,
    headers: { ...STREAM_HEADERS, ...corsHeaders },
    cursor: opened.cursor,
    setWake(next) {
      wake = next;
    },
  };
}
