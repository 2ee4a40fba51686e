// An agent whose tool lives in a local MCP server; the tool's own progress shows in the CLI bar.
//
//   npm start --prefix examples/mcp-tools                   the agent, with its CLI bar
//   npm start --prefix examples/mcp-tools -- --via-mcp      the same agent as an MCP tool,
//                                                             called by the official MCP client
//   --doc-step-ms MS                                          how slow the tool is (default 300)
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CLIReporter } from '@headway/reporter-cli';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createAgent } from './agent.js';

const { values } = parseArgs({
  // pnpm hands its `--` separator on to the script (`pnpm -F … start -- --flag`): it is not an argument.
  args: process.argv.slice(process.argv[2] === '--' ? 3 : 2),
  options: { 'via-mcp': { type: 'boolean', default: false }, 'doc-step-ms': { type: 'string', default: '300' } },
});
const docStepMs = Number(values['doc-step-ms']);
if (!Number.isFinite(docStepMs) || docStepMs < 0) {
  process.stderr.write('mcp-tools: --doc-step-ms: expected milliseconds ≥ 0\n');
  process.exit(2);
}

if (values['via-mcp']) {
  const client = new Client({ name: 'mcp-tools-example', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', import.meta.resolve('tsx'), fileURLToPath(new URL('./agent-server.ts', import.meta.url))],
      env: { ...process.env, DOC_STEP_MS: String(docStepMs) },
    }),
  );
  const result = await client.callTool({ name: 'index_handbook', arguments: { task: 'Index the handbook' } }, undefined, {
    onprogress: (p) => {
      process.stderr.write(`  [mcp progress] ${String(p.progress)}/${String(p.total)} ${p.message ?? ''}\n`);
    },
    timeout: 5_000,
    resetTimeoutOnProgress: true,
  });
  for (const block of result.content as { type: string; text?: string }[])
    if (block.type === 'text') process.stdout.write(`${block.text ?? ''}\n`);
  process.stdout.write(`${JSON.stringify(result.structuredContent)}\n`);
  await client.close();
} else {
  const { runtime, docs } = await createAgent(new CLIReporter(), docStepMs);
  const result = await runtime.run('Index the handbook');
  await docs.close();
  process.stdout.write(`${result.text}\n`);
  // The headway CLI's exit codes: 0 done, 1 failed, 3 stopped short with a report, 130 cancelled.
  process.exitCode = { completed: 0, limit: 3, cancelled: 130, error: 1 }[result.status];
}
