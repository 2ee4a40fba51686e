import type { ProgressEvent, TerminalEvent } from '@headway/protocol';
import { subscribeToRun } from '@headway/sse';
import { isAbandonedMarker } from '../run-index.js';

/** What one client saw. */
export interface ClientRecord {
  /** The `seq` of every frame handed to the client, across all its connections, in order. */
  wire: number[];
  /** The events `subscribeToRun` delivered. */
  delivered: ProgressEvent[];
  connections: number;
  /** The server each connection went to, in order. */
  servers: string[];
  terminal: TerminalEvent | undefined;
}

/**
 * A `fetch` for `subscribeToRun` that sends each connection to the server `pick()` names
 * and cuts it after `framesBeforeCut()` whole frames (at a frame boundary, as a dropped
 * connection between two events would), recording the `id` of every frame it passes on.
 */
function switchingFetch(record: ClientRecord, pick: () => string, framesBeforeCut: () => number): typeof fetch {
  return async (input, init) => {
    const target = new URL(input instanceof Request ? input.url : String(input));
    record.connections += 1;
    const server = pick();
    record.servers.push(server);
    const res = await fetch(`${server}${target.pathname}${target.search}`, init);
    if (!res.ok || res.body === null) return res;
    const reader: ReadableStreamDefaultReader<Uint8Array> = res.body.getReader();
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let budget = framesBeforeCut();
    let buffer = '';
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        for (;;) {
          const end = buffer.indexOf('\n\n');
          if (end >= 0) {
            const frame = buffer.slice(0, end + 2);
            buffer = buffer.slice(end + 2);
            const id = /^id: (\d+)$/m.exec(frame)?.[1];
            if (id !== undefined) {
              if (budget <= 0) {
                await reader.cancel().catch(() => undefined);
                controller.error(new Error('connection cut by the test'));
                return;
              }
              budget -= 1;
              record.wire.push(Number(id));
            }
            controller.enqueue(encoder.encode(frame));
            return;
          }
          const { done, value } = await reader.read();
          if (done) {
            controller.close();
            return;
          }
          buffer += decoder.decode(value, { stream: true });
        }
      },
      cancel() {
        void reader.cancel().catch(() => undefined);
      },
    });
    return new Response(body, { status: res.status, headers: res.headers });
  };
}

/**
 * Follows `runId` to its end through `switchingFetch`. With `from`, it goes on recording into
 * `from.record`, resuming after `from.lastEventId` (a subscriber that reached an abandoned
 * marker subscribing again).
 */
export async function follow(
  runId: string,
  pick: () => string,
  framesBeforeCut: () => number,
  from?: { record: ClientRecord; lastEventId: number },
): Promise<ClientRecord> {
  const record: ClientRecord = from?.record ?? { wire: [], delivered: [], connections: 0, servers: [], terminal: undefined };
  record.terminal = await subscribeToRun(`http://switch/runs/${runId}`, {
    onEvent: (event) => record.delivered.push(event),
    fetch: switchingFetch(record, pick, framesBeforeCut),
    maxRetries: 50,
    retryMs: 10,
    ...(from === undefined ? {} : { lastEventId: from.lastEventId }),
  });
  return record;
}

/**
 * Follows `runId` as the redis README tells a subscriber to follow a resumed run: past each
 * abandoned marker it subscribes again from the marker's `seq`, until the run's own end (or a
 * 204: nothing followed the marker yet).
 */
export async function followThroughResumes(runId: string, pick: () => string, framesBeforeCut: () => number): Promise<ClientRecord> {
  let record = await follow(runId, pick, framesBeforeCut);
  while (record.terminal !== undefined && isAbandonedMarker(record.terminal)) {
    record = await follow(runId, pick, framesBeforeCut, { record, lastEventId: record.terminal.seq });
  }
  return record;
}

/** 1..n */
export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}
