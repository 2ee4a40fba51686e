import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '@headway/protocol';
import { MemoryCheckpointStore } from '@headway/runtime';
import { describe, expect, it } from 'vitest';
import { createDashboardHandler } from './dashboard-server.js';

describe('GET /api/live/runs/<id>: the live events handler', () => {
  it('hands the request to `live` after the token rule of reading, and only that path', async () => {
    const seen: string[] = [];
    const handler = createDashboardHandler({
      checkpoints: new MemoryCheckpointStore(),
      clock: new ManualClock({ start: 0 }),
      token: 'tok-0123456789abcdef',
      requireTokenToRead: true,
      live: (req, res) => {
        seen.push(req.url ?? '');
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end('id: 1\ndata: {}\n\n');
      },
    });
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
    try {
      expect((await fetch(`${base}/api/live/runs/run-1`)).status).toBe(401);
      const ok = await fetch(`${base}/api/live/runs/run-1`, { headers: { authorization: 'Bearer tok-0123456789abcdef' } });
      expect([ok.status, await ok.text()]).toEqual([200, 'id: 1\ndata: {}\n\n']);
      expect((await fetch(`${base}/api/live/other`, { headers: { authorization: 'Bearer tok-0123456789abcdef' } })).status).toBe(404);
      expect(seen).toEqual(['/api/live/runs/run-1']);
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    }
  });
});
