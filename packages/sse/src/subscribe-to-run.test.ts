import { createRecordingClock } from '@headway/protocol/testing';
import type { ProgressEvent, ProtocolError } from '@headway/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ev, finished } from './events.test-util.js';
import { listen, type TestServer } from './http.test-util.js';
import { createReplayLog } from './replay-log.js';
import { createSseHandler } from './sse-handler.js';
import { SseError } from './sse-error.js';
import { formatProgressFrame, formatSseFrame } from './sse-frame.js';
import { subscribeToRun } from './subscribe-to-run.js';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

describe('subscribeToRun (fetch + eventsource-parser)', () => {
  it('reports invalid events to onInvalid without delivering them, and ignores other event names and repeats', async () => {
    const server = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(formatProgressFrame(ev('r', 1)));
      res.write(formatSseFrame({ id: '2', event: 'progress', data: '{"type":"progress","runId":"r","seq":2,"ts":0,"percent":"lots"}' }));
      res.write(formatSseFrame({ id: '3', event: 'progress', data: 'not json' }));
      res.write(formatSseFrame({ data: '{"type":"thinking","runId":"r","seq":4,"ts":0,"content":"unnamed event"}' }));
      res.write(formatProgressFrame(ev('r', 1)));
      res.end(formatProgressFrame(finished('r', 5)));
    });
    servers.push(server);
    const delivered: ProgressEvent[] = [];
    const invalid: [ProtocolError, string][] = [];
    const terminal = await subscribeToRun(server.url, {
      onEvent: (e) => delivered.push(e),
      onInvalid: (e, data) => invalid.push([e, data]),
    });
    expect(delivered.map((e) => e.seq)).toEqual([1, 5]);
    expect(terminal?.type).toBe('run.finished');
    expect(invalid.map(([e]) => e.message)).toEqual([
      'Invalid progress event (type "progress"): percent: invalid input: expected number, received string',
      expect.stringMatching(/^Invalid progress event: not JSON/),
    ]);
    expect(invalid[1]?.[1]).toBe('not json');
  });

  it('rejects on a refusal that retrying cannot fix, with the status', async () => {
    const log = createReplayLog();
    log.append(ev('r', 1));
    const server = await listen(createSseHandler({ source: log, authorize: () => false }));
    servers.push(server);
    const error = await subscribeToRun(`${server.url}/r`, { onEvent: () => undefined }).catch((e: unknown) => e);
    expect(SseError.isInstance(error, 'SSE_HTTP_STATUS')).toBe(true);
    expect((error as SseError).status).toBe(403);
    expect((error as SseError).message).toContain('SSE_FORBIDDEN');
  });

  it('resolves undefined on 204 (the run ended at lastEventId)', async () => {
    const log = createReplayLog();
    log.append(finished('r', 1));
    const server = await listen(createSseHandler({ source: log }));
    servers.push(server);
    expect(await subscribeToRun(`${server.url}/r`, { lastEventId: '1', onEvent: () => undefined })).toBeUndefined();
  });

  it('goes on past a terminal event the server follows with more (a resumed run) and resolves with the one the stream ended on', async () => {
    const log = createReplayLog();
    log.append(ev('r', 1));
    log.append({ type: 'run.error', error: 'abandoned: the worker stopped', runId: 'r', seq: 2, ts: 0 });
    log.reopen('r');
    log.append(ev('r', 3));
    log.append(finished('r', 4));
    const server = await listen(createSseHandler({ source: log, heartbeatMs: 0 }));
    servers.push(server);
    const delivered: ProgressEvent[] = [];
    const terminal = await subscribeToRun(`${server.url}/r`, { onEvent: (e) => delivered.push(e) });
    expect(delivered.map((e) => [e.seq, e.type])).toEqual([
      [1, 'progress'],
      [2, 'run.error'],
      [3, 'progress'],
      [4, 'run.finished'],
    ]);
    expect(terminal).toMatchObject({ type: 'run.finished', seq: 4 });
  });

  it('resolves at run.finished even when the server keeps the stream open', async () => {
    const server = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(formatProgressFrame(ev('r', 1)));
      res.write(formatProgressFrame(finished('r', 2)));
    });
    servers.push(server);
    const seqs: number[] = [];
    const terminal = await subscribeToRun(server.url, { onEvent: (e) => seqs.push(e.seq) });
    expect([seqs, terminal?.type]).toEqual([[1, 2], 'run.finished']);
  });

  it('a connection dropped right after a run.error is asked again: 204 confirms the end, and it resolves with that event', async () => {
    const clock = createRecordingClock();
    let calls = 0;
    const server = await listen((req, res) => {
      calls += 1;
      if (calls === 1) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(formatProgressFrame({ type: 'run.error', error: 'model failed', runId: 'r', seq: 1, ts: 0 }), () => {
          res.destroy();
        });
        return;
      }
      expect(req.headers['last-event-id']).toBe('1');
      res.writeHead(204).end();
    });
    servers.push(server);
    const terminal = await subscribeToRun(server.url, { onEvent: () => undefined, clock });
    expect([calls, terminal?.seq]).toEqual([2, 1]);
  });

  it('gives up after maxRetries failed connections in a row', async () => {
    const server = await listen(() => undefined);
    const url = server.url;
    await server.close(); // nothing listens there now
    const clock = createRecordingClock();
    const error = await subscribeToRun(url, { onEvent: () => undefined, maxRetries: 2, clock }).catch((e: unknown) => e);
    expect(SseError.isInstance(error, 'SSE_CONNECTION_FAILED')).toBe(true);
    expect(clock.waits).toEqual([1000, 2000]); // doubling per failure in a row
    expect((error as Error).message).toMatch(/failed 3 times in a row/);
  });

  it('retries a 503 and then goes on', async () => {
    let calls = 0;
    const server = await listen((_req, res) => {
      calls += 1;
      if (calls === 1) {
        res.writeHead(503).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(formatProgressFrame(finished('r', 1)));
    });
    servers.push(server);
    const clock = createRecordingClock();
    const terminal = await subscribeToRun(server.url, { onEvent: () => undefined, clock });
    expect([calls, terminal?.seq, clock.waits]).toEqual([2, 1, [1000]]);
  });

  it('rejects with the abort reason and closes the connection', async () => {
    const log = createReplayLog();
    log.register('r');
    let closed = 0;
    const server = await listen(createSseHandler({ source: log, heartbeatMs: 0, onDisconnect: () => (closed += 1) }));
    servers.push(server);
    const controller = new AbortController();
    const pending = subscribeToRun(`${server.url}/r`, {
      signal: controller.signal,
      onEvent: () => {
        controller.abort(new Error('user left'));
      },
    });
    log.append(ev('r', 1));
    await expect(pending).rejects.toThrow('user left');
    // The server learns of the close when the socket's close reaches it: wait for that, not a fixed time.
    await vi.waitFor(
      () => {
        expect(closed).toBe(1);
      },
      { timeout: 10_000 },
    );
  });

  it('rejects with what onEvent throws', async () => {
    const log = createReplayLog();
    log.append(ev('r', 1));
    const server = await listen(createSseHandler({ source: log, heartbeatMs: 0 }));
    servers.push(server);
    await expect(
      subscribeToRun(`${server.url}/r`, {
        onEvent: () => {
          throw new Error('render failed');
        },
      }),
    ).rejects.toThrow('render failed');
  });

  it('refuses a lastEventId that is not a non-negative integer', async () => {
    await expect(subscribeToRun('http://127.0.0.1:9/r', { lastEventId: 'x', onEvent: () => undefined })).rejects.toThrow(
      /lastEventId must be a non-negative integer/,
    );
    await expect(subscribeToRun('http://127.0.0.1:9/r', { lastEventId: -1, onEvent: () => undefined })).rejects.toMatchObject({
      name: 'SseError',
      code: 'SSE_INVALID_OPTIONS',
      issues: [{ path: 'lastEventId', message: 'must be a non-negative integer' }],
    });
  });
});
