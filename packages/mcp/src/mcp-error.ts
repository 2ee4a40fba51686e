import { HeadwayError, type HeadwayErrorOptions } from '@headway/protocol';

/** Codes an {@link McpError} can carry. */
export type McpErrorCode =
  /** The server could not be started or reached, or the MCP handshake failed. */
  | 'MCP_CONNECT_FAILED'
  /** The server's tool list is not usable (bad name, bad input schema, malformed answer). */
  | 'MCP_INVALID_TOOL_LIST'
  /** A call failed on the way: the server died, the connection closed, the call timed out. */
  | 'MCP_CALL_FAILED'
  /** The server answered a call with something that is not a tool result. */
  | 'MCP_INVALID_RESULT'
  /** The tool answered with `isError: true`; the message carries its text. */
  | 'MCP_TOOL_ERROR'
  /**
   * A tool schema's `pattern` that RE2 cannot run (a backreference, a lookaround) is not checked
   * before the call (passed to `onInternalError`; the server checks its own input).
   */
  | 'MCP_UNCHECKED_PATTERN'
  /** `createMcpTools` or `createAgentTool` was given options it cannot use. */
  | 'MCP_INVALID_OPTIONS';

/** Details of an {@link McpError}. */
export interface McpErrorOptions extends HeadwayErrorOptions {
  /** The server's name (from its handshake, or the command or URL it was reached by). */
  server?: string;
  /** The tool concerned, when there is one. */
  tool?: string;
}

/**
 * Something went wrong between a headway run and an MCP server. The message and the
 * `server` and `tool` fields name where, so a run's log says which tool of which server failed.
 */
export class McpError extends HeadwayError<McpErrorCode, McpErrorOptions> {
  override readonly name: string = 'McpError';
  /** The server's name, when known. */
  declare readonly server: string | undefined;
  /** The tool concerned, when there is one. */
  declare readonly tool: string | undefined;
}
