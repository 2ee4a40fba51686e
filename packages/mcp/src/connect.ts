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

/** A connected SDK client (its owner closes it), or how to reach a server. */
export type McpServerSource = Client | StdioServer | HttpServer;

/** A connected client, a name for messages, and how to let go of it. */
export interface Connection {
  client: Client;
  server: string;
  /** Closes what this package opened; a client handed in is left to its owner. */
  close: () => Promise<void>;
}

function isClient(source: McpServerSource): source is Client {
  return typeof (source as Partial<Client>).callTool === 'function' && typeof (source as Partial<Client>).listTools === 'function';
}

function describeSource(source: StdioServer | HttpServer): string {
  return 'url' in source ? String(source.url) : [source.command, ...(source.args ?? [])].join(' ');
}

/** Connects to the server a source names (or adopts a connected client). */
export async function connect(source: McpServerSource, name: string | undefined, clientName: string): Promise<Connection> {
  if (isClient(source)) {
    return { client: source, server: name ?? source.getServerVersion()?.name ?? 'mcp', close: () => Promise.resolve() };
  }
  const label = name ?? describeSource(source);
  if (typeof source !== 'object' || (!('url' in source) && typeof (source as Partial<StdioServer>).command !== 'string')) {
    throw new McpError('MCP_INVALID_OPTIONS', 'mcpTools: expected an MCP Client, { command, args } or { url }');
  }
  const transport =
    'url' in source
      ? new StreamableHTTPClientTransport(new URL(source.url), source.requestInit === undefined ? {} : { requestInit: source.requestInit })
      : new StdioClientTransport({
          command: source.command,
          args: [...(source.args ?? [])],
          ...(source.env === undefined ? {} : { env: source.env }),
          ...(source.cwd === undefined ? {} : { cwd: source.cwd }),
          stderr: source.stderr ?? 'inherit',
        });
  const client = new Client({ name: clientName, version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new McpError('MCP_CONNECT_FAILED', `MCP server "${label}": could not connect: ${errorMessage(error)}`, { cause: error, server: label });
  }
  return {
    client,
    server: name ?? client.getServerVersion()?.name ?? label,
    close: () => client.close(),
  };
}
