import { createAgUiServer, type AgUiServer, type AgUiServerOptions } from './ag-ui-server.js';
import { readLimited } from './read-body.js';
import { AgUiError } from '../ag-ui-error.js';

// One endpoint per options object, however many requests use it, so runs outlive a request.
const servers = new WeakMap<AgUiServerOptions, AgUiServer>();

/** The endpoint {@link createAgUiResponse} uses for `options` (created on first use): for `cancel`. */
export function agUiServerFor(options: AgUiServerOptions): AgUiServer {
  let server = servers.get(options);
  if (server === undefined) {
    server = createAgUiServer(options);
    servers.set(options, server);
  }
  return server;
}

async function* bodyChunks(request: Request): AsyncGenerator<Uint8Array> {
  if (request.body === null) return;
  const reader = request.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Answers a fetch-style request (Hono, Next.js route handlers, Bun, Deno) with a web
 * `Response`: the same endpoint as {@link createAgUiHandler}. Keep one `options` object for
 * all requests: the runs live with it.
 *
 * @throws {AgUiError} `AG_UI_INVALID_OPTIONS` for out-of-range options.
 * @example
 * ```ts
 * const options = { run: async ({ emit }) => { emit({ type: 'text.delta', text: 'Hello' }); } };
 * export const POST = (request: Request): Promise<Response> => createAgUiResponse(request, options);
 * ```
 */
export async function createAgUiResponse(request: Request, options: AgUiServerOptions): Promise<Response> {
  const answer = await agUiServerFor(options).answer({
    method: request.method,
    url: new URL(request.url),
    headers: request.headers,
    readBody: (limit) => readLimited(bodyChunks(request), limit),
  });
  if (answer.kind === 'plain') return new Response(answer.body ?? null, { status: answer.status, headers: answer.headers });
  const encoder = new TextEncoder();
  const highWaterMark = 64 * 1024;
  let stop: (() => void) | undefined;
  let closed = false;
  const finish = (): void => {
    if (closed) return;
    closed = true;
    stop?.();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const detach = answer.start({
          write(chunk) {
            if (!closed) controller.enqueue(encoder.encode(chunk));
          },
          bufferedBytes: () => (closed ? 0 : highWaterMark - (controller.desiredSize ?? 0)),
          end() {
            if (closed) return;
            finish();
            controller.close();
          },
          destroy() {
            if (closed) return;
            finish();
            controller.error(new AgUiError('AG_UI_CLIENT_TOO_SLOW', 'AG-UI client disconnected: too much unsent data'));
          },
        });
        // The run may have ended or cut the client off while starting, before `stop` was known.
        if (closed) detach();
        else stop = detach;
      },
      cancel() {
        finish();
      },
    },
    { highWaterMark, size: (chunk) => chunk.byteLength },
  );
  request.signal.addEventListener('abort', finish, { once: true });
  return new Response(body, { status: answer.status, headers: answer.headers });
}
