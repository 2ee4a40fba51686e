import { EventType, type RunAgentInput } from '@ag-ui/core';
import { AgentRuntime, defineTool } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { systemClock, type Clock, type ProgressEvent } from '@headway/protocol';
import { deferred } from '@headway/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgUiHandler } from './ag-ui-handler.js';
import type { AgUiRunContext, AgUiServerOptions } from './ag-ui-server.js';
import { expectStateMatches, listen, parseSseEvents, runHttpAgent } from './http.test-util.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function serve(options: AgUiServerOptions): Promise<{ url: string; handler: ReturnType<typeof createAgUiHandler> }> {
  const handler = createAgUiHandler({ heartbeatMs: 0, ...options });
  const server = await listen(handler);
  closers.push(server.close);
  return { url: server.url, handler };
}

function userText(input: RunAgentInput): string {
  const last = input.messages.filter((m) => m.role === 'user').at(-1);
  return typeof last?.content === 'string' ? last.content : 'task';
}

const fileRead = defineTool({
  name: 'file_read',
  description: 'Read a file',
  parameters: z.object({ path: z.string() }),
  execute: ({ path }) => `contents of ${path}`,
});

/** A run function driving the real runtime, recording the events the endpoint received. */
type RuntimeTools = ConstructorParameters<typeof AgentRuntime>[1]['tools'];

function runtimeRun(
  script: ConstructorParameters<typeof ScriptedProvider>[0],
  events: ProgressEvent[],
  maxIterations = 10,
  tools: RuntimeTools = [fileRead],
) {
  return async ({ input, signal, sink, hub }: AgUiRunContext): Promise<void> => {
    hub.add((event) => {
      events.push(event);
    });
    const runtime = new AgentRuntime(
      { provider: 'scripted', maxIterations },
      { provider: new ScriptedProvider(script), sinks: [sink], tools },
    );
    await runtime.run(userText(input), { signal, stream: true });
  };
}

