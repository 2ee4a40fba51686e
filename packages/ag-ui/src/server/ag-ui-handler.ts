import type { IncomingMessage, ServerResponse } from 'node:http';
import { createAgUiServer, type AgUiServer, type AgUiServerOptions } from './ag-ui-server.js';
import { readLimited } from './read-body.js';

/** A `node:http` request listener (an Express handler as is) with the endpoint's `cancel`. */
export interface AgUiHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Aborts a running run's signal; false when no such run is running. */
  cancel(runId: string, reason?: string): boolean;
  /** The endpoint behind the handler (shares its runs with {@link AgUiServer} users). */
  readonly server: AgUiServer;
}

/** One request header as a fetch `Headers` gives it: repeated values joined, `null` when absent. */
function headerValue(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Serves `server` on `node:http`. */
function nodeListener(server: AgUiServer): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const request = {
      method: req.method ?? 'GET',
      url: new URL(req.url ?? '/', 'http://localhost'),
      headers: { get: (name: string) => headerValue(req, name) },
      readBody: (limit: number) => readLimited(req, limit),
    };
    server.answer(request).then(
      (answer) => {
        if (answer.kind === 'plain') {
          // A refused upload may still be arriving: close rather than read the rest.
          res.writeHead(answer.status, {
            ...answer.headers,
            ...(answer.status === 413 || answer.status === 415 ? { connection: 'close' } : {}),
          });
          res.end(answer.body);
          return;
        }
        if (res.destroyed) return;
        res.writeHead(answer.status, { ...answer.headers, connection: 'keep-alive' });
        res.flushHeaders();
        const stop = answer.start({
          write: (chunk) => {
            res.write(chunk);
          },
          bufferedBytes: () => res.writableLength,
          end: () => {
            res.end();
          },
          destroy: () => {
            res.destroy();
          },
        });
        // 'close' fires when the response ended or the client went away.
        res.on('close', stop);
      },
      () => {
        // answer() does not reject; this guards the server against a bug all the same.
        if (!res.headersSent) res.writeHead(500);
        res.end();
      },
    );
  };
}

/**
 * An AG-UI endpoint on `node:http`: `POST` a `RunAgentInput` (what `@ag-ui/client`'s
 * `HttpAgent` sends) to start a run through `options.run` and get its AG-UI events as SSE;
 * `POST` the same with `forwardedProps.headway.reattach` (or `GET ?runId=`) to reattach to a
 * running run. See the README for every status.
 *
 * @throws {AgUiError} `AG_UI_INVALID_OPTIONS` for out-of-range options.
 * @example
 * ```ts
 * const handler = createAgUiHandler({
 *   run: async ({ input, signal, sink }) => {
 *     const runtime = new AgentRuntime({ provider: 'openai' }, { provider, tools, sinks: [sink] });
 *     await runtime.run(lastUserText(input), { signal, stream: true });
 *   },
 * });
 * createServer(handler).listen(8080, '127.0.0.1');
 * ```
 */
export function createAgUiHandler(options: AgUiServerOptions): AgUiHandler {
  const server = createAgUiServer(options);
  const listener = nodeListener(server);
  return Object.assign(listener, {
    cancel: (runId: string, reason?: string) => server.cancel(runId, reason),
    server,
  });
}
