import { getEventListeners } from 'node:events';
import { fileURLToPath } from 'node:url';
import { AgentRuntime, type ToolContext, type ToolProgressUpdate } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { HeadwayError, type ProgressEvent } from '@headway/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { serveHttp, startHttpFixture, type FixtureLog } from './fixture-server.test-util.js';
import { createMcpTools, type McpToolSet } from './mcp-tools.js';
import type { NestedProgress } from './progress-slice.js';

const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
const stdioFixture = {
  command: tsx,
  args: [fileURLToPath(new URL('./fixture-stdio.test-util.ts', import.meta.url))],
  stderr: 'ignore' as const,
};

/** What the tool reported through the context, in order. */
const reported: ToolProgressUpdate[] = [];

function ctx(signal: AbortSignal = new AbortController().signal): ToolContext {
  return {
    signal,
    idempotencyKey: 'r:c',
    runId: 'r',
    toolCallId: 'c',
    iteration: 0,
    progressSlice: { lo: 40, hi: 60 },
    reportProgress: (update) => reported.push(update),
  };
}

function tool(set: McpToolSet, name: string) {
  const found = set.tools.find((t) => t.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

describe('createMcpTools over stdio (a child process)', () => {
  let set: McpToolSet;
  const updates: NestedProgress[] = [];
  beforeAll(async () => {
    set = await createMcpTools(stdioFixture, { onProgress: (u) => updates.push(u) });
  });
  afterAll(() => set.close());

  it('lists the server tools with their JSON Schema and checks arguments against it', () => {
    expect(set.server).toBe('fixture');
    expect(set.tools.map((t) => t.name)).toEqual(['echo', 'fail', 'slow', 'hang', 'die']);
    const echo = tool(set, 'echo');
    expect(echo.jsonSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    expect(echo.parameters.safeParse({ text: 'hi' }).success).toBe(true);
    const bad = echo.parameters.safeParse({ text: 3 });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toMatch(/text.*must be string/u);
  });

  it('returns text with structuredContent kept', async () => {
    await expect(tool(set, 'echo').execute({ text: 'hello' }, ctx())).resolves.toEqual({ text: 'hello', structuredContent: { length: 5 } });
  });

  it('turns isError into a typed error naming server and tool', async () => {
    const error: unknown = await Promise.resolve(tool(set, 'fail').execute({}, ctx())).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(HeadwayError.isInstance(error, 'MCP_TOOL_ERROR')).toBe(true);
    expect((error as Error).message).toBe('MCP server "fixture", tool "fail" reported an error: disk on fire');
  });

  it('reports the server progress to the run and maps it into the slice, never backwards, ending at the top of the slice', async () => {
    updates.length = 0;
    reported.length = 0;
    await expect(tool(set, 'slow').execute({ steps: 4, delayMs: 5, backwards: true }, ctx())).resolves.toBe('done after 4 steps');
    // Including the notification sent just before the answer, which the SDK alone would drop.
    expect(reported.map((u) => u.percent)).toEqual([25, 12.5, 75, 100]);
    expect(reported[0]).toEqual({ percent: 25, message: 'step 1 of 4' });
    expect(updates.map((u) => u.percent)).toEqual([45, 45, 55, 60]);
    expect(updates[0]).toMatchObject({
      server: 'fixture',
      tool: 'slow',
      runId: 'r',
      toolCallId: 'c',
      progress: 1,
      total: 4,
      message: 'step 1 of 4',
    });
  });

  it('many calls under one run signal leave no listeners on it', async () => {
    const run = new AbortController();
    for (let i = 0; i < 20; i++) await tool(set, 'echo').execute({ text: String(i) }, ctx(run.signal));
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('a server that dies mid-call gives a typed error naming server and tool', async () => {
    const dying = await createMcpTools(stdioFixture);
    const error: unknown = await Promise.resolve(tool(dying, 'die').execute({}, ctx())).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(HeadwayError.isInstance(error, 'MCP_CALL_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/^MCP server "fixture", tool "die": the call failed: .*Connection closed/u);
    await dying.close();
  });
});

describe('createMcpTools over Streamable HTTP on 127.0.0.1', () => {
  const log: FixtureLog = { cancelled: [] };
  let http: Awaited<ReturnType<typeof startHttpFixture>>;
  let set: McpToolSet;
  // For the cancellation tests: a request timeout that a busy machine cannot reach before the abort.
  let patient: McpToolSet;
  const updates: NestedProgress[] = [];
  beforeAll(async () => {
    http = await startHttpFixture(log);
    // The default request timeout (60 s): no pause of a busy machine cuts short a call that must succeed.
    set = await createMcpTools({ url: http.url }, { onProgress: (u) => updates.push(u) });
    patient = await createMcpTools({ url: http.url }, { timeoutMs: 60_000 });
  });
  afterAll(async () => {
    await set.close();
    await patient.close();
    await http.close();
  });

  it('a tool without a total gives messages and no percent', async () => {
    updates.length = 0;
    await tool(set, 'slow').execute({ steps: 3, delayMs: 5, withTotal: false }, ctx());
    expect(updates.map((u) => [u.percent, u.message])).toEqual([
      [undefined, 'step 1 of 3'],
      [undefined, 'step 2 of 3'],
      [undefined, 'step 3 of 3'],
    ]);
  });

  it('cancelling the run sends MCP cancellation for the call in flight', async () => {
    const controller = new AbortController();
    log.started = [];
    const call = Promise.resolve(tool(patient, 'hang').execute({}, ctx(controller.signal))).then(
      () => undefined,
      (e: unknown) => e,
    );
    await vi.waitFor(
      () => {
        expect(log.started).toHaveLength(1);
      },
      { timeout: 30_000 },
    );
    controller.abort(new Error('run cancelled'));
    await vi.waitFor(
      () => {
        expect(log.cancelled).toHaveLength(1);
      },
      { timeout: 30_000 },
    );
    expect(String(await call)).toMatch(/run cancelled/u);
  }, 90_000);

  it('cancelling an agent run cancels its MCP call on the server', async () => {
    const before = log.cancelled.length;
    log.started = [];
    const controller = new AbortController();
    const runtime = new AgentRuntime(
      { provider: 'scripted', maxIterations: 5 },
      { provider: new ScriptedProvider([{ toolCalls: [{ name: 'hang', args: {} }] }, { content: 'never' }]), tools: patient.tools },
    );
    const run = runtime.run('Wait for the hanging tool', { signal: controller.signal });
    // Stop once the call has reached the server.
    await vi.waitFor(
      () => {
        expect(log.started).toHaveLength(1);
      },
      { timeout: 30_000 },
    );
    controller.abort(new Error('user pressed stop'));
    await vi.waitFor(
      () => {
        expect(log.cancelled.length).toBe(before + 1);
      },
      { timeout: 30_000 },
    );
    expect((await run).status).toBe('cancelled');
  }, 90_000);

  it('a long tool stays alive on progress past the per-request timeout (scaled: 5 s timeout, 15 s call)', async () => {
    // The server and this client share one event loop: a pause longer than the timeout fires it
    // before the waiting notification is read. 5 s outlasts the pauses of a loaded machine; the
    // call (progress every 0.5 s) still runs three times as long as the timeout.
    const lively = await createMcpTools({ url: http.url }, { timeoutMs: 5_000 });
    try {
      await expect(tool(lively, 'slow').execute({ steps: 30, delayMs: 500 }, ctx())).resolves.toBe('done after 30 steps');
    } finally {
      await lively.close();
    }
  }, 60_000);

  it('without progress the per-request timeout ends the call with a typed error', async () => {
    const hasty = await createMcpTools({ url: http.url }, { timeoutMs: 1_000 });
    const error: unknown = await Promise.resolve(tool(hasty, 'hang').execute({}, ctx())).then(
      () => undefined,
      (e: unknown) => e,
    );
    await hasty.close();
    expect(HeadwayError.isInstance(error, 'MCP_CALL_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/^MCP server "fixture", tool "hang": the call failed: .*timed out/iu);
  });

  it('progress does not keep a call alive past the overall cap', async () => {
    const capped = await createMcpTools({ url: http.url }, { timeoutMs: 300, maxTotalTimeoutMs: 400 });
    const error: unknown = await Promise.resolve(tool(capped, 'slow').execute({ steps: 30, delayMs: 50 }, ctx())).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(HeadwayError.isInstance(error, 'MCP_CALL_FAILED')).toBe(true);
    await capped.close();
  });

  it('nests a tool’s progress in the run as progress events inside the call’s slice, never backwards', async () => {
    const events: ProgressEvent[] = [];
    let slice: ToolContext['progressSlice'] | undefined;
    const nested = await createMcpTools({ url: http.url });
    const slow = tool(nested, 'slow');
    const watched = {
      ...slow,
      execute: (args: Record<string, unknown>, c: ToolContext) => {
        slice = c.progressSlice;
        return slow.execute(args, c);
      },
    };
    const runtime = new AgentRuntime(
      { provider: 'scripted', maxIterations: 5 },
      {
        provider: new ScriptedProvider([
          { toolCalls: [{ name: 'slow', args: { steps: 5, delayMs: 5 }, id: 'call_slow' }] },
          { content: 'All done.' },
        ]),
        tools: [watched],
        sinks: [
          (e) => {
            events.push(e);
          },
        ],
      },
    );
    const result = await runtime.run('Run the slow tool');
    await nested.close();
    expect(result.status).toBe('completed');
    const start = events.findIndex((e) => e.type === 'tool.executing');
    const end = events.findIndex((e) => e.type === 'tool.completed');
    const during = events.slice(start + 1, end).flatMap((e) => (e.type === 'progress' ? [e] : []));
    expect(during.map((e) => e.message)).toEqual(['step 1 of 5', 'step 2 of 5', 'step 3 of 5', 'step 4 of 5', 'step 5 of 5']);
    const { lo, hi } = slice ?? { lo: Number.NaN, hi: Number.NaN };
    for (const e of during) {
      expect(e.percent).toBeGreaterThanOrEqual(Math.floor(lo));
      expect(e.percent).toBeLessThanOrEqual(Math.ceil(hi));
    }
    expect(during.at(-1)?.percent).toBe(Math.round(lo + 0.99 * (hi - lo)));
    const shown = events.flatMap((e) => (e.type === 'progress' ? [e.percent] : []));
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
    expect(shown.at(-1)).toBe(100);
  });
});

describe('a server that lists tools wrongly', () => {
  it('gives a typed error naming the server and the tool', async () => {
    const http = await serveHttp(() => {
      const server = new McpServer({ name: 'sloppy', version: '1.0.0' });
      server.registerTool('read file', { description: 'A name no model provider accepts' }, () => ({ content: [] }));
      return server;
    });
    const error: unknown = await createMcpTools({ url: http.url }).then(
      () => undefined,
      (e: unknown) => e,
    );
    await http.close();
    expect(HeadwayError.isInstance(error, 'MCP_INVALID_TOOL_LIST')).toBe(true);
    expect((error as Error).message).toBe('MCP server "sloppy", tool "read file": its name is not 1–64 letters, digits, "_" or "-"');
  });
});

describe('a server that answers wrongly', () => {
  it('gives a typed error naming the server and the tool', async () => {
    const http = await serveHttp(() => {
      const server = new McpServer({ name: 'liar', version: '1.0.0' });
      // The official server passes a handler's answer through; this one is not a tool result.
      server.registerTool('lie', { description: 'Answers with nonsense' }, () => ({ content: [{ type: 'bogus', text: 1 }] }) as never);
      return server;
    });
    const set = await createMcpTools({ url: http.url });
    const error: unknown = await Promise.resolve(tool(set, 'lie').execute({}, ctx())).then(
      () => undefined,
      (e: unknown) => e,
    );
    await set.close();
    await http.close();
    expect(HeadwayError.isInstance(error, 'MCP_INVALID_RESULT')).toBe(true);
    expect((error as Error).message).toMatch(
      /^MCP server "liar", tool "lie" answered with an invalid result: .*Invalid tools\/call result/u,
    );
  });
});

describe('sources createMcpTools cannot use', () => {
  it('gives typed errors, not crashes', async () => {
    const codes = await Promise.all(
      [null, {}, { url: 'not a url' }, { command: '/nonexistent/mcp-server' }].map((source) =>
        createMcpTools(source as never).then(
          () => 'connected',
          (e: unknown) => (HeadwayError.isInstance(e) ? e.code : String(e)),
        ),
      ),
    );
    expect(codes).toEqual(['MCP_INVALID_OPTIONS', 'MCP_INVALID_OPTIONS', 'MCP_INVALID_OPTIONS', 'MCP_CONNECT_FAILED']);
  });
});

describe('passwords in server URLs (issue 31)', () => {
  it('never appear in a connection error: message, server, cause', async () => {
    const sources = [
      { url: 'http://admin:s3cr3t-Pa55@127.0.0.1:1/mcp', secret: 's3cr3t-Pa55' },
      { url: 'http://admin:s3cr%2Ft-Pa55@127.0.0.1:1/mcp', secret: 's3cr/t-Pa55' },
      { url: 'http://admin:pa/ss@wo@rd-77@127.0.0.1:1/mcp', secret: 'wo@rd-77' },
      { url: 'http://127.0.0.1:1/mcp?token=tok-1234567890abcdef', secret: 'tok-1234567890abcdef' },
    ];
    for (const { url, secret } of sources) {
      const error: unknown = await createMcpTools({ url }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(HeadwayError.isInstance(error)).toBe(true);
      const seen: string[] = [];
      for (let e: unknown = error; e instanceof Error; e = e.cause) seen.push(e.message, String((e as { server?: unknown }).server));
      const text = seen.join('\n');
      expect(text).toContain('127.0.0.1');
      expect(text).not.toContain(secret);
      expect(text).not.toContain(encodeURIComponent(secret));
    }
  });
});
