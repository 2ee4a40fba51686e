import { createProgressHub } from '@headway/protocol';
import { createReplayLog } from '@headway/sse';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgUiHandler } from './ag-ui-handler.js';
import { createAgUiResponse, agUiServerFor } from './ag-ui-response.js';
import type { AgUiServerOptions } from './ag-ui-server.js';
import { listen, parseSseEvents, runHttpAgent } from './http.test-util.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

describe('createAgUiResponse (fetch-style)', () => {
  it('serves HttpAgent the same stream, and 400 with issues for a bad body', async () => {
    const options: AgUiServerOptions = {
      heartbeatMs: 0,
      run: ({ emit }) => {
        emit({ type: 'step.started', step: 'answer' });
        emit({ type: 'text.delta', text: 'Hello from a Response' });
        emit({ type: 'step.finished', step: 'answer', durationMs: 1 });
        emit({ type: 'progress', percent: 100 });
      },
    };
    const viaFetch = (url: string, init: RequestInit): Promise<Response> => createAgUiResponse(new Request(url, init), options);
    const run = await runHttpAgent('http://app.test/agent', { runId: 'f1' }, { fetch: viaFetch });
    expect(run.outcome).toBe('success');
    expect(run.steps).toEqual(['answer']);
    expect(run.messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual(['Hello from a Response']);
    expect(run.warnings).toEqual([]);

    const bad = await createAgUiResponse(
      new Request('http://app.test/agent', { method: 'POST', body: '{"runId": 1}', headers: { 'content-type': 'application/json' } }),
      options,
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      code: 'AG_UI_INVALID_INPUT',
      issues: expect.arrayContaining([{ path: 'runId', message: expect.any(String) as string }]) as unknown,
    });
    expect(agUiServerFor(options).activeRuns()).toEqual([]);
  });
});

describe('createAgUiResponse backpressure', () => {
  it('cuts off a client that does not read past maxBufferedBytes, and the run, left alone, is aborted', async () => {
    let signal: AbortSignal | undefined;
    const options: AgUiServerOptions = {
      heartbeatMs: 0,
      maxBufferedBytes: 4096,
      run: (ctx) => {
        signal = ctx.signal;
        for (let i = 0; i < 200 && !ctx.signal.aborted; i++) ctx.emit({ type: 'text.delta', text: 'x'.repeat(100) });
        return new Promise<void>(() => undefined);
      },
    };
    const response = await createAgUiResponse(
      new Request('http://app.test/agent', {
        method: 'POST',
        body: JSON.stringify({ threadId: 't', runId: 'slow', messages: [] }),
        headers: { 'content-type': 'application/json' },
      }),
      options,
    );
    expect(signal?.aborted).toBe(true);
    await expect(response.text()).rejects.toThrow();
  });
});

describe('reattach to a run from the replay log', () => {
  it('a run other code emits into the log: snapshot first, then its live events, ended with its terminal event', async () => {
    const log = createReplayLog();
    const hub = createProgressHub({ runId: 'elsewhere' });
    log.attach(hub);
    hub.emit({ type: 'run.started', agentName: 'worker' });
    hub.emit({ type: 'step.started', step: 'crawl' });
    hub.emit({ type: 'progress', percent: 20 });
    const handler = createAgUiHandler({ heartbeatMs: 0, log, run: () => undefined });
    const server = await listen(handler);
    closers.push(server.close);
    let attached: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => {
      attached = resolve;
    });
    const running = runHttpAgent(
      server.url,
      { runId: 'elsewhere', forwardedProps: { headway: { reattach: true } } },
      {
        initialMessages: [],
        onRunStarted: () => {
          attached();
        },
      },
    );
    await ready;
    hub.emit({ type: 'text.delta', text: 'found it' });
    hub.emit({ type: 'step.finished', step: 'crawl', durationMs: 5 });
    hub.emit({ type: 'run.finished', durationMs: 9, outcome: 'completed' });
    const run = await running;
    expect(run.wire.map((e) => e.type)).toEqual([
      'RUN_STARTED',
      'MESSAGES_SNAPSHOT',
      'STEP_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'STEP_FINISHED',
      'ACTIVITY_DELTA',
      'RUN_FINISHED',
    ]);
    expect(run.outcome).toBe('success');
    expect(run.messages.find((m) => m.role === 'activity')?.content).toMatchObject({
      percent: 20,
      status: 'completed',
      agentName: 'worker',
    });
  });

  it('410 when the log no longer holds the start of the run', async () => {
    const log = createReplayLog({ maxEventsPerRun: 2 });
    const hub = createProgressHub({ runId: 'long' });
    log.attach(hub);
    for (let i = 0; i < 5; i++) hub.emit({ type: 'progress', percent: i });
    const server = await listen(createAgUiHandler({ log, run: () => undefined }));
    closers.push(server.close);
    const response = await fetch(`${server.url}?runId=long`);
    expect(response.status).toBe(410);
    expect(await response.json()).toMatchObject({ code: 'AG_UI_EVENTS_EXPIRED' });
    expect(parseSseEvents('')).toEqual([]);
  });
});
