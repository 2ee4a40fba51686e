// The example's server: the built page, and the AG-UI endpoint that runs a scripted agent.
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { createAgUiHandler } from '@headway/ag-ui';
import { AgentRuntime, ScriptedProvider, defineTool } from '@headway/runtime';
import { z } from 'zod';

const NOTES: Record<string, string> = {
  'goals.md': 'headway makes long agent runs legible: progress, ETA, and a report at the limit.',
  'packages.md': 'protocol, estimator, report, runtime, reporters, sse, ag-ui.',
  'ag-ui.md': 'AG-UI front ends render a headway run with no glue code.',
};

const readNote = defineTool({
  name: 'read_note',
  description: 'Read one of the project notes',
  parameters: z.object({ name: z.string() }),
  safe: true,
  execute: ({ name }) => NOTES[name] ?? `no note named ${name}`,
});

/** A model that reads the notes, then answers from what it read, with a little thinking time. */
function scriptedModel(delayMs: number): ScriptedProvider {
  return new ScriptedProvider((conversation) => {
    const read = conversation.filter((m) => m.role === 'tool').length;
    if (read === 0)
      return {
        delayMs,
        content: 'Reading the notes. ',
        toolCalls: [
          { name: 'read_note', args: { name: 'goals.md' } },
          { name: 'read_note', args: { name: 'packages.md' } },
        ],
      };
    if (read === 2) return { delayMs, content: 'One more. ', toolCalls: [{ name: 'read_note', args: { name: 'ag-ui.md' } }] };
    return { delayMs, content: 'headway makes agent runs legible, and AG-UI pages show them as they go.' };
  });
}

/** Options of {@link startAgUiPageServer}. */
export interface AgUiPageServerOptions {
  /** Where the built page is (vite's outDir). */
  pageDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** The scripted model's thinking time per call (default 400 ms). */
  modelDelayMs?: number;
}

/** A running example server. */
export interface AgUiPageServer {
  url: string;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** Serves the page at `/` and the AG-UI endpoint at `/agent` on 127.0.0.1. */
export async function startAgUiPageServer(options: AgUiPageServerOptions): Promise<AgUiPageServer> {
  const modelDelayMs = options.modelDelayMs ?? 400;
  const agent = createAgUiHandler({
    // A reloaded page has 15 s to reattach before the run is cancelled.
    disconnectGraceMs: 15_000,
    run: async ({ input, signal, sink }) => {
      const last = input.messages.filter((m) => m.role === 'user').at(-1);
      const task = typeof last?.content === 'string' ? last.content : 'What is headway?';
      const runtime = new AgentRuntime(
        { provider: 'scripted', agentName: 'notes-reader', maxIterations: 6 },
        { provider: scriptedModel(modelDelayMs), tools: [readNote], sinks: [sink] },
      );
      await runtime.run(task, { signal, stream: true });
    },
  });
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/agent') {
      agent(req, res);
      return;
    }
    const file = normalize(join(options.pageDir, path === '/' ? 'index.html' : path));
    if (!file.startsWith(normalize(options.pageDir))) {
      res.writeHead(404).end();
      return;
    }
    readFile(file).then(
      (body) => {
        res.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
      },
      () => {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
