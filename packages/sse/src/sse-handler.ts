import type { IncomingMessage, ServerResponse } from 'node:http';
import { startRunStream } from './run-stream.js';
import { decide, settle, type SseServeOptions } from './sse-request.js';

/** Options of {@link createSseHandler}. */
export type SseHandlerOptions = SseServeOptions<IncomingMessage>;

/** A `node:http` request listener (also an Express handler; for Fastify pass `request.raw, reply.raw` after `reply.hijack()`). */
export type SseHandler = (req: IncomingMessage, res: ServerResponse) => void;

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
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
  return (req, res) => {
    const facts = {
      method: req.method ?? 'GET',
      url: new URL(req.url ?? '/', 'http://localhost'),
      origin: header(req, 'origin'),
      lastEventId: header(req, 'last-event-id'),
    };
    decide(settings, req, facts).then(
      (answer) => {
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
        const stream = startRunStream(
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
            timers: settings.timers,
            onEnd: (reason) => {
              settings.options.onDisconnect?.({ runId: answer.runId, reason });
            },
          },
        );
        answer.setWake(stream.pump);
        res.on('drain', stream.pump);
        res.on('close', stream.close);
      },
      () => {
        // decide() does not reject; this guards the server against a bug all the same.
        if (!res.headersSent) res.writeHead(500);
        res.end();
      },
    );
  };
}
