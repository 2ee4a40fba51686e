import type { InternalErrorContext, OnInternalError } from '@headway/protocol';
import type { Tool } from '@headway/runtime';
import { cleanMessage, cutText, errorMessage } from '@headway/protocol/internal';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connect, type McpServerSource } from './connect.js';
import { mapCallToolResult, type McpToolResult } from './map-result.js';
import { McpError } from './mcp-error.js';
import { SliceMapper, localPercent, type NestedProgress } from './progress-slice.js';
import { argumentsSchema, compileArgumentsCheck, createSchemaValidator } from './tool-arguments.js';

/** Options of {@link createMcpTools}. */
export interface McpToolsOptions {
  /** The server's name in messages (default: the name it gives in the handshake). */
  name?: string;
  /** Put before every tool name, e.g. `'files_'`, to keep tools of several servers apart (dots in MCP names become `_`). */
  prefix?: string;
  /** Per-request timeout in ms, restarted by every progress notification (default 60 000). */
  timeoutMs?: number;
  /** Cap on one call however much progress it reports, in ms (default 600 000). */
  maxTotalTimeoutMs?: number;
  /** Mark the tools `safe` (offered in `safe-chat` mode); default false. */
  safe?: boolean;
  /**
   * The server's tools (by their MCP name) that wait on something, such as a job's status: the
   * runtime's stall detection does not count repeating them as a loop (`poll` on the tool).
   */
  pollTools?: readonly string[];
  /**
   * Also receives each progress notification, mapped into the call's slice of the run's bar
   * (`ctx.progressSlice`) — for a display or log of your own. The run's bar moves without it.
   */
  onProgress?: (update: NestedProgress) => void;
  /**
   * Told about what the tool set survived: a schema `pattern` that RE2 cannot run (a
   * backreference, a lookaround) and is therefore not checked here — an {@link McpError}
   * `MCP_UNCHECKED_PATTERN` (`where: 'schema'`). Its own errors are ignored.
   */
  onInternalError?: OnInternalError<McpErrorContext>;
}

/** Where a failure {@link createMcpTools} survived happened: `schema` (a tool's input schema), with the server and tool. */
export interface McpErrorContext extends InternalErrorContext {
  readonly where: 'schema';
  readonly server: string;
  readonly tool: string;
}

/** The tools of one MCP server, ready for `new AgentRuntime(config, { tools })`. */
export interface McpToolSet {
  tools: Tool<Record<string, unknown>, McpToolResult>[];
  /** The server's name, as used in messages. */
  server: string;
  /** The SDK client underneath (for resources, prompts, or anything else). */
  client: Client;
  /** Closes the connection (and stops a stdio child); a client handed in is left open. */
  close: () => Promise<void>;
}

const TOOL_NAME = /^[\w-]{1,64}$/u;
const MAX_PAGES = 100;
/** How the SDK's client words an answer that is not a valid tool result. */
const INVALID_ANSWER =
  /Invalid tools\/call result|Structured content does not match|has an output schema but did not return structured content/u;

function invalidList(server: string, message: string, tool?: string, cause?: unknown): McpError {
  return new McpError('MCP_INVALID_TOOL_LIST', `MCP server "${server}"${tool === undefined ? '' : `, tool "${tool}"`}: ${message}`, {
    server,
    ...(tool === undefined ? {} : { tool }),
    ...(cause === undefined ? {} : { cause }),
  });
}

async function listAll(
  client: Client,
  server: string,
): Promise<{ name: string; description?: string | undefined; inputSchema: Record<string, unknown> }[]> {
  const tools = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    let answer;
    try {
      answer = await client.listTools(cursor === undefined ? {} : { cursor });
    } catch (error) {
      throw invalidList(server, `listing tools failed: ${errorMessage(error)}`, undefined, error);
    }
    tools.push(...answer.tools);
    cursor = answer.nextCursor;
    if (cursor === undefined) return tools;
  }
  throw invalidList(server, `the tool list goes on for more than ${String(MAX_PAGES)} pages`);
}

/**
 * Connects to an MCP server — over stdio (`{ command, args }`), Streamable HTTP (`{ url }`), or
 * through a client you connected — and returns its tools as tools of the headway runtime.
 * Arguments are checked against each tool's JSON Schema before they are sent; results come back
 * as text (with `structuredContent` kept) and `isError` answers as tool errors. Every call
 * carries a progress token: the server's progress restarts the call's timeout (up to
 * `maxTotalTimeoutMs`) and moves the run's bar inside the call's slice (`ctx.reportProgress`:
 * `lo + (hi - lo) * min(1, progress / total)`; without a total, only the message). When
 * the run is cancelled, calls in flight are cancelled on the server too.
 *
 * @throws {McpError} `MCP_CONNECT_FAILED`, or `MCP_INVALID_TOOL_LIST` naming the server and tool.
 * @example
 * ```ts
 * const files = await createMcpTools({ command: 'node', args: ['files-server.js'] });
 * const runtime = new AgentRuntime(config, { provider, tools: files.tools });
 * await runtime.run('Count the lines of README.md');
 * await files.close();
 * ```
 */
