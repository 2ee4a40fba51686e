// Run in a child process by tool-arguments.test.ts: a server whose tool schema has a
// catastrophic pattern, connected in memory; prints what the argument check said.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createMcpTools } from './mcp-tools.js';

/** Checks `input` against a tool whose `s` has `pattern`; returns the check's verdict and the warnings. */
export async function checkAgainstPattern(pattern: RegExp, input: string): Promise<{ valid: boolean; warnings: string[] }> {
  const server = new McpServer({ name: 'hostile', version: '1.0.0' });
  server.registerTool('match', { description: 'A tool with a pattern', inputSchema: { s: z.string().regex(pattern) } }, () => ({
    content: [{ type: 'text', text: 'ok' }],
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  const warnings: string[] = [];
  const set = await createMcpTools(client, {
    onInternalError: (error, { where, tool }) =>
      warnings.push(`${where} ${tool} ${(error as { code?: string }).code ?? ''}: ${(error as Error).message}`),
  });
  const valid = set.tools[0]?.parameters.safeParse({ s: input }).success ?? false;
  await client.close();
  await server.close();
  return { valid, warnings };
}