describe('createAgUiHandler with the official HttpAgent', () => {
  it('a full run: the client accepts the stream and ends with the state our events describe', async () => {
    const events: ProgressEvent[] = [];
    const { url } = await serve({
      run: runtimeRun(
        (conversation) =>
          conversation.some((m) => m.role === 'tool')
            ? { content: 'The repository has eight packages.' }
            : { content: 'Let me look.', toolCalls: [{ name: 'file_read', args: { path: 'README.md' } }] },
        events,
      ),
    });
    const run = await runHttpAgent(url);
    expect(run.outcome).toBe('success');
    expect(run.runError).toBeUndefined();
    expectStateMatches(run, events);
    expect(run.wire[0]).toMatchObject({ type: 'RUN_STARTED', threadId: 'thread-1', protocolVersion: '1.0' });
    expect(run.wire.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' }, result: { outcome: 'completed' } });
    const messages = run.messages.filter((m) => m.role !== 'activity').map((m) => [m.role, 'content' in m ? m.content : undefined]);
    expect(messages).toEqual([
      ['user', 'Summarize the repository'],
      ['assistant', 'Let me look.'],
      ['tool', 'contents of README.md'],
      ['assistant', 'The repository has eight packages.'],
    ]);
  });

  it('a tool-heavy run: every call and result arrives, in order', async () => {
    const events: ProgressEvent[] = [];
    const { url } = await serve({
      run: runtimeRun(
        (_conversation, _request, call) =>
          call < 4
            ? { toolCalls: [0, 1, 2].map((i) => ({ name: 'file_read', args: { path: `f${call}-${i}.md` } })) }
            : { content: 'Read twelve files.' },
        events,
      ),
    });
    const run = await runHttpAgent(url);
    expect(run.outcome).toBe('success');
    expectStateMatches(run, events);
    expect(run.messages.filter((m) => m.role === 'tool')).toHaveLength(12);
    expect(run.wire.filter((e) => e.type === EventType.TOOL_CALL_START)).toHaveLength(12);
  });

  it('a limit run: the report arrives as CUSTOM headway.report and in the activity', async () => {
    const events: ProgressEvent[] = [];
    const { url } = await serve({
      run: runtimeRun(() => ({ toolCalls: [{ name: 'file_read', args: { path: 'again.md' } }] }), events, 2),
    });
    const run = await runHttpAgent(url);
    expect(run.outcome).toBe('success');
    expectStateMatches(run, events);
    const report = events.find((e) => e.type === 'report.generated');
    expect(report?.type).toBe('report.generated');
    if (report?.type !== 'report.generated') return;
    expect(run.custom.filter((c) => c.name === 'headway.report').map((c) => c.value)).toEqual([report.report]);
    const activity = run.messages.find((m) => m.role === 'activity');
    expect(activity?.content).toMatchObject({ status: 'limit', report: report.report, limits: { iterations: { reached: true } } });
    expect(run.wire.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { outcome: 'limit' } });
  });

  it('a cancelled run: RUN_FINISHED with outcome cancelled, the running tool closed with a result', async () => {
    const events: ProgressEvent[] = [];
    let release: (() => void) | undefined;
    const slow = defineTool({
      name: 'slow',
      description: 'Waits until cancelled',
      parameters: z.object({}),
      execute: (_args, ctx) =>
        new Promise<string>((_resolve, reject) => {
          release = () => {
            reject(new Error('aborted'));
          };
          ctx.signal.addEventListener('abort', () => {
            reject(new Error('aborted'));
          });
        }),
    });
    const { url, handler } = await serve({ run: runtimeRun([{ toolCalls: [{ name: 'slow', args: {} }] }], events, 5, [slow]) });
    const run = await runHttpAgent(
      url,
      { runId: 'run-cancel' },
      { onToolCallStart: () => void setImmediate(() => handler.cancel('run-cancel', 'user pressed stop')) },
    );
    expect(release).toBeDefined();
    expect(run.outcome).toBe('cancelled');
    expect(events.at(-1)).toMatchObject({ type: 'run.cancelled', reason: 'user pressed stop' });
    expectStateMatches(run, events);
    expect(handler.cancel('run-cancel')).toBe(false);
  });

  it('a run that errors mid-tool: RUN_ERROR after the tool call got a result and the step finished', async () => {
    const events: ProgressEvent[] = [];
    const { url } = await serve({
      run: ({ emit, hub }) => {
        hub.add((e) => {
          events.push(e);
        });
        emit({ type: 'run.started', agentName: 'direct' });
        emit({ type: 'step.started', step: 'fetch' });
        emit({ type: 'tool.executing', toolName: 'download', toolCallId: 'd1', args: { url: 'x' } });
        emit({ type: 'progress', percent: 30 });
        throw new Error('disk on fire');
      },
    });
    const run = await runHttpAgent(url);
    expect(run.runError).toBe('disk on fire');
    expect(run.wire.slice(-4).map((e) => e.type)).toEqual(['TOOL_CALL_RESULT', 'STEP_FINISHED', 'ACTIVITY_DELTA', 'RUN_ERROR']);
    expectStateMatches(run, events);
  });

  it('a run function that resolves without ending the run ends it with RUN_FINISHED; one that rejects with RUN_ERROR', async () => {
    const { url } = await serve({
      run: async ({ emit, input }) => {
        emit({ type: 'text.delta', text: 'hi' });
        if (input.runId === 'bad') throw new TypeError('nope');
        await Promise.resolve();
      },
    });
    const ok = await runHttpAgent(url, { runId: 'good' });
    expect(ok.outcome).toBe('success');
    const bad = await runHttpAgent(url, { runId: 'bad' });
    expect(bad.runError).toBe('TypeError: nope');
    expect(bad.wire.map((e) => e.type)).toEqual([
      'RUN_STARTED',
      'ACTIVITY_SNAPSHOT',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'ACTIVITY_DELTA',
      'RUN_ERROR',
    ]);
  });
});

