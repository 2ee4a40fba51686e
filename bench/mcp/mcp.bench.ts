// Cost of going through @headway/mcp instead of the MCP SDK's Client directly, over stdio to
// real child processes (this same file, run with --serve, is the server). Interleaved rounds in
// one process; the ratio is the median over rounds. Run: pnpm -F @headway/bench bench:mcp
//
//   1. one tool call:      createMcpTools' tool.execute   vs  client.callTool          (claim ≤ 1.2×)
//   2. a call sending 1,000 progress notifications, forwarded into the run's bar (a real
//      ProgressTracker child, as the runtime's ctx.reportProgress does)
//                          vs  client.callTool with an empty onprogress          (claim ≤ 1.2×)
import { performance } from 'node:perf_hooks';
import { ProgressTracker } from '@headway/estimator';
import { createMcpTools } from '@headway/mcp';
import type { ToolContext } from '@headway/runtime';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { verdict } from '../lib/verdict.js';

const NOTIFICATIONS = 1_000;

if (process.argv.includes('--serve')) {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerTool('burst', { inputSchema: { count: z.number().int() } }, async ({ count }, extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= count; i++) {
      if (token !== undefined)
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: i, total: count, message: `item ${String(i)}` },
        });
    }
    return { content: [{ type: 'text', text: `sent ${String(count)}` }] };
  });
  await server.connect(new StdioServerTransport());
} else {
  const spawnArgs = {
    command: process.execPath,
    args: ['--import', import.meta.resolve('tsx'), import.meta.filename, '--serve'],
    stderr: 'inherit' as const,
  };
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport(spawnArgs));
  let shown = 0;
  // What the runtime does with ctx.reportProgress: a child tracker over the call's slice of the run's tracker.
  const run = new ProgressTracker({
    maxIterations: 10,
    emit: () => {
      shown += 1;
    },
  });
  const child = run.child({ start: 20, end: 40 }, { aiDriven: true });
  const set = await createMcpTools(spawnArgs);
  const ctx: ToolContext = {
    signal: new AbortController().signal,
    idempotencyKey: 'b:c',
    runId: 'b',
    toolCallId: 'c',
    iteration: 0,
    progressSlice: { lo: 20, hi: 40 },
    reportProgress: (update) => {
      if (update.percent !== undefined)
        child.reportModelProgress({ percent: update.percent, ...(update.message === undefined ? {} : { message: update.message }) });
      else if (update.message !== undefined) run.setMessage(update.message);
    },
  };
  const tool = (name: string) => {
    const found = set.tools.find((t) => t.name === name);
    if (found === undefined) throw new Error(`no tool ${name}`);
    return found;
  };
  const echo = tool('echo');
  const burst = tool('burst');

  async function once(fn: () => Promise<unknown>): Promise<number> {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  }

  async function ratio(
    label: string,
    rounds: number,
    n: number,
    baseline: () => Promise<unknown>,
    variant: () => Promise<unknown>,
    claim: number,
  ): Promise<boolean> {
    for (let i = 0; i < n; i++) await Promise.all([baseline(), variant()].map((p) => p.then(() => undefined)));
    const ratios: number[] = [];
    const base: number[] = [];
    for (let r = 0; r < rounds; r++) {
      // Call by call, alternating which side goes first, so a shared machine's load swings hit both alike.
      let tb = 0;
      let tv = 0;
      for (let i = 0; i < n; i++) {
        if ((i + r) % 2 === 0) {
          tb += await once(baseline);
          tv += await once(variant);
        } else {
          tv += await once(variant);
          tb += await once(baseline);
        }
      }
      ratios.push(tv / tb);
      base.push(tb / n);
    }
    ratios.sort((x, y) => x - y);
    base.sort((x, y) => x - y);
    const median = ratios[Math.floor(ratios.length / 2)] ?? Number.NaN;
    console.log(`${label}: baseline ${(base[Math.floor(base.length / 2)] ?? 0).toFixed(3)} ms/call, @headway/mcp ${median.toFixed(3)}×`);
    return Number.isFinite(claim) ? verdict(`mcp: ${label}`, median, '<=', claim) : true;
  }

  // The same request createMcpTools makes: a progress token (so progress keeps it alive), a timeout
  // restarted by progress, an overall cap, and a signal of its own.
  const sameRequest = () => ({
    onprogress: () => undefined,
    signal: new AbortController().signal,
    timeout: 60_000,
    resetTimeoutOnProgress: true,
    maxTotalTimeout: 600_000,
  });
  const results = [
    await ratio(
      'one tool call over stdio (Client with the same request options)',
      15,
      100,
      () => client.callTool({ name: 'echo', arguments: { text: 'hello' } }, undefined, sameRequest()),
      () => Promise.resolve(echo.execute({ text: 'hello' }, ctx)),
      1.2,
    ),
    // Informational: against a bare callTool (no progress token, default timeout).
    await ratio(
      'one tool call over stdio (bare Client.callTool, informational)',
      15,
      100,
      () => client.callTool({ name: 'echo', arguments: { text: 'hello' } }),
      () => Promise.resolve(echo.execute({ text: 'hello' }, ctx)),
      Number.POSITIVE_INFINITY,
    ),
    await ratio(
      `a call sending ${String(NOTIFICATIONS)} progress notifications`,
      11,
      4,
      () =>
        client.callTool({ name: 'burst', arguments: { count: NOTIFICATIONS } }, undefined, {
          onprogress: () => undefined,
          resetTimeoutOnProgress: true,
        }),
      () => Promise.resolve(burst.execute({ count: NOTIFICATIONS }, ctx)),
      1.2,
    ),
  ];
  if (shown === 0) throw new Error('no progress reached the run bar');
  await set.close();
  await client.close();
  process.exit(results.every(Boolean) ? 0 : 1);
}
