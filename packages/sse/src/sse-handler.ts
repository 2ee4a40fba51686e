import type { IncomingMessage, ServerResponse } from 'node:http';
import { startClientStream } from './client-stream.js';
import { decide, notifyDisconnect, requestUrl, settle, type RequestFacts, type SseServeOptions } from './sse-request.js';

/** Options of {@link createSseHandler}. */
export type SseHandlerOptions = SseServeOptions<IncomingMessage>;

/** A `node:http` request listener (also an Express handler; for Fastify pass `request.raw, reply.raw` after `reply.hijack()`). */
export type SseHandler = (req: IncomingMessage, res: ServerResponse) => void;

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The request's facts, or `undefined` when its target is no URL (`GET http://[/runs/r1`). */
function factsOf(req: IncomingMessage): RequestFacts | undefined {
  const url = requestUrl(req.url ?? '/', 'http://localhost');
  if (url === undefined) return undefined;
  return { method: req.method ?? 'GET', url, origin: header(req, 'origin'), lastEventId: header(req, 'last-event-id') };
}

/** Ends a response that failed on our side or the client's; never throws. */
function refuse(res: ServerResponse, status: number, code?: string, message?: string): void {
  try {
    if (!res.headersSent) {
      const body = code === undefined ? undefined : JSON.stringify({ code, message });
      res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(body);
    } else {
      res.destroy();
    }
  } catch {
    res.destroy();
  }
}

/**
 * Serves a run's progress events as Server-Sent Events on `node:http`, resuming from
 * `Last-Event-ID`, with heartbeats, backpressure and optional `authorize` / CORS.
 *
 * @throws {SseError} `SSE_INVALID_OPTIONS` for out-of-range options or CORS origins.
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createProgressHub } from '@headway/protocol';
 * import { createReplayLog, createSseHandler } from '@headway/sse';
 *
 * const log = createReplayLog();
 * const hub = createProgressHub({ runId: 'run-1' });
 * log.attach(hub);
 * const handler = createSseHandler({ source: log, cors: { origins: ['http://localhost:5173'] } });
 * createServer(handler).listen(8080, '127.0.0.1'); // GET /runs/run-1/events?runId=run-1
 * ```
 */
export function createSseHandler(options: SseHandlerOptions): SseHandler {
  const settings = settle(options);
  // A request listener that throws takes the server process down: every request, however
  // malformed, gets an answer instead (400 for a target that is no URL, 500 for our own bugs).
  return (req, res) => {
    let facts: RequestFacts | undefined;
    try {
      facts = factsOf(req);
    } catch {
      facts = undefined;
    }
    if (facts === undefined) {
      refuse(res, 400, 'SSE_BAD_REQUEST', 'The request target is not a valid URL');
      return;
    }
    decide(settings, req, facts).then(
      (answer) => {
        try {
          respond(answer);
        } catch {
          if (answer.kind === 'stream') answer.cursor.close();
          refuse(res, 500);
        }
      },
      () => {
        // decide() does not reject; this guards the server against a bug all the same.
        refuse(res, 500);
      },
    );

    function respond(answer: Awaited<ReturnType<typeof decide>>): void {
      if (res.destroyed) {
        if (answer.kind === 'stream') answer.cursor.close();
        return;
      }
      if (answer.kind === 'plain') {
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
        return;
      }
      res.writeHead(200, { ...answer.headers, connection: 'keep-alive' });
      const stream = startClientStream(
        answer.cursor,
        {
          write(chunk) {
            res.write(chunk);
          },
          bufferedBytes: () => res.writableLength,
          end: () => res.end(),
          destroy: () => res.destroy(),
        },
        {
          maxBufferedBytes: settings.maxBufferedBytes,
          heartbeatMs: settings.heartbeatMs,
          retryMs: settings.retryMs,
          clock: settings.clock,
          onEnd: (reason) => {
            notifyDisconnect(settings.options, answer.runId, reason);
          },
        },
      );
      answer.setWake(stream.pump);
      res.on('drain', stream.pump);
      res.on('close', stream.close);
    }
  };
}
