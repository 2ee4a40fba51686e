// The example's server: the built page, and the AG-UI endpoint that runs a scripted agent. A run
// that stops short leaves its progress report here, and a later run can continue from it.
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { createAgUiHandler } from '@headway/ag-ui';
import { describeIssues, toValidationIssues, type ProgressEvent, type ProgressReport } from '@headway/protocol';
import { continuationPrompt } from '@headway/report';
import {
  AgentRuntime,
  defineTool,
  type ChatMessage,
  type CompletionRequest,
  type CompletionResponse,
  type Provider,
  type ProviderCallOptions,
  type StreamChunk,
} from '@headway/runtime';
import { ScriptedProvider, type ScriptedStep } from '@headway/runtime/testing';
import { z } from 'zod';
import { createRequestGuard, PAGE_CSP, withPageToken } from '@headway/dashboard';

const NOTES: Record<string, string> = {
  'goals.md': 'headway makes long agent runs legible: progress, ETA, and a report at the limit.',
  'packages.md': 'protocol, estimator, report, runtime, reporters, sse, ag-ui.',
  'ag-ui.md': 'AG-UI front ends render a headway run with no glue code.',
};

/** The task when the page sends none. */
const DEFAULT_QUESTION = 'What is headway?';

const readNote = defineTool({
  name: 'read_note',
  description: 'Read one of the project notes',
  parameters: z.object({ name: z.string() }),
  safe: true,
  execute: ({ name }) => NOTES[name] ?? `no note named ${name}`,
});

function progress(percent: number, message: string): string {
  return `\n\`\`\`json\n${JSON.stringify({ _progress: { percent, message } })}\n\`\`\``;
}

/** The notes read so far in the conversation (from the tool calls that got an answer). */
function notesRead(conversation: readonly ChatMessage[]): string[] {
  const names = new Map<string, string>();
  for (const m of conversation) {
    if (m.role === 'assistant')
      for (const call of m.toolCalls ?? []) names.set(call.id, z.object({ name: z.string() }).safeParse(call.args).data?.name ?? '?');
  }
  return conversation.flatMap((m) => (m.role === 'tool' ? [names.get(m.toolCallId) ?? '?'] : []));
}

function report(read: readonly string[]): string {
  const left = Object.keys(NOTES).filter((n) => !read.includes(n));
  const list = (items: readonly string[]): string => (items.length === 0 ? '' : items.map((i) => `- ${i}`).join('\n'));
  return [
    '## PROGRESS REPORT',
    '### Task',
    DEFAULT_QUESTION,
    '### Completed Work',
    list(read.map((n) => `Read ${n}`)),
    '### Key Findings',
    list(read.map((n) => `${n}: ${NOTES[n] ?? ''}`)),
    '### Attempted but Inconclusive',
    '',
    '### Not Started / Remaining',
    list([...left.map((n) => `Read ${n}`), 'Answer the question']),
    '### Suggested Next Steps',
    list(left.map((n) => `Read ${n} (read_note)`)),
  ].join('\n');
}

/**
 * A model that reads the notes, then answers from what it read, with a little thinking time.
 * It narrates before each tool call, reports `_progress` (the page names each step after it),
 * and writes a PROGRESS REPORT when a limit stops it. A continued run's first message lists the
 * notes already read; it reads only the rest.
 */
function notesModel(delayMs: number): (conversation: readonly ChatMessage[]) => ScriptedStep {
  return (conversation) => {
    const users = conversation.filter((m) => m.role === 'user');
    if (users.slice(1).some((m) => m.content.includes('PROGRESS REPORT'))) return { delayMs, content: report(notesRead(conversation)) };
    // A continuation prompt lists the work already done under "Done so far:", up to a blank line.
    const done = /Done so far:\n((?:- .*\n?)*)/.exec(users[0]?.content ?? '')?.[1] ?? '';
    const read = [
      ...notesRead(conversation),
      ...Object.keys(NOTES).filter((n) => done.includes(`- Read ${n}\n`) || done.endsWith(`- Read ${n}`)),
    ];
    if (!read.includes('goals.md')) {
      return {
        delayMs,
        content: `Reading the goals and the package list.${progress(30, 'Reading the project notes')}`,
        toolCalls: [
          { name: 'read_note', args: { name: 'goals.md' } },
          { name: 'read_note', args: { name: 'packages.md' } },
        ],
      };
    }
    if (!read.includes('ag-ui.md')) {
      return {
        delayMs,
        content: `One more, about AG-UI.${progress(60, 'Reading the AG-UI note')}`,
        toolCalls: [{ name: 'read_note', args: { name: 'ag-ui.md' } }],
      };
    }
    return {
      delayMs,
      content: `headway makes agent runs legible, and AG-UI pages show them as they go.${progress(95, 'Writing the answer')}`,
    };
  };
}

