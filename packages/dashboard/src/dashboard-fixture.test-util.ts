// The store and server the dashboard's tests share: a real SQLite file in a temporary folder,
// runs the runtime really ran on it, and the dashboard on a real HTTP server on 127.0.0.1.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '@headway/protocol';
import { defineTool, type Tool } from '@headway/runtime';
import { SqliteCheckpointStore } from '@headway/store-sqlite';
import { z } from 'zod';
import { createDashboardHandler, type DashboardHandlerOptions } from './dashboard-server.js';

/** The token the test servers take for actions. */
export const TOKEN = 'tok-0123456789abcdef';

/** Ids `prefix-1`, `prefix-2`, … (a runtime's `generateId`: its first run is `prefix-1`). */
export function ids(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}-${String((n += 1))}`;
}

/** The one tool the test runs call: it always finds nothing. */
export const search: Tool = defineTool({
  name: 'search',
  description: 'finds things',
  parameters: z.object({ q: z.string() }),
  execute: () => 'nothing yet',
});

/** A SQLite checkpoint store in a fresh folder, with a reports folder beside it. */
export interface DashboardStoreFixture {
  dir: string;
  reports: string;
  store: SqliteCheckpointStore;
  /** Serves the dashboard over the store (`checkpoints` and `clock` filled in); returns its base URL. */
  serve: (options?: Partial<DashboardHandlerOptions>) => Promise<string>;
  /** Closes the servers, the store, and removes the folder. */
  close: () => Promise<void>;
}

/** Opens a {@link DashboardStoreFixture}; the store reads "now" from `clock`. */
export function openDashboardStore(name: string, clock: Clock): DashboardStoreFixture {
  const dir = mkdtempSync(join(tmpdir(), `headway-${name}-`));
  const store = new SqliteCheckpointStore(join(dir, 'agent.db'), { clock });
  const closers: (() => Promise<void>)[] = [];
  return {
    dir,
    reports: join(dir, 'reports'),
    store,
    async serve(options = {}) {
      const server = createServer(createDashboardHandler({ checkpoints: store, clock, ...options }));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      closers.push(
        () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => {
              resolve();
            });
          }),
      );
      return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
    },
    async close() {
      for (const close of closers) await close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A `text/event-stream` response read frame by frame, as EventSource reads it. */
export function frames(response: Response): { next: () => Promise<string>; close: () => Promise<void> } {
  const body = response.body;
  if (body === null) throw new TypeError('the response has no body');
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    async next() {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end !== -1) {
          const frame = buffer.slice(0, end + 2);
          buffer = buffer.slice(end + 2);
          return frame;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended; left: ${JSON.stringify(buffer)}`);
        buffer += value;
      }
    },
    close: () => reader.cancel(),
  };
}

/** One field (`id`, `event`, `data`) of an SSE frame. */
export function field(frame: string, name: string): string | undefined {
  return frame
    .split('\n')
    .find((line) => line.startsWith(`${name}: `))
    ?.slice(name.length + 2);
}