describe('createAgUiHandler: hostile run functions', () => {
  it('a revoked proxy thrown, a thenable whose then throws, a then that calls back twice: each ends in one RUN_ERROR or RUN_FINISHED', async () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const { url } = await serve({
      run: ({ input }) => {
        switch (input.runId) {
          case 'revoked':
            // eslint-disable-next-line @typescript-eslint/only-throw-error -- the point: a hostile thrown value
            throw proxy;
          case 'then-throws':
            return Object.defineProperty({}, 'then', {
              get() {
                throw new Error('then getter says no');
              },
            });
          default:
            return {
              then(resolve: (v: unknown) => void, reject: (e: unknown) => void) {
                resolve(1);
                reject(new Error('late'));
                resolve(2);
              },
            };
        }
      },
    });
    const revoked = await runHttpAgent(url, { runId: 'revoked' });
    expect(revoked.runError).toBe('[unreadable object]');
    const thenThrows = await runHttpAgent(url, { runId: 'then-throws' });
    expect(thenThrows.outcome).toBe('success');
    const twice = await runHttpAgent(url, { runId: 'twice' });
    expect(twice.outcome).toBe('success');
    for (const run of [revoked, thenThrows, twice]) {
      expect(run.wire.filter((e) => e.type === EventType.RUN_FINISHED || e.type === EventType.RUN_ERROR)).toHaveLength(1);
    }
  });

  it('a run whose clients all left keeps going for disconnectGraceMs, and a reattach in time keeps it alive', async () => {
    const scheduled: { callback: () => void; ms: number; cleared: boolean }[] = [];
    const clock: Clock = {
      ...systemClock,
      setTimeout: (callback: () => void, ms: number) => {
        const entry = { callback, ms, cleared: false };
        scheduled.push(entry);
        return entry;
      },
      clearTimeout: (handle: unknown) => {
        (handle as { cleared: boolean }).cleared = true;
      },
    };
    let signal: AbortSignal | undefined;
    const { url } = await serve({
      disconnectGraceMs: 5000,
      clock,
      run: (ctx) => {
        signal = ctx.signal;
        ctx.emit({ type: 'step.started', step: 'long' });
        return new Promise<void>(() => undefined);
      },
    });
    const body = JSON.stringify({ threadId: 't', runId: 'graceful', messages: [] });
    const first = new AbortController();
    await readUntil(await fetch(url, { method: 'POST', body, signal: first.signal, headers: JSON_HEADERS }), 'STEP_STARTED');
    await waitUntil(() => scheduled.some((t) => t.ms === 5000));
    expect(signal?.aborted).toBe(false);
    const text = await readUntil(await fetch(`${url}?runId=graceful`), 'STEP_STARTED');
    expect(parseSseEvents(text).map((e) => e.type)).toEqual(['RUN_STARTED', 'MESSAGES_SNAPSHOT', 'STEP_STARTED']);
    expect(scheduled.find((t) => t.ms === 5000)?.cleared).toBe(true);
    // That second client left too: when its grace period runs out, the run is aborted.
    await waitUntil(() => scheduled.filter((t) => t.ms === 5000).length === 2);
    scheduled.filter((t) => t.ms === 5000)[1]!.callback();
    expect(signal?.aborted).toBe(true);
  });
});

