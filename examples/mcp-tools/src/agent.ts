// The agent: a scripted model (no API key needed) that calls the MCP server's slow tool, with
// the tool's own progress nested in the run's bar (and so in whatever reporter it is given).
import { fileURLToPath } from 'node:url';
import { createMcpTools, type McpToolSet } from '@headway/mcp';
import type { ProgressReporter } from '@headway/protocol';
import { AgentRuntime } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';

const toolServer = fileURLToPath(new URL('./tool-server.ts', import.meta.url));

export interface Agent {
  runtime: AgentRuntime;
  docs: McpToolSet;
}

/** Starts the tool server (a child process over stdio) and builds the agent around its tools. */
export async function createAgent(reporter: ProgressReporter, docStepMs: number): Promise<Agent> {
  const docs = await createMcpTools(
    // tsx runs the TypeScript server; a published server would be `{ command: 'npx', args: [...] }`.
    {
      command: process.execPath,
      args: ['--import', import.meta.resolve('tsx'), toolServer],
      env: { ...process.env, DOC_STEP_MS: String(docStepMs) },
      stderr: 'inherit',
    },
    { timeoutMs: 5_000 },
  );
  const runtime = new AgentRuntime(
    { provider: 'scripted', agentName: 'librarian', maxIterations: 5 },
    {
      provider: new ScriptedProvider([
        { toolCalls: [{ name: 'index_docs', args: { folder: 'handbook', documents: 5 } }] },
        { content: 'The handbook is indexed: 5 documents are ready for search.' },
      ]),
      tools: docs.tools,
      progressReporter: reporter,
    },
  );
  return { runtime, docs };
}