export async function createMcpTools(source: McpServerSource, options: McpToolsOptions = {}): Promise<McpToolSet> {
  const connection = await connect(source, options.name, 'headway');
  const { client, server } = connection;
  try {
    const listed = await listAll(client, server);
    const seen = new Set<string>();
    let current = '';
    // Server-supplied patterns run in linear time; one RE2 cannot run is reported, not checked.
    const validator = createSchemaValidator((pattern, reason) => {
      const message = `MCP server "${server}", tool "${current}": the pattern ${JSON.stringify(cutText(pattern, 200))} is not checked here (${reason}); the server checks its own input`;
      try {
        options.onInternalError?.(new McpError('MCP_UNCHECKED_PATTERN', message, { server, tool: current }), {
          where: 'schema',
          server,
          tool: current,
        });
      } catch {
        // The callback may not break the tool list.
      }
    });
    const tools = listed.map((entry) => {
      current = entry.name;
      // MCP names may hold dots; model providers take only letters, digits, "_" and "-".
      const name = `${options.prefix ?? ''}${entry.name.replaceAll('.', '_')}`;
      if (!TOOL_NAME.test(name)) throw invalidList(server, 'its name is not 1–64 letters, digits, "_" or "-"', entry.name);
      if (seen.has(name)) throw invalidList(server, 'listed twice', entry.name);
      seen.add(name);
      let check;
      try {
        check = compileArgumentsCheck(entry.inputSchema, validator);
      } catch (error) {
        throw invalidList(server, `its input schema does not compile: ${errorMessage(error)}`, entry.name, error);
      }
      return mcpTool(client, server, entry.name, name, entry.description, entry.inputSchema, argumentsSchema(check), options);
    });
    return { tools, server, client, close: connection.close };
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw error;
  }
}

function mcpTool(
  client: Client,
  server: string,
  remoteName: string,
  name: string,
  description: string | undefined,
  jsonSchema: Record<string, unknown>,
  parameters: Tool<Record<string, unknown>>['parameters'],
  options: McpToolsOptions,
): Tool<Record<string, unknown>, McpToolResult> {
  const timeout = options.timeoutMs ?? 60_000;
  const maxTotalTimeout = options.maxTotalTimeoutMs ?? 600_000;
  return {
    name,
    description: description ?? `Tool ${remoteName} of the MCP server ${server}`,
    parameters,
    jsonSchema,
    safe: options.safe ?? false,
    poll: options.pollTools?.includes(remoteName) === true,
    async execute(args, ctx) {
      const onProgress = options.onProgress;
      const mapper = onProgress === undefined ? undefined : new SliceMapper(ctx.progressSlice);
      // Every call carries a progress token, so the server's progress keeps it alive; each
      // notification moves the run's bar inside the call's slice (the runtime maps it there).
      const onprogress = (p: { progress: number; total?: number | undefined; message?: string | undefined }): void => {
        const own = localPercent(p.progress, p.total);
        const message = cleanMessage(p.message);
        ctx.reportProgress({ ...(own === undefined ? {} : { percent: own }), ...(message === undefined ? {} : { message }) });
        if (onProgress === undefined || mapper === undefined) return;
        const percent = mapper.map(p.progress, p.total);
        const update: NestedProgress = { server, tool: remoteName, runId: ctx.runId, toolCallId: ctx.toolCallId, progress: p.progress };
        if (p.total !== undefined) update.total = p.total;
        if (percent !== undefined) update.percent = percent;
        if (message !== undefined) update.message = message;
        try {
          onProgress(update);
        } catch {
          // A display callback that throws must not fail the call.
        }
      };
      // The SDK adds an abort listener to the signal of every request and never removes it; a
      // signal per call keeps those off the run's long-lived signal.
      const call = new AbortController();
      const onAbort = (): void => {
        call.abort(ctx.signal.reason);
      };
      if (ctx.signal.aborted) onAbort();
      else ctx.signal.addEventListener('abort', onAbort, { once: true });
      let answer: unknown;
      try {
        answer = await client.callTool({ name: remoteName, arguments: args }, undefined, {
          onprogress,
          signal: call.signal,
          timeout,
          resetTimeoutOnProgress: true,
          maxTotalTimeout,
        });
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        const message = errorMessage(error);
        // The SDK checks the answer against the protocol's schema (and the tool's outputSchema) itself.
        if (INVALID_ANSWER.test(message)) {
          throw new McpError(
            'MCP_INVALID_RESULT',
            `MCP server "${server}", tool "${remoteName}" answered with an invalid result: ${message}`,
            {
              cause: error,
              server,
              tool: remoteName,
            },
          );
        }
        throw new McpError('MCP_CALL_FAILED', `MCP server "${server}", tool "${remoteName}": the call failed: ${message}`, {
          cause: error,
          server,
          tool: remoteName,
        });
      } finally {
        ctx.signal.removeEventListener('abort', onAbort);
      }
      return mapCallToolResult(answer, { server, tool: remoteName });
    },
  };
}
