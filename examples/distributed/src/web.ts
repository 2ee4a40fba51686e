// A web process: the dashboard page, the run list and each run's events over SSE — for any
// run any worker writes to Redis.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRedisReplayLog, type RedisDuplicableClient, type RedisReplayLog } from '@headway/redis';
import { createSseHandler } from '@headway/sse';

const PAGE = readFileSync(new URL('page.html', import.meta.url), 'utf8');

/** A running web process. */
export interface WebServer {
  readonly url: string;
  readonly log: RedisReplayLog;
  close(): Promise<void>;
}

/**
 * Serves `GET /` (the page), `GET /api/runs` (the run index, and which process answered)
 * and `GET /api/runs/<id>/events` (SSE with Last-Event-ID resume) on 127.0.0.1.
 */
export async function startWeb(client: RedisDuplicableClient, options: { port?: number; name?: string } = {}): Promise<WebServer> {
  const log = createRedisReplayLog(client);
  const name = options.name ?? `web-${process.pid}`;
  const events = createSseHandler({ source: log, runId: (req) => new URL(req.url ?? '/', 'http://x').pathname.split('/')[3] });
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    res.setHeader('x-served-by', name);
    if (path === '/' || path === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE);
    } else if (path === '/api/runs') {
      log.listRuns({ limit: 50 }).then(
        (runs) => {
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
          res.end(JSON.stringify({ servedBy: name, runs }));
        },
        () => {
          res.writeHead(503, { 'content-type': 'application/json; charset=utf-8' });
          res.end(JSON.stringify({ code: 'REDIS_UNAVAILABLE', message: 'The run index cannot be read right now' }));
        },
      );
    } else if (/^\/api\/runs\/[^/]+\/events$/.test(path)) {
      events(req, res);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    log,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
      await log.close();
    },
  };
}
