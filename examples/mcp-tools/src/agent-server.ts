// The same agent exposed as an MCP tool (`index_handbook`) over stdio: its bar — including the
// nested MCP tool's own progress, which is in the run's events — becomes the caller's progress
// notifications.
import { createAgentTool } from '@headway/mcp';
import { NullReporter } from '@headway/protocol';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createAgent } from './agent.js';

const { runtime, docs } = await createAgent(new NullReporter(), Number(process.env.DOC_STEP_MS ?? '300'));
const server = new McpServer({ name: 'librarian', version: '1.0.0' });
createAgentTool(runtime, { server, name: 'index_handbook', description: 'Index the handbook for search', progressIntervalMs: 50 });
const transport = new StdioServerTransport();
transport.onclose = () => {
  void docs.close();
};
await server.connect(transport);
