// The same agent exposed as an MCP tool (`index_handbook`) over stdio: its bar — including the
// nested MCP tool's own progress — becomes the caller's progress notifications.
import { agentTool } from '@headway/mcp';
import { NullReporter } from '@headway/protocol';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createAgent } from './agent.js';

// The runtime's reporter is fixed when it is built; each call points it at its own progress.
let forward: ((percent: number, message?: string) => void) | undefined;
const reporter = new (class extends NullReporter {
  override onProgress(percent: number, label: string): void {
    forward?.(percent, label === '' ? undefined : label);
  }
})();
const { runtime, docs } = await createAgent(reporter, Number(process.env.DOC_STEP_MS ?? '300'));
const server = new McpServer({ name: 'librarian', version: '1.0.0' });
agentTool(
  async (task, { signal, onProgress }) => {
    forward = onProgress;
    try {
      return await runtime.run(task, { signal });
    } finally {
      forward = undefined;
    }
  },
  { server, name: 'index_handbook', description: 'Index the handbook for search', progressIntervalMs: 50 },
);
const transport = new StdioServerTransport();
transport.onclose = () => {
  void docs.close();
};
await server.connect(transport);
