// Live updates for the page: a Server-Sent Events stream of snapshots (the list, or one run),
// sent when what the store holds changes. The store is polled on the injected clock: a
// checkpoint store has no change feed, and a poll reads the same store whichever kind it is.
// Each frame's id is a digest of its data, so a client that reconnects (EventSource does it by
// itself, after a network drop or a web process restart) with `Last-Event-ID` is sent nothing
// until something it has not seen changes: the resume costs no repeated frame.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock, OnInternalError } from '@headway/protocol';
import { SSE_HEARTBEAT, formatRetryFrame, formatSseFrame } from '@headway/sse';
import { DashboardError } from './dashboard-error.js';
import type { DashboardErrorContext } from './dashboard-server.js';

/** How long the browser waits before reconnecting a dropped stream (ms). */
const RETRY_MS = 1000;

/** Options of {@link streamSnapshots}. */
interface StreamSnapshotsOptions {
  clock: Clock;
  /** How often the store is read again (ms). */
  pollMs: number;
  /** The SSE event name of the snapshot frames. */
  event: string;
  /** Reads the snapshot; a {@link DashboardError} is sent as an `error` frame and ends the stream. */
  read: () => Promise<unknown>;
  headers: Record<string, string>;
  onInternalError: OnInternalError<DashboardErrorContext> | undefined;
}

function lastEventId(req: IncomingMessage): string | undefined {
  const value = req.headers['last-event-id'];
  return typeof value === 'string' && /^[0-9a-f]{1,64}$/.test(value) ? value : undefined;
}

/**
 * Answers `req` with an endless `text/event-stream` of snapshots: one frame whenever the
 * snapshot's JSON changes, a heartbeat comment otherwise. Stops when the client goes away.
 */
export function streamSnapshots(req: IncomingMessage, res: ServerResponse, options: StreamSnapshotsOptions): void {
  const { clock, pollMs, event, read } = options;
  let sentId = lastEventId(req);
  let closed = false;
  // A function, not the variable: the close handler changes it while a read is awaited.
  const isClosed = (): boolean => closed;
  let timer: unknown;
  // A slow reader is sent the newest snapshot once it has drained, never a queue of old ones.
  let draining = false;
  res.writeHead(200, { ...options.headers, 'content-type': 'text/event-stream; charset=utf-8', 'x-accel-buffering': 'no' });
  res.write(formatRetryFrame(RETRY_MS));
  const stop = (): void => {
    closed = true;
    clock.clearTimeout(timer);
  };
  res.on('close', stop);
  res.on('drain', () => {
    draining = false;
  });
  const tick = async (): Promise<void> => {
    if (isClosed()) return;
    let data: string;
    try {
      data = JSON.stringify(await read());
    } catch (error) {
      if (isClosed()) return;
      if (error instanceof DashboardError) {
        res.end(formatSseFrame({ event: 'error', data: JSON.stringify({ error: { code: error.code, message: error.message } }) }));
      } else {
        try {
          options.onInternalError?.(error, { where: 'stream' });
        } catch {
          // The callback's own failure is ignored, as OnInternalError says.
        }
        res.end();
      }
      stop();
      return;
    }
    if (isClosed()) return;
    const id = createHash('sha256').update(data).digest('hex').slice(0, 32);
    if (!draining) {
      const frame = id === sentId ? SSE_HEARTBEAT : formatSseFrame({ id, event, data });
      if (id !== sentId) sentId = id;
      draining = !res.write(frame);
    }
    timer = clock.setTimeout(() => void tick(), pollMs);
  };
  void tick();
}
