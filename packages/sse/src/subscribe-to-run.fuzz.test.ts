// A server as an attacker would run it: the client stays bounded.
import { afterEach, describe, expect, it } from 'vitest';
import { ev } from './events.test-util.js';
import { listen, type TestServer } from './http.test-util.js';
import { SseError } from './sse-error.js';
import { formatProgressFrame } from './sse-frame.js';
import { subscribeToRun } from './subscribe-to-run.js';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

describe('subscribeToRun against a hostile server', () => {
  it('cuts off a server that streams an event without end, and rejects with SSE_FRAME_TOO_LARGE', async () => {
    let written = 0;
    const server = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(formatProgressFrame(ev('run-1', 1)));
      res.write('event: progress\ndata: ');
      const chunk = 'a'.repeat(16 * 1024);
      const more = (): void => {
        // Never a newline: the event never completes. Stops once the client goes away.
        while (!res.destroyed && written < 64 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
        if (!res.destroyed && written < 64 * 1024 * 1024) res.once('drain', more);
      };
      more();
    });
    servers.push(server);
    const seen: number[] = [];
    const error = await subscribeToRun(`${server.url}/runs/run-1`, {
      onEvent: (e) => seen.push(e.seq),
      maxEventLength: 200_000,
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(seen).toEqual([1]);
    expect(error).toBeInstanceOf(SseError);
    expect((error as SseError).code).toBe('SSE_FRAME_TOO_LARGE');
    expect((error as SseError).message).toBe(
      'The SSE server sent more than 200000 characters without completing an event (maxEventLength)',
    );
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });
});
