// A real MCP server (the official SDK's McpServer) for the tests: run in process for Streamable
// HTTP, or as a child process over stdio (fixture-stdio.test-util.ts).
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** What the fixture's tools saw, for assertions about cancellation. */
export interface FixtureLog {
  cancelled: string[];
  /** Calls of `hang` that reached the server. */
  started?: string[];
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

export function createFixtureServer(log: FixtureLog = { cancelled: [] }): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echo text', inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: 'text', text }],
    structuredContent: { length: text.length },
  }));
  server.registerTool('fail', { description: 'Always fails', inputSchema: {} }, () => ({
    content: [{ type: 'text', text: 'disk on fire' }],
    isError: true,
  }));
  server.registerTool(
    'slow',
    {
      description: 'Reports progress, then answers',
      inputSchema: { steps: z.number().int(), delayMs: z.number(), withTotal: z.boolean().optional(), backwards: z.boolean().optional() },
    },
    async ({ steps, delayMs, withTotal, backwards }, extra) => {
      const token = extra._meta?.progressToken;
      for (let i = 1; i <= steps; i++) {
        await sleep(delayMs, extra.signal);
        if (extra.signal.aborted) break;
        // A server that reports a smaller value once: the caller's bar must not follow it back.
        const progress = backwards === true && i === 2 ? 0.5 : i;
        if (token !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: {
              progressToken: token,
              progress,
              ...(withTotal === false ? {} : { total: steps }),
              message: `step ${String(i)}\u0007 of ${String(steps)}`,
            },
          });
        }
      }
      return { content: [{ type: 'text', text: `done after ${String(steps)} steps` }] };
    },
  );
  server.registerTool('hang', { description: 'Waits until cancelled', inputSchema: {} }, async (_args, extra) => {
    log.started?.push(String(extra.requestId));
    await new Promise<void>((resolve) => {
      extra.signal.addEventListener(
        'abort',
        () => {
          log.cancelled.push(String(extra.requestId));
          resolve();
        },
        { once: true },
      );
    });
    return { content: [{ type: 'text', text: 'cancelled' }] };
  });
  server.registerTool('die', { description: 'Exits the process mid-call', inputSchema: {} }, async (_args, extra) => {
    const token = extra._meta?.progressToken;
    if (token !== undefined)
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 2 } });
    setTimeout(() => process.exit(3), 10);
    return new Promise(() => undefined);
  });
  return server;
}

/** Serves the fixture over Streamable HTTP on 127.0.0.1, one server per session (so cancellations reach the call). */
export function startHttpFixture(log: FixtureLog = { cancelled: [] }): Promise<{ url: URL; close: () => Promise<void> }> {
  return serveHttp(() => createFixtureServer(log));
}

/** Serves MCP servers made by `create` over Streamable HTTP on 127.0.0.1, one per session. */
export async function serveHttp(create: () => McpServer): Promise<{ url: URL; close: () => Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http: Server = createServer((req, res) => {
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known !== undefined) {
      void known.handleRequest(req, res);
      return;
    }
    const server = create();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${String(port)}/mcp`),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => {
          resolve();
        });
      }),
  };
}
