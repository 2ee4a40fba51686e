import { describe, expect, it } from 'vitest';
import { ev, finished } from './events.test-util.js';
import { get, listen } from './http.test-util.js';
import { createReplayLog } from './replay-log.js';
import { createSseHandler } from './sse-handler.js';
import { createSseResponse } from './sse-response.js';
import type { ReplaySource } from './sse-source.js';

describe('a ReplaySource whose open is asynchronous (a log kept in another process)', () => {
  it('is served like the in-memory log: the events after Last-Event-ID, then the end', async () => {
    const log = createReplayLog();
    for (let s = 1; s <= 3; s++) log.append(ev('r1', s));
    log.append(finished('r1', 4));
    const source: ReplaySource = {
      open: async (runId, afterSeq, onAppend) => {
        await new Promise((resolve) => setImmediate(resolve));
        return log.open(runId, afterSeq, onAppend);
      },
    };
    const server = await listen(createSseHandler({ source, heartbeatMs: 0 }));
    try {
      const res = await get(`${server.url}/runs/r1`, { 'last-event-id': '2' });
      expect(res.status).toBe(200);
      expect([...res.body.matchAll(/^id: (\d+)$/gm)].map((m) => m[1])).toEqual(['3', '4']);
      expect((await get(`${server.url}/runs/r1`, { 'last-event-id': '4' })).status).toBe(204);
      expect((await get(`${server.url}/runs/nope`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('answers 503 SSE_SOURCE_UNAVAILABLE when the source cannot be read, in both handlers', async () => {
    const source: ReplaySource = { open: () => Promise.reject(new Error('connection refused')) };
    const server = await listen(createSseHandler({ source, heartbeatMs: 0 }));
    try {
      const res = await get(`${server.url}/runs/r1`);
      expect(res.status).toBe(503);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'SSE_SOURCE_UNAVAILABLE' });
    } finally {
      await server.close();
    }
    const response = await createSseResponse(new Request('http://localhost/runs/r1'), { source });
    expect(response.status).toBe(503);
  });
});
