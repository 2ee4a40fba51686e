import { createParser } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { ev, finished, microtasks } from './events.test-util.js';
import { createReplayLog } from './replay-log.js';
import type { DisconnectReason } from './client-stream.js';
import { createSseResponse } from './sse-response.js';

async function readAll(response: Response): Promise<{ ids: number[]; retries: number[] }> {
  const ids: number[] = [];
  const retries: number[] = [];
  const parser = createParser({ onEvent: (m) => ids.push(Number(m.id)), onRetry: (ms) => retries.push(ms) });
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (reader === undefined) throw new Error('no body');
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { ids, retries };
    parser.feed(value);
  }
}

describe('createSseResponse', () => {
  it('answers a fetch-style request with a stream that replays after Last-Event-ID and closes at the end', async () => {
    const log = createReplayLog();
    for (let s = 1; s <= 5; s++) log.append(ev('r', s));
    log.append(finished('r', 6));
    const options = { source: log, heartbeatMs: 0, retryMs: 500 };
    const response = await createSseResponse(new Request('http://127.0.0.1/runs/r', { headers: { 'last-event-id': '3' } }), options);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await readAll(response)).toEqual({ ids: [4, 5, 6], retries: [500] });
  });

  it('gives the same statuses as the node handler', async () => {
    const log = createReplayLog();
    log.append(finished('done', 1));
    const options = { source: log, authorize: (req: Request) => (req.headers.get('authorization') === null ? (401 as const) : true) };
    const auth = { authorization: 'x' };
    expect((await createSseResponse(new Request('http://h/done'), options)).status).toBe(401);
    expect((await createSseResponse(new Request('http://h/done', { headers: { ...auth, 'last-event-id': 'x' } }), options)).status).toBe(
      400,
    );
    expect((await createSseResponse(new Request('http://h/done', { headers: { ...auth, 'last-event-id': '1' } }), options)).status).toBe(
      204,
    );
    expect((await createSseResponse(new Request('http://h/other', { headers: auth }), options)).status).toBe(404);
    const notAllowed = await createSseResponse(new Request('http://h/done', { method: 'DELETE', headers: auth }), options);
    expect([notAllowed.status, await notAllowed.json()]).toEqual([405, { code: 'SSE_METHOD_NOT_ALLOWED', message: 'Use GET' }]);
  });

  it('cuts off a consumer that stops reading once live unsent data passes maxBufferedBytes; memory stays at the cap', async () => {
    const log = createReplayLog();
    log.register('r');
    const ends: DisconnectReason[] = [];
    const options = {
      source: log,
      heartbeatMs: 0,
      maxBufferedBytes: 8 * 1024,
      onDisconnect: ({ reason }: { reason: DisconnectReason }) => ends.push(reason),
    };
    const response = await createSseResponse(new Request('http://h/r'), options);
    // Nobody reads response.body.
    for (let s = 1; s <= 100; s++) {
      log.append(ev('r', s, { type: 'text.delta', text: 'q'.repeat(200) }));
      await microtasks();
      if (ends.length > 0) break;
    }
    expect(ends).toEqual(['slow']);
    expect(log.stats().events).toBeLessThan(100);
    await expect(response.body?.getReader().read()).rejects.toMatchObject({
      code: 'SSE_CLIENT_TOO_SLOW',
      message: expect.stringMatching(/too much unsent data/) as unknown,
    });
  });

  it('stops when the request is aborted', async () => {
    const log = createReplayLog();
    log.register('r');
    const ends: DisconnectReason[] = [];
    const controller = new AbortController();
    const response = await createSseResponse(new Request('http://h/r', { signal: controller.signal }), {
      source: log,
      heartbeatMs: 0,
      onDisconnect: ({ reason }) => ends.push(reason),
    });
    controller.abort();
    log.append(ev('r', 1));
    await microtasks();
    expect(ends).toEqual(['client-closed']);
    expect(await readAll(response)).toEqual({ ids: [], retries: [2000] });
  });
});
