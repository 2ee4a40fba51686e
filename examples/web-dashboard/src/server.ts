// The dashboard's HTTP server: starts agent runs, streams their events over SSE from a
// replay log (so a reloaded page resumes by Last-Event-ID), and serves the built page.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, resolve, sep } from 'node:path';
import { computeStepRanges, type StepRange } from '@headway/estimator';
import type { ProgressEvent, ProgressReport } from '@headway/protocol';
import { OpenAIProvider } from '@headway/provider-openai';
import { continuationPrompt } from '@headway/report';
import {
  AgentRuntime,
  type ChatMessage,
  type CompletionRequest,
  type Provider,
  type RunResult,
  type Tool,
  type ToolContext,
} from '@headway/runtime';
import { ScriptedProvider, type ScriptedStep } from '@headway/runtime/testing';
import { createReplayLog, createSseHandler, type ReplayLog } from '@headway/sse';
import { libraryTools } from './library-tools.js';
import { pacedProvider } from './paced-provider.js';
import { createRequestGuard, PAGE_CSP, withPageToken } from '@headway/dashboard';
import { parseContinueRequest, parseRunRequest, type RunRequest } from './run-request.js';
import { DEFAULT_TASK, TASK_STEPS, researchModel } from './scripted-model.js';

/** Options of {@link startDashboardServer}. */
export interface DashboardServerOptions {
  /** Where the built page is (Vite's output). */
  pageDir: string;
  /** Port to listen on (default 5178; 0 picks a free one). */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** The scripted model's thinking time per reply in ms (default 600). */
  modelDelayMs?: number;
  /** Simulated latency of the library tools in ms (default 400). */
  toolDelayMs?: number;
  /** Pause between streamed text pieces in ms (default 25). */
  chunkDelayMs?: number;
  /** Environment the OpenAI provider reads (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** Model for OpenAI runs (default the provider's). */
  openaiModel?: string;
  /** Plays the model in scripted runs (default the library research model). */
  scriptedModel?: (delayMs: number) => (conversation: readonly ChatMessage[], request: CompletionRequest) => ScriptedStep;
  /**
   * Awaited as each tool of a run starts its work, after its `tool.executing` event (`index`
   * counts the run's tool calls from 0). A test holds a run at a known point with it, however
   * slow the machine is; the dashboard itself never sets it.
   */
  beforeTool?: (call: { runId: string; index: number; name: string }) => Promise<void>;
}

/** A run in a chain of continuations, as `GET /api/runs/:id` lists them (oldest first). */
interface ChainLink {
  runId: string;
  status: 'running' | RunResult['status'];
}

/** What the server knows about a run besides its events. */
interface RunInfo {
  runId: string;
  task: string;
  provider: 'scripted' | 'openai';
  maxIterations: number;
  timeBudgetMs?: number;
  /** The weighted steps and the slice of the bar each covers. */
  steps: StepRange[];
  status: 'running' | RunResult['status'];
  /** The run this one continues, from its progress report. */
  parentRunId?: string;
}

/** How a follow-up run is started from a report: its title and the run it continues. */
interface Continuation {
  parentRunId: string;
  title: string;
}

/** A running dashboard server. */
export interface DashboardServer {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  readonly port: number;
  /** Every run's events, as served to the page. */
  readonly log: ReplayLog;
  /** Starts a run as `POST /api/runs` does. */
  startRun(request: RunRequest): RunInfo;
  /** Starts the follow-up of a run that stopped short, as `POST /api/runs/:id/continue` does. */
  continueRun(runId: string, request?: { maxIterations?: number }): RunInfo;
  /** Resolves when the run has ended. */
  finished(runId: string): Promise<RunResult> | undefined;
  /** Cancels running runs and stops listening. */
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
};

