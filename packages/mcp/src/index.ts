export { createMcpTools } from './mcp-tools.js';
export type { McpErrorContext, McpToolSet, McpToolsOptions } from './mcp-tools.js';
export type { HttpServer, McpServerSource, StdioServer } from './connect.js';
export { mapCallToolResult } from './map-result.js';
export type { McpToolResult, ResultOrigin } from './map-result.js';
export type { NestedProgress } from './progress-slice.js';
export { McpError } from './mcp-error.js';
export type { McpErrorCode, McpErrorOptions } from './mcp-error.js';
export { createAgentTool, runResultToToolResult } from './agent-tool.js';
export type { AgentRunContext, AgentRunFn, AgentToolOptions } from './agent-tool.js';
// eslint-disable-next-line @typescript-eslint/no-deprecated -- kept as an alias for one minor
export type { ThrottleTimers } from './agent-tool.js';
// eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated aliases, removed in the next minor
export { mcpTools } from './mcp-tools.js';
// eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated aliases, removed in the next minor
export { agentTool } from './agent-tool.js';
