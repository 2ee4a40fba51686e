import { systemClock, type Clock, type ProgressEvent } from '@headway/protocol';
import { cleanMessage, errorMessage } from '@headway/protocol/internal';
import type { AgentRuntime, RunResult } from '@headway/runtime';
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { McpError } from './mcp-error.js';

/** What an {@link AgentRunFn} is given for one call. */
export interface AgentRunContext {
  /** Aborts when the MCP client cancels the call. */
  signal: AbortSignal;
  /** Give it the run's events (progress, steps, tools): they become progress notifications. */
  onEvent: (event: ProgressEvent) => void;
  /**
   * Moves the bar directly (0–100, never backwards): for a loop whose progress is not in
   * events it hands to `onEvent`.
   */
  onProgress: (percent: number, message?: string) => void;
  /** The call's arguments, as the input schema parsed them. */
  args: Record<string, unknown>;
}

/** Runs an agent for one call: any loop that reports its events and ends in a runtime `RunResult`. */
export type AgentRunFn = (task: string, ctx: AgentRunContext) => Promise<RunResult>;

/** Options of {@link createAgentTool}. */
export interface AgentToolOptions {
  /** The server to register the tool on. */
  server: McpServer;
  name: string;
  description: string;
  /** Zod object schema of the arguments (default `{ task: string }`). */
  inputSchema?: z.ZodObject;
  /** The task the agent gets from the arguments (default `args.task`, else the arguments as JSON). */
  task?: (args: Record<string, unknown>) => string;
  /** At most one progress notification per this many ms (default 250); the latest is sent when the window ends. */
  progressIntervalMs?: number;
  /** Time and timers of the progress throttle (default protocol's `systemClock`). */
  clock?: Clock;
}

function runtimeRunFn(runtime: AgentRuntime): AgentRunFn {
  return async (task, { signal, onEvent }) => {
    const stream = runtime.runStream(task, { signal, stream: false });
    for (;;) {
      const next = await stream.next();
      if (next.done === true) return next.value;
      onEvent(next.value);
    }
  };
}

/** The tool result a run ends in: the answer, or the progress report of a run that stopped short. */
export function runResultToToolResult(result: RunResult): CallToolResult {
  const structuredContent: Record<string, unknown> = { status: result.status, runId: result.runId, iterations: result.iterations };
  if (result.report !== undefined) structuredContent.report = result.report;
  return {
    content: [{ type: 'text', text: result.text }],
    structuredContent,
    ...(result.status === 'error' ? { isError: true } : {}),
  };
}

/**
 * Registers a headway agent as a tool on an MCP server. Each call runs the agent; while it runs,
 * the client gets `notifications/progress` (total 100, the percent and the current step as the
 * message) whenever the bar moves, at most every `progressIntervalMs`. A run that stops at a
 * limit or is cancelled answers with its progress report (text, and `structuredContent.report`),
 * so the calling agent can continue from it.
 *
 * @throws {McpError} `MCP_INVALID_OPTIONS` when `agent` is neither a runtime nor a function.
 * @example
 * ```ts
 * const server = new McpServer({ name: 'researcher', version: '1.0.0' });
 * createAgentTool(runtime, { server, name: 'research', description: 'Research a question' });
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function createAgentTool(agent: AgentRuntime | AgentRunFn, options: AgentToolOptions): RegisteredTool {
  const run: AgentRunFn =
    typeof agent === 'function'
      ? agent
      : typeof (agent as Partial<AgentRuntime>).runStream === 'function'
        ? runtimeRunFn(agent)
        : (() => {
            throw new McpError('MCP_INVALID_OPTIONS', `createAgentTool "${options.name}": expected an AgentRuntime or a run function`, {
              tool: options.name,
            });
          })();
  const interval = Math.max(0, options.progressIntervalMs ?? 250);
  const timers = options.clock ?? systemClock;
  const taskOf =
    options.task ?? ((args: Record<string, unknown>): string => (typeof args.task === 'string' ? args.task : JSON.stringify(args)));
  const inputSchema = options.inputSchema ?? z.object({ task: z.string().describe('What the agent should do') });
  return options.server.registerTool(options.name, { description: options.description, inputSchema }, (async (
    args: Record<string, unknown>,
    extra: {
      signal: AbortSignal;
      _meta?: { progressToken?: string | number };
      sendNotification: (n: { method: 'notifications/progress'; params: Record<string, unknown> }) => Promise<void>;
    },
  ): Promise<CallToolResult> => {
    const token = extra._meta?.progressToken;
    let percent = 0;
    let message: string | undefined;
    let sent = 0;
    let sentAt = Number.NEGATIVE_INFINITY;
    let timer: unknown;
    const send = (): void => {
      timer = undefined;
      if (token === undefined || percent <= sent) return;
      sent = percent;
      sentAt = timers.now();
      const params: Record<string, unknown> = { progressToken: token, progress: percent, total: 100 };
      if (message !== undefined) params.message = message;
      // The client may be gone; its progress is not worth failing the run for.
      extra.sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
    };
    const moved = (): void => {
      if (percent <= sent || timer !== undefined) return;
      const wait = sentAt + interval - timers.now();
      if (wait <= 0) send();
      else timer = timers.setTimeout(send, wait);
    };
    const onProgress = (value: number, text?: string): void => {
      if (Number.isFinite(value)) percent = Math.max(percent, Math.min(100, Math.round(value)));
      if (text !== undefined) message = cleanMessage(text) ?? message;
      moved();
    };
    const onEvent = (event: ProgressEvent): void => {
      if (event.type === 'step.started') message = cleanMessage(event.description ?? event.step) ?? message;
      else if (event.type === 'tool.executing') message = cleanMessage(`running ${event.toolName}`) ?? message;
      else if (event.type === 'progress') {
        onProgress(event.percent, event.message);
        return;
      }
      moved();
    };
    let result: RunResult;
    try {
      result = await run(taskOf(args), { signal: extra.signal, onEvent, onProgress, args });
    } catch (error) {
      return { content: [{ type: 'text', text: `The agent failed: ${errorMessage(error)}` }], isError: true };
    } finally {
      // The latest state goes out before the answer, so the client's bar ends where the run did.
      if (timer !== undefined) {
        timers.clearTimeout(timer);
        send();
      }
    }
    return runResultToToolResult(result);
  }) as never);
}