const MAX_BODY_BYTES = 16 * 1024;

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      // Past the cap the rest is read and dropped, so the client still gets its 413.
      if (tooLarge || size > MAX_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      resolveBody(tooLarge ? undefined : Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

/** A follow-up run's `run.started` names the task, not the continuation prompt, and its parent. */
function asContinuation(event: ProgressEvent, continuation: Continuation): ProgressEvent {
  if (event.type !== 'run.started') return event;
  return { ...event, task: continuation.title, parentRunId: event.parentRunId ?? continuation.parentRunId };
}

/**
 * Starts the dashboard: `GET /` the page, `GET /api/config`, `POST /api/runs`,
 * `POST /api/runs/:id/continue` (the follow-up of a run that stopped short),
 * `GET /api/runs/:id` (run info), `GET /api/runs/:id/events` (SSE),
 * `GET /api/runs/:id/log` (the events so far, as JSON).
 */
export async function startDashboardServer(options: DashboardServerOptions): Promise<DashboardServer> {
  const pageDir = resolve(options.pageDir);
  const env = options.env ?? process.env;
  const openaiAvailable = (env.OPENAI_API_KEY ?? '') !== '';
  const log = createReplayLog({ maxRuns: 32 });
  const runs = new Map<string, { info: RunInfo; controller: AbortController; done: Promise<RunResult>; report?: ProgressReport }>();
  const guard = createRequestGuard();
  const sse = createSseHandler({
    source: log,
    heartbeatMs: 10_000,
    retryMs: 1000,
    // The run is the path's third segment: /api/runs/<id>/events.
    runId: (req) => {
      const segment = new URL(req.url ?? '/', 'http://localhost').pathname.split('/')[3];
      return segment === undefined ? undefined : decodeURIComponent(segment);
    },
  });

  function providerFor(kind: 'scripted' | 'openai'): Provider {
    if (kind === 'openai') return new OpenAIProvider({ env, ...(options.openaiModel === undefined ? {} : { model: options.openaiModel }) });
    return pacedProvider(
      new ScriptedProvider((options.scriptedModel ?? researchModel)(options.modelDelayMs ?? 600), { name: 'scripted', record: false }),
      options.chunkDelayMs ?? 25,
    );
  }

  function startRun(request: RunRequest, continuation?: Continuation): RunInfo {
    const kind = request.provider ?? 'scripted';
    if (kind === 'openai' && !openaiAvailable) throw new Error('provider: openai needs OPENAI_API_KEY in the server environment');
    const runId = randomUUID();
    const steps = kind === 'scripted' ? TASK_STEPS.map((s) => ({ ...s })) : [];
    const info: RunInfo = {
      runId,
      task: continuation?.title ?? request.task ?? DEFAULT_TASK,
      provider: kind,
      maxIterations: request.maxIterations ?? 10,
      ...(request.timeBudgetMs === undefined ? {} : { timeBudgetMs: request.timeBudgetMs }),
      steps: computeStepRanges(steps),
      status: 'running',
      ...(continuation === undefined ? {} : { parentRunId: continuation.parentRunId }),
    };
    const provider = providerFor(kind);
    let ids = 0;
    const runtime = new AgentRuntime(
      {
        provider: provider.name,
        agentName: 'web-dashboard',
        maxIterations: info.maxIterations,
        ...(info.timeBudgetMs === undefined ? {} : { timeBudgetMs: info.timeBudgetMs, hardStopAfterMs: Math.max(5000, info.timeBudgetMs) }),
        progress: { aiDriven: true, fallbackSteps: steps },
      },
      {
        provider,
        tools: heldTools(libraryTools({ delayMs: options.toolDelayMs ?? 400 }), runId, options.beforeTool),
        sinks: [
          continuation === undefined
            ? log
            : (event: ProgressEvent) => {
                log.append(asContinuation(event, continuation));
              },
        ],
        // The run's id is known before it starts, so the page can subscribe at once.
        generateId: () => (ids++ === 0 ? runId : randomUUID()),
      },
    );
    // Subscribers may connect before the first event.
    log.register(runId);
    const controller = new AbortController();
    // A follow-up run's first message is the continuation prompt; its title stays the task.
    const input = request.task ?? DEFAULT_TASK;
    const entry: { info: RunInfo; controller: AbortController; done: Promise<RunResult>; report?: ProgressReport } = {
      info,
      controller,
      done: runtime.run(input, { stream: true, signal: controller.signal, sessionId: `dashboard-${runId}` }).then((result) => {
        info.status = result.status;
        if (result.report !== undefined) entry.report = result.report;
        return result;
      }),
    };
    runs.set(runId, entry);
    // Keep the map as bounded as the replay log.
    for (const id of runs.keys()) if (!log.has(id) && id !== runId) runs.delete(id);
    return info;
  }

  /**
   * Starts the follow-up of a run that stopped short: its first message is the continuation
   * prompt built from the run's report (kept on the server: the page cannot hand in its own).
   */
  function continueRun(parentRunId: string, request: { maxIterations?: number } = {}): RunInfo {
    const parent = runs.get(parentRunId);
    if (parent === undefined) throw new Error(`unknown run ${JSON.stringify(parentRunId)}`);
    if (parent.report === undefined || parent.info.status === 'completed' || parent.info.status === 'running') {
      throw new Error(`run ${parentRunId} has no progress report to continue from (it is ${parent.info.status})`);
    }
    return startRun(
      {
        task: continuationPrompt(parent.report),
        provider: parent.info.provider,
        ...(request.maxIterations === undefined ? {} : { maxIterations: request.maxIterations }),
      },
      { parentRunId, title: parent.info.task },
    );
  }

  /** The run and the runs it continues, oldest first (bounded: a chain cannot loop). */
  function chainOf(info: RunInfo): ChainLink[] {
    const chain: ChainLink[] = [{ runId: info.runId, status: info.status }];
    let parentId = info.parentRunId;
    while (parentId !== undefined && chain.length < 100) {
      const parent = runs.get(parentId)?.info;
      if (parent === undefined) break;
      chain.unshift({ runId: parent.runId, status: parent.status });
      parentId = parent.parentRunId;
    }
    return chain;
  }

  async function serveStatic(res: ServerResponse, pathname: string): Promise<void> {
    const relative = pathname === '/' ? 'index.html' : decodeURIComponent(pathname.slice(1));
    const file = resolve(pageDir, relative);
    if (file !== pageDir && !file.startsWith(pageDir + sep)) {
      sendJson(res, 404, { error: 'not found' });
      return;
    }
    try {
      const body = await readFile(file);
      const html = extname(file) === '.html';
      res.writeHead(200, {
        'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': html ? 'no-store' : 'public, max-age=3600',
        'x-content-type-options': 'nosniff',
        ...(html ? { 'content-security-policy': PAGE_CSP, 'referrer-policy': 'no-referrer' } : {}),
      });
      // Each page served gets its own token, which its requests that start runs must carry.
      res.end(html ? withPageToken(body.toString('utf8'), guard.issue()) : body);
    } catch {
      if (relative === 'index.html') {
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(
          `The page is not built: run "npm run build --prefix examples/web-dashboard" from the repository root (looked in ${pageDir})\n`,
        );
        return;
      }
      sendJson(res, 404, { error: 'not found' });
    }
  }

  /** The body of a state-changing request, or `undefined` once it has been refused (403, 413). */
  async function guardedBody(req: IncomingMessage, res: ServerResponse): Promise<string | undefined> {
    const refusal = guard.refusal(req);
    const body = await readBody(req);
    if (refusal !== undefined) {
      sendJson(res, 403, { error: refusal });
      return undefined;
    }
    if (body === undefined) {
      res.setHeader('connection', 'close');
      sendJson(res, 413, { error: `body: larger than ${MAX_BODY_BYTES} bytes` });
    }
    return body;
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const parts = url.pathname.split('/').filter((p) => p !== '');
    if (parts[0] !== 'api') {
      if (method !== 'GET' && method !== 'HEAD') {
        sendJson(res, 405, { error: 'use GET' });
        return;
      }
      await serveStatic(res, url.pathname);
      return;
    }
    if (parts.length === 2 && parts[1] === 'config' && method === 'GET') {
      sendJson(res, 200, {
        providers: openaiAvailable ? ['scripted', 'openai'] : ['scripted'],
        task: DEFAULT_TASK,
        maxIterations: 10,
        steps: computeStepRanges(TASK_STEPS.map((s) => ({ ...s }))),
      });
      return;
    }
    if (parts.length === 2 && parts[1] === 'runs') {
      if (method !== 'POST') {
        sendJson(res, 405, { error: 'use POST' });
        return;
      }
      const body = await guardedBody(req, res);
      if (body === undefined) return;
      const parsed = parseRunRequest(body);
      if (!parsed.ok) {
        sendJson(res, 400, { error: parsed.message });
        return;
      }
      try {
        sendJson(res, 201, startRun(parsed.request));
      } catch (error) {
        sendJson(res, 400, { error: (error as Error).message });
      }
      return;
    }
    const run = parts[1] === 'runs' && parts[2] !== undefined ? runs.get(parts[2]) : undefined;
    if (run === undefined || parts.length > 4) {
      sendJson(res, 404, { error: `unknown run ${JSON.stringify(parts[2] ?? '')}` });
      return;
    }
    if (parts.length === 3 && method === 'GET') {
      sendJson(res, 200, { ...run.info, chain: chainOf(run.info) });
      return;
    }
    if (parts[3] === 'continue') {
      if (method !== 'POST') {
        sendJson(res, 405, { error: 'use POST' });
        return;
      }
      const body = await guardedBody(req, res);
      if (body === undefined) return;
      const parsed = parseContinueRequest(body);
      if (!parsed.ok) {
        sendJson(res, 400, { error: parsed.message });
        return;
      }
      try {
        const info = continueRun(run.info.runId, parsed.request);
        sendJson(res, 201, { ...info, chain: chainOf(info) });
      } catch (error) {
        sendJson(res, 409, { error: (error as Error).message });
      }
      return;
    }
    if (parts[3] === 'events') {
      sse(req, res);
      return;
    }
    if (parts[3] === 'log' && method === 'GET') {
      const events: ProgressEvent[] = log.events(run.info.runId) ?? [];
      sendJson(res, 200, { runId: run.info.runId, status: run.info.status, events });
      return;
    }
    sendJson(res, 404, { error: 'not found' });
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: (error as Error).message });
      else res.destroy();
    });
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 5178, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const { port, address } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/`,
    port,
    log,
    startRun: (request) => startRun(request),
    continueRun,
    finished: (runId) => runs.get(runId)?.done,
    async close() {
      for (const run of runs.values()) run.controller.abort(new Error('the dashboard server is shutting down'));
      await Promise.allSettled([...runs.values()].map((r) => r.done));
      server.closeAllConnections();
      await new Promise<void>((resolveClose) => {
        server.close(() => {
          resolveClose();
        });
      });
    },
  };
}

/** The tools, each awaiting `beforeTool` before its own work (the tools as they are without it). */
function heldTools(tools: Tool[], runId: string, beforeTool: DashboardServerOptions['beforeTool']): Tool[] {
  if (beforeTool === undefined) return tools;
  let index = 0;
  return tools.map((tool) => ({
    ...tool,
    async execute(args: unknown, ctx: ToolContext): Promise<unknown> {
      await beforeTool({ runId, index: index++, name: tool.name });
      return tool.execute(args, ctx);
    },
  }));
}