/** Options of {@link startAgUiPageServer}. */
export interface AgUiPageServerOptions {
  /** Where the built page is (vite's outDir). */
  pageDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** The scripted model's thinking time per call (default 400 ms). */
  modelDelayMs?: number;
  /** Plays the model (default {@link notesModel}). */
  model?: (delayMs: number) => (conversation: readonly ChatMessage[]) => ScriptedStep;
  /**
   * Awaited as each model call of a run starts, before the model thinks (`index` counts the
   * run's model calls from 0). A test holds a run at a known point with it, however slow the
   * machine is; the example itself never sets it.
   */
  beforeModel?: (call: { runId: string; index: number }) => Promise<void>;
}

/** A running example server. */
export interface AgUiPageServer {
  url: string;
  close(): Promise<void>;
}

/** What the page may ask for besides the question, in `forwardedProps` (from the network: validated). */
const runPropsSchema = z.strictObject({
  /** Iteration cap, 1–20 (default 6); a small one stops the run with a PROGRESS REPORT. */
  maxIterations: z.number().int().min(1).max(20).exactOptional(),
  /** Continue the run with this id from its progress report. */
  continueFrom: z.string().min(1).max(200).exactOptional(),
  /** The AG-UI endpoint's own (`headway.reattach`). */
  headway: z.unknown().optional(),
});

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** Runs kept for continuing, at most; the oldest is forgotten first. */
const MAX_RUNS = 64;

/** A follow-up run's `run.started` names the task, not the continuation prompt, and its parent. */
function asContinuation(event: ProgressEvent, title: string, parentRunId: string): ProgressEvent {
  return event.type === 'run.started' ? { ...event, task: title, parentRunId } : event;
}

/** Serves the page at `/` and the AG-UI endpoint at `/agent` on 127.0.0.1. */
export async function startAgUiPageServer(options: AgUiPageServerOptions): Promise<AgUiPageServer> {
  const modelDelayMs = options.modelDelayMs ?? 400;
  const guard = createRequestGuard();
  /** Each run's task and, once it stopped short, its report: what Continue starts from. */
  const runs = new Map<string, { task: string; report?: ProgressReport }>();
  const agent = createAgUiHandler({
    // A reloaded page has 15 s to reattach before the run is cancelled.
    disconnectGraceMs: 15_000,
    run: async ({ input, signal, sink }) => {
      const props = runPropsSchema.safeParse(input.forwardedProps ?? {});
      if (!props.success) throw new Error(`forwardedProps: ${describeIssues(toValidationIssues(props.error))}`);
      const last = input.messages.filter((m) => m.role === 'user').at(-1);
      let task = typeof last?.content === 'string' && last.content.trim() !== '' ? last.content.trim().slice(0, 2000) : DEFAULT_QUESTION;
      let prompt = task;
      let forward = sink;
      const parentId = props.data.continueFrom;
      if (parentId !== undefined) {
        const parent = runs.get(parentId);
        if (parent?.report === undefined)
          throw new Error(`continueFrom: run ${JSON.stringify(parentId)} left no progress report to continue from`);
        task = parent.task;
        prompt = continuationPrompt(parent.report);
        forward = (event) => {
          sink(asContinuation(event, task, parentId));
        };
      }
      const runtime = new AgentRuntime(
        { provider: 'scripted', agentName: 'notes-reader', maxIterations: props.data.maxIterations ?? 6 },
        {
          provider: heldProvider(
            new ScriptedProvider((options.model ?? notesModel)(modelDelayMs), { name: 'scripted', record: false }),
            input.runId,
            options.beforeModel,
          ),
          tools: [readNote],
          sinks: [forward],
        },
      );
      const entry: { task: string; report?: ProgressReport } = { task };
      runs.set(input.runId, entry);
      for (const id of runs.keys()) if (runs.size > MAX_RUNS) runs.delete(id);
      const result = await runtime.run(prompt, { signal, stream: true });
      if (result.report !== undefined && result.status !== 'completed') entry.report = result.report;
    },
  });
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/agent') {
      const refusal = req.method === 'POST' ? guard.refusal(req) : undefined;
      if (refusal !== undefined) {
        res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(refusal);
        return;
      }
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
        const html = extname(file) === '.html';
        res.writeHead(200, {
          'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
          'x-content-type-options': 'nosniff',
          ...(html ? { 'content-security-policy': PAGE_CSP, 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' } : {}),
        });
        // Each page served gets its own token, which its requests that start runs must carry.
        res.end(html ? withPageToken(body.toString('utf8'), guard.issue()) : body);
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

/** The provider, each call awaiting `beforeModel` first (the provider as it is without it). */
function heldProvider(inner: Provider, runId: string, beforeModel: AgUiPageServerOptions['beforeModel']): Provider {
  if (beforeModel === undefined) return inner;
  let index = 0;
  const held: Provider = {
    name: inner.name,
    isAvailable: () => inner.isAvailable?.() ?? true,
    complete: async (request: CompletionRequest, options?: ProviderCallOptions): Promise<CompletionResponse> => {
      await beforeModel({ runId, index: index++ });
      return inner.complete(request, options);
    },
  };
  const stream = inner.stream?.bind(inner);
  if (stream !== undefined) {
    held.stream = async function* (request: CompletionRequest, options?: ProviderCallOptions): AsyncGenerator<StreamChunk> {
      await beforeModel({ runId, index: index++ });
      yield* stream(request, options);
    };
  }
  return held;
}
