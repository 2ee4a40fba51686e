// A real local MCP server (the official SDK's McpServer over stdio) with a slow tool that
// reports its own progress: `index_docs` indexes N documents, one notification per document.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const stepMs = Number(process.env.DOC_STEP_MS ?? '300');
const server = new McpServer({ name: 'docs', version: '1.0.0' });

server.registerTool(
  'index_docs',
  {
    description: 'Index the documents of a folder for search',
    inputSchema: { folder: z.string(), documents: z.number().int().min(1).max(1000) },
  },
  async ({ folder, documents }, extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= documents; i++) {
      if (extra.signal.aborted) break;
      await new Promise((resolve) => setTimeout(resolve, stepMs));
      if (token !== undefined) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: i, total: documents, message: `indexed ${folder}/doc-${String(i)}.md` },
        });
      }
    }
    return {
      content: [{ type: 'text', text: `Indexed ${String(documents)} documents in ${folder}.` }],
      structuredContent: { folder, documents },
    };
  },
);

await server.connect(new StdioServerTransport());
