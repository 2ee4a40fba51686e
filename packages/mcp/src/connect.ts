import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { errorMessage } from '@headway/protocol/internal';
import { McpError } from './mcp-error.js';

/** A local MCP server started as a child process, spoken to over stdio. */
export interface StdioServer {
  command: string;
  args?: readonly string[];
  /** Environment of the child (default the SDK's safe subset of this process's). */
  env?: Record<string, string>;
  cwd?: string;
  /** Where the child's stderr goes (default `'inherit'`). */
  stderr?: 'inherit' | 'ignore' | 'pipe';
}

/** A remote MCP server spoken to over Streamable HTTP. */
export interface HttpServer {
  url: string | URL;
  /** Extra fetch options (headers for auth, for instance). */
  requestInit?: RequestInit;
}

/**
 * A connected SDK client (its owner closes it; its transport is set to deliver progress sent
 * just before an answer before the answer), or how to reach a server.
 */
export type McpServerSource = Client | StdioServer | HttpServer;

/** A connected client, a name for messages, and how to let go of it. */
export interface Connection {
  client: Client;
  server: string;
  /** Closes what this package opened; a client handed in is left to its owner. */
  close: () => Promise<void>;
}

function isClient(source: McpServerSource): source is Client {
  return (
    typeof source === 'object' &&
    (source as unknown) !== null &&
    typeof (source as Partial<Client>).callTool === 'function' &&
    typeof (source as Partial<Client>).listTools === 'function'
  );
}

function describeSource(source: StdioServer | HttpServer): string {
  return 'url' in source ? String(source.url) : [source.command, ...(source.args ?? [])].join(' ');
}

function httpOptions(source: HttpServer): { requestInit?: RequestInit } {
  return source.requestInit === undefined ? {} : { requestInit: source.requestInit };
}

function stdioTransport(source: StdioServer): StdioClientTransport {
  return new StdioClientTransport({
    command: source.command,
    args: [...(source.args ?? [])],
    ...(source.env === undefined ? {} : { env: source.env }),
    ...(source.cwd === undefined ? {} : { cwd: source.cwd }),
    stderr: source.stderr ?? 'inherit',
  });
}

/**
 * The SDK hands a notification to its handler one microtask after it arrives but settles a
 * request at once, so progress sent just before an answer (in the same read) was lost. Deferring
 * answers by one microtask lets the notifications before them through first, in wire order.
 */
function deliverNotificationsFirst(client: Client): void {
  const transport = client.transport;
  const inner = transport?.onmessage;
  if (transport === undefined || inner === undefined) return;
  transport.onmessage = (message, extra) => {
    if ('id' in message && ('result' in message || 'error' in message)) {
      queueMicrotask(() => {
        inner(message, extra);
      });
    } else {
      inner(message, extra);
    }
  };
}

/** Connects to the server a source names (or adopts a connected client). */
export async function connect(source: McpServerSource, name: string | undefined, clientName: string): Promise<Connection> {
  if (isClient(source)) {
    deliverNotificationsFirst(source);
    return { client: source, server: name ?? source.getServerVersion()?.name ?? 'mcp', close: () => Promise.resolve() };
  }
  if (
    typeof source !== 'object' ||
    (source as unknown) === null ||
    (!('url' in source) && typeof (source as Partial<StdioServer>).command !== 'string')
  ) {
    throw new McpError('MCP_INVALID_OPTIONS', 'createMcpTools: expected an MCP Client, { command, args } or { url }');
  }
  const label = name ?? describeSource(source);
  let url: URL | undefined;
  if ('url' in source) {
    try {
      url = new URL(source.url);
    } catch (error) {
      throw new McpError('MCP_INVALID_OPTIONS', `createMcpTools: url: not a URL: ${errorMessage(error)}`, { cause: error, server: label });
    }
  }
  const transport =
    url !== undefined ? new StreamableHTTPClientTransport(url, httpOptions(source as HttpServer)) : stdioTransport(source as StdioServer);
  const client = new Client({ name: clientName, version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new McpError('MCP_CONNECT_FAILED', `MCP server "${label}": could not connect: ${errorMessage(error)}`, {
      cause: error,
      server: label,
    });
  }
  deliverNotificationsFirst(client);
  return {
    client,
    server: name ?? client.getServerVersion()?.name ?? label,
    close: () => client.close(),
  };
}