describe('createAgUiHandler: heartbeats and survived failures', () => {
  it('sends an SSE comment to an idle client, which HttpAgent ignores; a throwing sink goes to onInternalError', async () => {
    const heartbeats: (() => void)[] = [];
    const internal: { message: string; where: string }[] = [];
    const release = deferred();
    const { url } = await serve({
      heartbeatMs: 1000,
      clock: {
        ...systemClock,
        setTimeout: (callback: () => void) => {
          heartbeats.push(callback);
          return callback;
        },
        clearTimeout: () => undefined,
      },
      onInternalError: (error, context) => {
        internal.push({ message: (error as Error).message, where: context.where });
      },
      run: async ({ emit, hub }) => {
        hub.add(() => {
          throw new Error('sink broke');
        });
        emit({ type: 'text.delta', text: 'tick' });
        await release.promise;
      },
    });
    const running = runHttpAgent(url, { runId: 'idle' }, { onRunStarted: () => undefined });
    await waitUntil(() => heartbeats.length > 0);
    heartbeats.shift()!();
    release.resolve();
    const run = await running;
    expect(run.outcome).toBe('success');
    expect(run.messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual(['tick']);
    expect(run.wireText).toContain('\n\n: keep-alive\n\n');
    expect(internal).toContainEqual({ message: 'sink broke', where: 'sink' });
  });
});

describe('createAgUiHandler: bad input and disconnects', () => {
  async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown }> {
    const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
    return { status: response.status, json: await response.json() };
  }

  it('400 with the AG-UI schema issues for a body that is not a RunAgentInput', async () => {
    const { url } = await serve({ run: () => undefined });
    const { status, json } = await post(url, JSON.stringify({ threadId: 7, messages: [{ role: 'user' }] }));
    expect(status).toBe(400);
    expect(json).toMatchObject({ code: 'AG_UI_INVALID_INPUT' });
    expect(json).toMatchInlineSnapshot(`
      {
        "code": "AG_UI_INVALID_INPUT",
        "issues": [
          {
            "message": "invalid input: expected string, received number",
            "path": "threadId",
          },
          {
            "message": "invalid input: expected string, received undefined",
            "path": "runId",
          },
          {
            "message": "invalid input: expected string, received undefined",
            "path": "messages[0].id",
          },
          {
            "message": "invalid input",
            "path": "messages[0].content",
          },
        ],
        "message": "Invalid RunAgentInput: threadId: invalid input: expected string, received number; runId: invalid input: expected string, received undefined; messages[0].id: invalid input: expected string, received undefined; messages[0].content: invalid input",
      }
    `);
    expect((json as { issues: { message: string }[] }).issues.every((i) => i.message.length > 0)).toBe(true);
  });

  it('400 for a body that is not JSON, 413 for one too large, 405 for another method', async () => {
    const { url } = await serve({ run: () => undefined, maxBodyBytes: 1000 });
    expect(await post(url, '{"threadId": ')).toMatchObject({ status: 400, json: { code: 'AG_UI_INVALID_JSON' } });
    const big = await fetch(url, { method: 'POST', body: 'x'.repeat(5000), headers: { 'content-type': 'application/json' } });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: 'AG_UI_BODY_TOO_LARGE' });
    const put = await fetch(url, { method: 'PUT', body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
  });

  it('404 when reattaching to an unknown run; 409 for a new run with a taken id', async () => {
    const { url } = await serve({ run: () => undefined });
    const input = { threadId: 't', runId: 'nope', messages: [], forwardedProps: { headway: { reattach: true } } };
    expect(await post(url, JSON.stringify(input))).toMatchObject({ status: 404, json: { code: 'AG_UI_UNKNOWN_RUN' } });
    expect((await fetch(`${url}?runId=nope`)).status).toBe(404);
    await runHttpAgent(url, { runId: 'taken' });
    expect(await post(url, JSON.stringify({ threadId: 't', runId: 'taken', messages: [] }))).toMatchObject({
      status: 409,
      json: { code: 'AG_UI_RUN_EXISTS' },
    });
    const badReattach = { ...input, forwardedProps: { headway: { reattach: { lastSeq: -1 } } } };
    expect(await post(url, JSON.stringify(badReattach))).toMatchObject({
      status: 400,
      json: { issues: [{ path: 'forwardedProps.headway.reattach' }] },
    });
  });

  it('a client that disconnects aborts the run signal', async () => {
    let signal: AbortSignal | undefined;
    const aborted = new Promise<void>((resolve) => {
      void serve({
        run: (ctx) => {
          signal = ctx.signal;
          ctx.emit({ type: 'step.started', step: 'wait' });
          return new Promise<void>((done) => {
            ctx.signal.addEventListener('abort', () => {
              resolve();
              done();
            });
          });
        },
      }).then(async ({ url }) => {
        const controller = new AbortController();
        const response = await fetch(url, {
          method: 'POST',
          body: JSON.stringify({ threadId: 't', runId: 'r', messages: [] }),
          headers: JSON_HEADERS,
          signal: controller.signal,
        });
        const reader = response.body!.getReader() as ReadableStreamDefaultReader<Uint8Array>;
        let seen = '';
        while (!seen.includes('STEP_STARTED')) seen += new TextDecoder().decode((await reader.read()).value);
        controller.abort();
      });
    });
    await aborted;
    expect(signal?.aborted).toBe(true);
  });
});

