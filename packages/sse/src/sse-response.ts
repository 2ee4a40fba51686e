import { SseError } from './sse-error.js';
import { startClientStream, type ClientStream } from './client-stream.js';
import { decide, notifyDisconnect, requestUrl, settle, type ServeSettings, type SseServeOptions } from './sse-request.js';

/** Options of {@link createSseResponse}. */
export type SseResponseOptions = SseServeOptions<Request>;

// Settings are validated once per options object, however many requests use it.
const settled = new WeakMap<SseResponseOptions, ServeSettings<Request>>();

/**
 * Answers a fetch-style request (Hono, Next.js route handlers, Bun, Deno) with a web
 * `Response` streaming the run's events, with the same resume, backpressure, `authorize`
 * and CORS rules as {@link createSseHandler}. The stream ends when the client aborts the
 * request (`request.signal`) or cancels the body.
 *
 * @throws {SseError} `SSE_INVALID_OPTIONS` for out-of-range options or CORS origins.
 * @example
 * ```ts
 * const log = createReplayLog();
 * const options = { source: log, runId: (req: Request) => new URL(req.url).searchParams.get('run') ?? undefined };
 * export const GET = (request: Request): Promise<Response> => createSseResponse(request, options);
 * ```
 */
export async function createSseResponse(request: Request, options: SseResponseOptions): Promise<Response> {
  let settings = settled.get(options);
  if (settings === undefined) {
    settings = settle(options);
    settled.set(options, settings);
  }
  const url = requestUrl(request.url);
  if (url === undefined) {
    return new Response(JSON.stringify({ code: 'SSE_BAD_REQUEST', message: 'The request URL is not a valid URL' }), {
      status: 400,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
  const answer = await decide(settings, request, {
    method: request.method,
    url,
    origin: request.headers.get('origin') ?? undefined,
    lastEventId: request.headers.get('last-event-id') ?? undefined,
  });
  if (answer.kind === 'plain') return new Response(answer.body ?? null, { status: answer.status, headers: answer.headers });

  const { clock, heartbeatMs, maxBufferedBytes, retryMs } = settings;
  const highWaterMark = Math.min(64 * 1024, maxBufferedBytes);
  let stream: ClientStream | undefined;
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
  let closed = false;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controllerRef = controller;
        stream = startClientStream(
          answer.cursor,
          {
            write(chunk) {
              controller.enqueue(chunk);
            },
            bufferedBytes: () => (closed ? 0 : highWaterMark - (controller.desiredSize ?? 0)),
            end() {
              closed = true;
              controller.close();
            },
            destroy() {
              closed = true;
              controller.error(
                new SseError('SSE_CLIENT_TOO_SLOW', 'SSE client disconnected: too much unsent data, or its events were evicted'),
              );
            },
          },
          {
            maxBufferedBytes,
            heartbeatMs,
            retryMs,
            clock,
            onEnd: (reason) => {
              notifyDisconnect(options, answer.runId, reason);
            },
          },
        );
        answer.setWake(stream.pump);
      },
      pull() {
        stream?.pump();
      },
      cancel() {
        closed = true;
        stream?.close();
      },
    },
    { highWaterMark, size: (chunk) => chunk.byteLength },
  );
  request.signal.addEventListener(
    'abort',
    () => {
      if (closed) return;
      closed = true;
      stream?.close();
      try {
        controllerRef?.close();
      } catch {
        // Already closed or errored by the consumer.
      }
    },
    { once: true },
  );
  return new Response(body, { status: 200, headers: answer.headers });
}
