import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { redactString } from '@headway/protocol';
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

const CENSOR = '[REDACTED]';

/**
 * Turns a text that may hold a server URL's credentials into one that does not: the password
 * (as written, and percent-decoded) is censored wherever it appears, the URL's userinfo too
 * when the URL could not be parsed, then every other secret shape (`?token=…`, bearer tokens).
 */
interface Scrubber {
  (text: string): string;
  /** The URL as it may be shown: `scheme://user:[REDACTED]@host/path`. */
  readonly label: string;
}

function decodeOrSelf(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A scrubber for the credentials of `raw` (a URL, parsed or not). */
function urlScrubber(raw: string): Scrubber {
  let secrets: string[] = [];
  let label: string;
  try {
    const url = new URL(raw);
    secrets = url.password === '' ? [] : [url.password, decodeOrSelf(url.password)];
    const userinfo = url.username === '' && url.password === '' ? '' : `${url.username}${url.password === '' ? '' : `:${CENSOR}`}@`;
    label = `${url.protocol}//${userinfo}${url.host}${url.pathname}${url.search}`;
  } catch {
    // Not a URL (a password with "/" or "@" in it, say): everything between the scheme and the
    // last "@" may be credentials.
    const at = raw.lastIndexOf('@');
    const scheme = /^[a-z][a-z\d+.-]*:\/\//i.exec(raw)?.[0];
    if (at !== -1) secrets = [raw.slice(scheme?.length ?? 0, at)];
    label = at === -1 ? raw : `${scheme ?? ''}${CENSOR}${raw.slice(at)}`;
  }
  const found = secrets.filter((s) => s !== '').sort((a, b) => b.length - a.length);
  const pattern = found.length === 0 ? undefined : new RegExp(found.map(escapeRegExp).join('|'), 'g');
  const scrub = (text: string): string => redactString(pattern === undefined ? text : text.replace(pattern, CENSOR));
  return Object.assign(scrub, { label: scrub(label) });
}

function describeSource(source: StdioServer | HttpServer, scrub: Scrubber | undefined): string {
  if (scrub !== undefined) return scrub.label;
  return redactString([(source as StdioServer).command, ...((source as StdioServer).args ?? [])].join(' '));
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
  // Passwords in a server URL never reach an error message, its `server` field or its cause.
  const scrub = 'url' in source ? urlScrubber(String(source.url)) : undefined;
  const label = name ?? describeSource(source, scrub);
  let url: URL | undefined;
  if ('url' in source) {
    try {
      url = new URL(source.url);
    } catch {
      // The cause is left out: it may hold the URL as written.
      throw new McpError('MCP_INVALID_OPTIONS', `createMcpTools: url: not a URL: ${scrub?.label ?? ''}`, { server: label });
    }
  }
  const transport =
    url !== undefined ? new StreamableHTTPClientTransport(url, httpOptions(source as HttpServer)) : stdioTransport(source as StdioServer);
  const client = new Client({ name: clientName, version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    const message = errorMessage(error);
    const clean = scrub === undefined ? redactString(message) : scrub(message);
    // A cause whose message held a credential is left out: a logger would print it.
    throw new McpError('MCP_CONNECT_FAILED', `MCP server "${label}": could not connect: ${clean}`, {
      ...(clean === message ? { cause: error } : {}),
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