describe('reattach', () => {
  it('a second client reattaching mid-run gets a snapshot, then the live events, and ends in the same state as the first', async () => {
    const gate = deferred();
    const midway = deferred();
    const attached = deferred();
    const { url } = await serve({
      disconnectGraceMs: 60_000,
      run: async ({ emit }) => {
        emit({ type: 'run.started', agentName: 'demo' });
        emit({ type: 'step.started', step: 'model' });
        emit({ type: 'text.delta', text: 'Half ' });
        emit({ type: 'tool.executing', toolName: 'file_read', toolCallId: 'c1', args: { path: 'a' } });
        emit({ type: 'progress', percent: 50, etaMs: 1000 });
        midway.resolve();
        await gate.promise;
        emit({ type: 'tool.completed', toolName: 'file_read', toolCallId: 'c1', durationMs: 2, ok: true, preview: 'A' });
        emit({ type: 'text.delta', text: 'done.' });
        emit({ type: 'step.finished', step: 'model', durationMs: 4 });
        emit({ type: 'progress', percent: 100 });
        emit({ type: 'run.finished', durationMs: 9, outcome: 'completed' });
      },
    });
    const first = runHttpAgent(url, { runId: 'shared' });
    await midway.promise;
    const second = runHttpAgent(
      url,
      { runId: 'shared', forwardedProps: { headway: { reattach: true } } },
      { initialMessages: [], onRunStarted: attached.resolve },
    );
    await attached.promise;
    // A plain GET reattach sees the same snapshot.
    const text = await readUntil(await fetch(`${url}?runId=shared`), 'STEP_STARTED');
    expect(parseSseEvents(text).map((e) => e.type)).toEqual(['RUN_STARTED', 'MESSAGES_SNAPSHOT', 'STEP_STARTED']);
    gate.resolve();
    const [a, b] = await Promise.all([first, second]);
    expect(b.wire.slice(0, 3).map((e) => e.type)).toEqual(['RUN_STARTED', 'MESSAGES_SNAPSHOT', 'STEP_STARTED']);
    expect(b.warnings).toEqual([]);
    expect(b.outcome).toBe('success');
    expect(b.messages).toEqual(a.messages);
    // A page that reloads after the end gets the whole run and its end.
    const after = await runHttpAgent(
      url,
      { runId: 'shared', forwardedProps: { headway: { reattach: { lastSeq: 3 } } } },
      { initialMessages: [] },
    );
    expect(after.messages).toEqual(a.messages);
    expect(after.wire.map((e) => e.type)).toEqual(['RUN_STARTED', 'MESSAGES_SNAPSHOT', 'RUN_FINISHED']);
  });

  it('400 when lastSeq is ahead of the run', async () => {
    const { url } = await serve({ run: ({ emit }) => void emit({ type: 'text.delta', text: 'x' }) });
    await runHttpAgent(url, { runId: 'short' });
    const response = await fetch(`${url}?runId=short&lastSeq=99`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'AG_UI_LAST_SEQ_AHEAD' });
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

/** Reads an SSE response until a frame containing `marker` arrived (or it ended), then cancels it. */
async function readUntil(response: Response, marker: string): Promise<string> {
  const reader = response.body!.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes(marker)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}

describe('hostile requests (issue 31)', () => {
  /** A RunAgentInput JSON text whose `key` is nested `depth` levels deep, built as text (no recursion). */
  function deepBody(runId: string, key: 'state' | 'forwardedProps', depth: number): string {
    return `{"threadId":"t","runId":"${runId}","messages":[],"${key}":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
  }

  it('a body nested 5,000 or 100,000 deep (state or forwardedProps, under 1 MiB) gets 400, and nothing is kept for it', async () => {
    let started = 0;
    const { url, handler } = await serve({
      run: ({ emit }) => {
        started += 1;
        emit({ type: 'text.delta', text: 'ok' });
      },
    });
    for (const [key, depth] of [
      ['state', 5_000],
      ['forwardedProps', 5_000],
      ['state', 100_000],
      ['forwardedProps', 100_000],
    ] as const) {
      const body = deepBody('deep', key, depth);
      expect(body.length).toBeLessThan(1024 * 1024);
      const response = await fetch(url, { method: 'POST', body, headers: JSON_HEADERS });
      expect(response.status).toBe(400);
      const json = (await response.json()) as { code: string; issues: { path: string; message: string }[] };
      expect(json.code).toBe('AG_UI_INVALID_INPUT');
      expect(json.issues).toEqual([{ path: `${key}.a.a.a.a.a.a.a`, message: 'nested deeper than 100 levels' }]);
      expect(handler.server.activeRuns()).toEqual([]);
      // A reattach to the refused run finds nothing (and does not take the process down).
      expect((await fetch(`${url}?runId=deep`)).status).toBe(404);
    }
    expect(started).toBe(0);
    // The refused runId is free: a well-formed request with it runs.
    const run = await runHttpAgent(url, { runId: 'deep' });
    expect(run.outcome).toBe('success');
    expect(started).toBe(1);
  }, 60_000);

  it('415 for a POST that is not JSON (text/plain, a form, multipart, no content-type): no run starts', async () => {
    let started = 0;
    const { url, handler } = await serve({
      run: () => {
        started += 1;
      },
    });
    const body = JSON.stringify({ threadId: 't', runId: 'csrf', messages: [{ id: 'u', role: 'user', content: 'rm -rf' }] });
    const form = new FormData();
    form.set('x', body);
    const requests: RequestInit[] = [
      { body }, // fetch sends text/plain;charset=UTF-8, as a page's form-free POST would
      { body, headers: { 'content-type': 'text/plain' } },
      { body: new URLSearchParams({ [body]: '' }) },
      { body: form },
      { body: new Blob([body]) }, // no content-type at all
    ];
    for (const init of requests) {
      const response = await fetch(url, { method: 'POST', ...init });
      expect(response.status).toBe(415);
      expect(await response.json()).toMatchObject({ code: 'AG_UI_UNSUPPORTED_MEDIA_TYPE' });
    }
    expect(started).toBe(0);
    expect(handler.server.activeRuns()).toEqual([]);
    // JSON with parameters, and a +json type, are JSON.
    const ok = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(ok.status).toBe(200);
    await ok.text();
    expect(started).toBe(1);
  });

  it('every frame id is the seq of the event it came from; the opening frames carry none; Last-Event-ID reattaches', async () => {
    const gate = deferred();
    const midway = deferred();
    const { url } = await serve({
      disconnectGraceMs: 60_000,
      run: async ({ emit }) => {
        emit({ type: 'run.started', agentName: 'demo' });
        emit({ type: 'step.started', step: 'model' });
        emit({ type: 'text.delta', text: 'Half ' });
        midway.resolve();
        await gate.promise;
        emit({ type: 'text.delta', text: 'done.' });
        emit({ type: 'run.finished', durationMs: 9, outcome: 'completed' });
      },
    });
    const first = runHttpAgent(url, { runId: 'ids' });
    await midway.promise;
    // An EventSource reconnecting sends the last id it saw.
    const again = await readUntil(await fetch(`${url}?runId=ids`, { headers: { 'last-event-id': '3' } }), 'TEXT_MESSAGE_START');
    expect(frames(again)).toEqual([
      ['3', 'RUN_STARTED'],
      ['3', 'MESSAGES_SNAPSHOT'],
      ['3', 'STEP_STARTED'],
      ['3', 'TEXT_MESSAGE_START'],
    ]);
    const ahead = await fetch(`${url}?runId=ids`, { headers: { 'last-event-id': '99' } });
    expect(ahead.status).toBe(400);
    expect(await ahead.json()).toMatchObject({ code: 'AG_UI_LAST_SEQ_AHEAD' });
    gate.resolve();
    const run = await first;
    expect(frames(run.wireText)).toEqual([
      [undefined, 'RUN_STARTED'],
      [undefined, 'ACTIVITY_SNAPSHOT'],
      ['1', 'ACTIVITY_DELTA'],
      ['2', 'STEP_STARTED'],
      ['3', 'TEXT_MESSAGE_START'],
      ['3', 'TEXT_MESSAGE_CONTENT'],
      ['4', 'TEXT_MESSAGE_CONTENT'],
      ['5', 'TEXT_MESSAGE_END'],
      ['5', 'STEP_FINISHED'],
      ['5', 'ACTIVITY_DELTA'],
      ['5', 'RUN_FINISHED'],
    ]);
  });

  it('the tool calls of one model turn stay in one assistant message', async () => {
    const events: ProgressEvent[] = [];
    const { url } = await serve({
      run: runtimeRun(
        (_conversation, _request, call) =>
          call < 2
            ? { content: `Turn ${call}.`, toolCalls: [0, 1, 2].map((i) => ({ name: 'file_read', args: { path: `f${call}-${i}.md` } })) }
            : { content: 'Read six files.' },
        events,
      ),
    });
    const run = await runHttpAgent(url);
    expect(run.outcome).toBe('success');
    expectStateMatches(run, events);
    const shape = run.messages
      .filter((m) => m.role === 'assistant' || m.role === 'tool')
      .map((m) =>
        m.role === 'assistant'
          ? `assistant ${String(m.content)} [${(m.toolCalls ?? []).map((c) => c.function.arguments).join(' ')}]`
          : 'tool',
      );
    expect(shape).toEqual([
      'assistant Turn 0. [{"path":"f0-0.md"} {"path":"f0-1.md"} {"path":"f0-2.md"}]',
      'tool',
      'tool',
      'tool',
      'assistant Turn 1. [{"path":"f1-0.md"} {"path":"f1-1.md"} {"path":"f1-2.md"}]',
      'tool',
      'tool',
      'tool',
      'assistant Read six files. []',
    ]);
    const parents = run.wire.flatMap((e) => (e.type === EventType.TOOL_CALL_START ? [e.parentMessageId] : []));
    expect(new Set(parents).size).toBe(2);
  });
});

/** `[id, type]` of each SSE frame in `text` (id `undefined` when the frame has none). */
function frames(text: string): [string | undefined, string][] {
  return text
    .split('\n\n')
    .filter((block) => block.includes('data: '))
    .map((block) => {
      const lines = block.split('\n');
      const id = lines.find((l) => l.startsWith('id: '))?.slice(4);
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6) ?? '{}';
      return [id, (JSON.parse(data) as { type: string }).type];
    });
}

describe('secrets in tool results (issue 31)', () => {
  const KEY = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123';
  const PASSWORD = 'hunter2-correct-horse-battery';
  const envDump = defineTool({
    name: 'env_dump',
    description: 'Print the environment',
    parameters: z.object({}),
    execute: () => `OPENAI_API_KEY=${KEY}\nDB_PASSWORD=${PASSWORD}`,
  });

  it('a runtime run: no AG-UI frame on the wire (TOOL_CALL_RESULT included) carries the secret; a reattach neither', async () => {
    const events: ProgressEvent[] = [];
    const { url } = await serve({
      disconnectGraceMs: 60_000,
      run: runtimeRun(
        (conversation) =>
          conversation.some((m) => m.role === 'tool') ? { content: 'Rotated.' } : { toolCalls: [{ name: 'env_dump', args: {} }] },
        events,
        10,
        [envDump],
      ),
    });
    const run = await runHttpAgent(url, { runId: 'secret-run' });
    expect(run.wireText).not.toContain(KEY);
    expect(run.wireText).not.toContain(PASSWORD);
    expect(run.wire.find((e) => e.type === EventType.TOOL_CALL_RESULT)).toMatchObject({
      content: 'OPENAI_API_KEY=[REDACTED] DB_PASSWORD=[REDACTED]',
    });
    const again = await fetch(`${url}?runId=secret-run`);
    const text = await again.text();
    expect(text).toContain('MESSAGES_SNAPSHOT');
    expect(text).not.toContain(KEY);
  });

  it('events emitted by hand are redacted too (result and arguments); redact: false is the one opt-out', async () => {
    const emitSecrets: AgUiServerOptions['run'] = ({ emit }) => {
      emit({ type: 'tool.executing', toolName: 'login', toolCallId: 'c1', args: { user: 'ann', password: PASSWORD } });
      emit({ type: 'tool.completed', toolName: 'login', toolCallId: 'c1', durationMs: 1, ok: true, preview: `token ok: ${KEY}` });
    };
    const redacted = await serve({ run: emitSecrets });
    const run = await runHttpAgent(redacted.url);
    expect(run.wireText).not.toContain(KEY);
    expect(run.wireText).not.toContain(PASSWORD);
    expect(run.wire.filter((e) => e.type === EventType.TOOL_CALL_ARGS || e.type === EventType.TOOL_CALL_RESULT)).toMatchObject([
      { delta: '{"user":"ann","password":"[REDACTED]"}' },
      { content: 'token ok: [REDACTED]' },
    ]);
    const raw = await serve({ run: emitSecrets, redact: false });
    const rawRun = await runHttpAgent(raw.url);
    expect(rawRun.wireText).toContain(KEY);
    expect(rawRun.wireText).toContain(PASSWORD);
  });
});
