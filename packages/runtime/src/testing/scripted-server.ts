// A stand-in for a model API in provider tests: a real HTTP server on 127.0.0.1 whose replies
// the test scripts one request at a time, so a provider is tested through its real SDK client.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../loop/clock.js';

/** A request the {@link ScriptedServer} received, its body parsed as JSON (undefined when empty). */
export interface ScriptedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** How the {@link ScriptedServer} answers one request. */
export type ScriptedReply = (res: ServerResponse, req: IncomingMessage) => void;

/** A JSON answer with `status` and extra `headers`. */
export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): ScriptedReply {
  return (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

/** A server-sent event stream of `frames`, each written as given (e.g. `data: {...}\n\n`), then the end. */
export function sseReply(frames: readonly string[], headers: Record<string, string> = {}): ScriptedReply {
  return (res) => {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...headers,
    });
    for (const frame of frames) res.write(frame);
    res.end();
  };
}

/** Options of {@link ScriptedServer.start}. */
export interface ScriptedServerOptions {
  /** Path prefix of {@link ScriptedServer.baseURL} (e.g. `/v1`; default none). */
  basePath?: string;
  /** The answer when no reply is scripted (default a 500 JSON error). */
  fallback?: () => ScriptedReply;
}

/**
 * A scripted model API on a random port of 127.0.0.1: records every request and answers each
 * with the next queued {@link ScriptedReply}.
 *
 * @example
 * ```ts
 * const server = await ScriptedServer.start({ basePath: '/v1' });
 * server.reply(jsonReply(429, { error: { message: 'slow down' } }, { 'retry-after': '2' }));
 * const provider = new OpenAIProvider({ apiKey: 'k', baseURL: server.baseURL });
 * ```
 */
export class ScriptedServer {
  /** Every request received, in order. */
  readonly received: ScriptedRequest[] = [];
  /** `http://127.0.0.1:<port><basePath>`. */
  readonly baseURL: string;
  readonly #replies: ScriptedReply[] = [];
  readonly #server: Server;

  private constructor(server: Server, baseURL: string) {
    this.#server = server;
    this.baseURL = baseURL;
  }

  /** Starts a server on a random port of 127.0.0.1. */
  static async start(options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
    const fallback = options.fallback ?? (() => jsonReply(500, { error: { message: 'no reply scripted', type: 'server_error' } }));
    const started: { self?: ScriptedServer } = {};
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (d: Buffer) => (text += d.toString()));
      req.on('end', () => {
        const self = started.self;
        if (self === undefined) return;
        self.received.push({
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: text === '' ? undefined : (JSON.parse(text) as unknown),
        });
        (self.#replies.shift() ?? fallback())(res, req);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const self = new ScriptedServer(server, `http://127.0.0.1:${String((server.address() as AddressInfo).port)}${options.basePath ?? ''}`);
    started.self = self;
    return self;
  }

  /** Queues the answers to the next requests, in order. */
  reply(...replies: ScriptedReply[]): void {
    this.#replies.push(...replies);
  }

  /** Forgets what was received and queued. */
  reset(): void {
    this.received.length = 0;
    this.#replies.length = 0;
  }

  /** The body of request `n` (0-based). */
  body(n: number): Record<string, unknown> {
    return this.received[n]?.body as Record<string, unknown>;
  }

  /** Closes the server and every open connection. */
  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}

/**
 * A {@link Clock} whose waits end at once (on the next turn) but are recorded in `waits`: for
 * asserting retry and backoff delays without waiting for them.
 */
export function createRecordingClock(): Clock & { readonly waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    now: () => Date.now(),
    setTimeout: (fn, ms) => {
      waits.push(ms);
      return setImmediate(fn);
    },
    clearTimeout: (handle) => {
      clearImmediate(handle as ReturnType<typeof setImmediate>);
    },
  };
}

/**
 * @deprecated use {@link createRecordingClock}; removed in the next minor.
 * @alias
 */
export const recordingClock: typeof createRecordingClock = createRecordingClock;
