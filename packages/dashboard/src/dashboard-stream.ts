// Live updates for the page: Server-Sent Events streams of snapshots (the list, or one run),
// sent when what the store holds changes. The store is polled on the injected clock: a
// checkpoint store has no change feed, and a poll reads the same store whichever kind it is.
// One poller per distinct query (the same filters, the same run) serves every connection that
// asked it: fifty tabs on the same list cost one store read per poll, not fifty. It starts with
// its first subscriber and stops with its last.
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

/**
 * Where a stream's frames go: a `ServerResponse` in the server, anything with the same few
 * methods in a test. `write` returning false means the client is slow: it is sent nothing more
 * until `drain`, then only the newest snapshot.
 */
export interface SnapshotClient {
  write(chunk: string): boolean;
  end(chunk?: string): void;
  on(event: 'drain' | 'close', listener: () => void): unknown;
}

/** What a subscriber asks a poller for. */
interface Subscription {
  /** The SSE event name of the snapshot frames. */
  event: string;
  /** Reads the snapshot; a {@link DashboardError} is sent as an `error` frame and ends the streams. */
  read: () => Promise<unknown>;
  /** The id of the snapshot the client saw last (`Last-Event-ID`): not sent again. */
  lastEventId?: string;
}

/** Options of {@link createSnapshotPollers}. */
interface SnapshotPollersOptions {
  clock: Clock;
  /** How often each poller reads the store again (ms). */
  pollMs: number;
  /** Told of a read that failed with something other than a {@link DashboardError} (its streams end). */
  onInternalError: OnInternalError<DashboardErrorContext> | undefined;
}

/** The shared pollers of one server. */
export interface SnapshotPollers {
  /**
   * Adds `client` to the poller of `key` (started now when it is the first): it is sent the
   * newest snapshot at once when the poller has one, then a frame each poll when the snapshot
   * changed, a heartbeat otherwise. The client leaves when it emits `close`.
   */
  subscribe(key: string, client: SnapshotClient, subscription: Subscription): void;
  /** The keys polled now, one per distinct query with at least one client. */
  readonly keys: string[];
}

interface Subscriber {
  client: SnapshotClient;
  sentId: string | undefined;
  /** The last write returned false: wait for `drain`, then send only the newest snapshot. */
  waiting: boolean;
}

interface Poller {
  event: string;
  read: () => Promise<unknown>;
  subscribers: Set<Subscriber>;
  latest: { id: string; data: string } | undefined;
  timer: unknown;
  stopped: boolean;
}

function digest(data: string): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 32);
}

/**
 * One poller per distinct query key, shared by every client subscribed to it, on the injected
 * clock. A slow client (its write returned false) is skipped until it drains and is then sent
 * only the newest snapshot; a client whose write throws is dropped. Neither holds up the others.
 */
export function createSnapshotPollers(options: SnapshotPollersOptions): SnapshotPollers {
  const { clock, pollMs } = options;
  const pollers = new Map<string, Poller>();

  const stop = (key: string, poller: Poller): void => {
    poller.stopped = true;
    clock.clearTimeout(poller.timer);
    if (pollers.get(key) === poller) pollers.delete(key);
  };

  const leave = (key: string, poller: Poller, subscriber: Subscriber): void => {
    if (!poller.subscribers.delete(subscriber)) return;
    if (poller.subscribers.size === 0) stop(key, poller);
  };

  /** Sends `subscriber` the newest snapshot if it has not seen it, else (`beat`) a heartbeat. */
  const offer = (key: string, poller: Poller, subscriber: Subscriber, beat: boolean): void => {
    const latest = poller.latest;
    if (subscriber.waiting || latest === undefined) return;
    const fresh = latest.id !== subscriber.sentId;
    if (!fresh && !beat) return;
    try {
      subscriber.waiting = !subscriber.client.write(
        fresh ? formatSseFrame({ id: latest.id, event: poller.event, data: latest.data }) : SSE_HEARTBEAT,
      );
      subscriber.sentId = latest.id;
    } catch {
      // A client that cannot be written to (its socket is gone) leaves; the others go on.
      leave(key, poller, subscriber);
    }
  };

  const fail = (key: string, poller: Poller, error: unknown): void => {
    const frame =
      error instanceof DashboardError
        ? formatSseFrame({ event: 'error', data: JSON.stringify({ error: { code: error.code, message: error.message } }) })
        : undefined;
    if (frame === undefined) {
      try {
        options.onInternalError?.(error, { where: 'stream' });
      } catch {
        // The callback's own failure is ignored, as OnInternalError says.
      }
    }
    stop(key, poller);
    for (const subscriber of poller.subscribers) {
      try {
        subscriber.client.end(frame);
      } catch {
        // Ending a client that is already gone: nothing more to do for it.
      }
    }
    poller.subscribers.clear();
  };

  const tick = async (key: string, poller: Poller): Promise<void> => {
    let data: string;
    try {
      data = JSON.stringify(await poller.read());
    } catch (error) {
      if (!poller.stopped) fail(key, poller, error);
      return;
    }
    if (poller.stopped) return;
    poller.latest = { id: digest(data), data };
    for (const subscriber of [...poller.subscribers]) offer(key, poller, subscriber, true);
    poller.timer = clock.setTimeout(() => void tick(key, poller), pollMs);
  };

  return {
    subscribe(key, client, subscription) {
      let poller = pollers.get(key);
      const first = poller === undefined;
      if (poller === undefined) {
        poller = {
          event: subscription.event,
          read: subscription.read,
          subscribers: new Set(),
          latest: undefined,
          timer: undefined,
          stopped: false,
        };
        pollers.set(key, poller);
      }
      const joined = poller;
      const subscriber: Subscriber = { client, sentId: subscription.lastEventId, waiting: false };
      joined.subscribers.add(subscriber);
      client.on('close', () => {
        leave(key, joined, subscriber);
      });
      client.on('drain', () => {
        subscriber.waiting = false;
        offer(key, joined, subscriber, false);
      });
      if (first) void tick(key, joined);
      else offer(key, joined, subscriber, true);
    },
    get keys() {
      return [...pollers.keys()];
    },
  };
}

function lastEventId(req: IncomingMessage): string | undefined {
  const value = req.headers['last-event-id'];
  return typeof value === 'string' && /^[0-9a-f]{1,64}$/.test(value) ? value : undefined;
}

/**
 * Answers `req` with an endless `text/event-stream` of the snapshots of `key`'s shared poller:
 * one frame whenever the snapshot's JSON changes, a heartbeat comment otherwise. Leaves the
 * poller when the client goes away.
 */
export function streamSnapshots(
  req: IncomingMessage,
  res: ServerResponse,
  pollers: SnapshotPollers,
  options: { key: string; event: string; read: () => Promise<unknown>; headers: Record<string, string> },
): void {
  res.writeHead(200, { ...options.headers, 'content-type': 'text/event-stream; charset=utf-8', 'x-accel-buffering': 'no' });
  res.write(formatRetryFrame(RETRY_MS));
  const id = lastEventId(req);
  pollers.subscribe(options.key, res, { event: options.event, read: options.read, ...(id === undefined ? {} : { lastEventId: id }) });
}
