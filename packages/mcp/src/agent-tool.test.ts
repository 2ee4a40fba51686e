import { ManualClock } from '@headway/protocol';
import { AgentRuntime, defineTool } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createAgentTool, type AgentRunFn } from './agent-tool.js';
import { serveHttp } from './fixture-server.test-util.js';

const lookup = defineTool({
  name: 'lookup',
  description: 'Look a word up',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: a word`,
});

function researcher(maxIterations: number, script: ConstructorParameters<typeof ScriptedProvider>[0]): AgentRuntime {
  return new AgentRuntime({ provider: 'scripted', maxIterations }, { provider: new ScriptedProvider(script), tools: [lookup] });
}

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

async function clientFor(register: (server: McpServer) => void): Promise<Client> {
  const http = await serveHttp(() => {
    const server = new McpServer({ name: 'agents', version: '1.0.0' });
    register(server);
    return server;
  });
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(http.url));
  open.push(() => client.close(), http.close);
  return client;
}

describe('createAgentTool, called by the official MCP client over Streamable HTTP', () => {
  it('runs the agent, sends rising progress out of 100 with the current step, answers with its text', async () => {
    const runtime = researcher(5, [
      { toolCalls: [{ name: 'lookup', args: { word: 'bar' } }] },
      { content: 'A bar is a unit of pressure.' },
    ]);
    const client = await clientFor((server) =>
      createAgentTool(runtime, { server, name: 'research', description: 'Research a question', progressIntervalMs: 0 }),
    );
    const progress: Progress[] = [];
    const result = await client.callTool({ name: 'research', arguments: { task: 'What is a bar?' } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(result.content).toEqual([{ type: 'text', text: 'A bar is a unit of pressure.' }]);
    expect(result.structuredContent).toMatchObject({ status: 'completed', iterations: 2 });
    expect(progress.length).toBeGreaterThan(1);
    for (const [i, p] of progress.entries()) {
      expect(p.total).toBe(100);
      expect(p.progress).toBeGreaterThan(progress[i - 1]?.progress ?? 0);
    }
    expect(progress.map((p) => p.message)).toContain('running lookup');
  });

  it('a run that hits its limit answers with the progress report, as text and structuredContent', async () => {
    const runtime = researcher(2, () => ({ toolCalls: [{ name: 'lookup', args: { word: 'again' } }] }));
    const client = await clientFor((server) => createAgentTool(runtime, { server, name: 'research', description: 'Research a question' }));
    const result = await client.callTool({ name: 'research', arguments: { task: 'Loop forever' } });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ status: 'limit', report: { task: 'Loop forever' } });
    expect(JSON.stringify(result.content)).toMatch(/Completed Work/u);
  });

  it('sends at most one notification per interval, the latest before the answer', async () => {
    const run: AgentRunFn = (task, { onEvent }) => {
      for (let percent = 1; percent <= 50; percent++)
        onEvent({ type: 'progress', percent, message: `at ${String(percent)}`, runId: 'r', seq: percent, ts: 0 });
      return Promise.resolve({
        text: task,
        status: 'completed',
        usage: { inputTokens: 0, outputTokens: 0 },
        iterations: 1,
        runId: 'r',
        sessionId: 's',
      });
    };
    const client = await clientFor((server) =>
      // On a clock that never moves, the window never ends: only the answer flushes the latest.
      createAgentTool(run, { server, name: 'burst', description: 'Bursts progress', progressIntervalMs: 60_000, clock: new ManualClock() }),
    );
    const progress: Progress[] = [];
    await client.callTool({ name: 'burst', arguments: { task: 'go' } }, undefined, { onprogress: (p) => progress.push(p) });
    // The SDK may settle the call before it hands over a notification sent just before the answer.
    expect(progress.map((p) => p.progress)).toEqual([1, 50].slice(0, Math.max(1, progress.length)));
    expect(progress[0]).toEqual({ progress: 1, total: 100, message: 'at 1' });
  });

  it('a client cancellation aborts the run', async () => {
    let aborted = false;
    let started = false;
    const run: AgentRunFn = (_task, { signal }) =>
      new Promise((_resolve, reject) => {
        started = true;
        signal.addEventListener(
          'abort',
          () => {
            aborted = true;
            reject(new Error('cancelled'));
          },
          { once: true },
        );
      });
    const client = await clientFor((server) => createAgentTool(run, { server, name: 'wait', description: 'Waits' }));
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: { task: 'wait' } }, undefined, { signal: controller.signal }).then(
      () => undefined,
      (e: unknown) => e,
    );
    await vi.waitFor(
      () => {
        expect(started).toBe(true);
      },
      { timeout: 30_000 },
    );
    controller.abort(new Error('stop'));
    await vi.waitFor(
      () => {
        expect(aborted).toBe(true);
      },
      { timeout: 30_000 },
    );
    expect(String(await call)).toMatch(/stop/u);
  }, 90_000);
});
