// Live data for the views. The stream itself is read by a worker (live-worker.ts): it holds the
// EventSource (which reconnects by itself after a drop or a server restart and sends
// Last-Event-ID, so the server sends only what changed since), parses and validates frames, and
// posts only what changed. One worker serves the page; each view opens its stream on it.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { PageRun, RunFrame } from './frames.js';
import type { LiveMessage, LiveRequest, LiveStatus } from './live-messages.js';

let worker: Worker | undefined;
let streams = 0;
const LIVE: LiveStatus = { text: '', kind: 'live' };

/** Follows the stream at `url` on the worker until the returned function is called. */
function follow(url: string, event: 'runs' | 'run', onMessage: (message: LiveMessage) => void): () => void {
  worker ??= new Worker('/live-worker.js', { type: 'module' });
  const live = worker;
  streams += 1;
  const stream = streams;
  const listener = (message: MessageEvent<LiveMessage>): void => {
    if (message.data.stream === stream) onMessage(message.data);
  };
  live.addEventListener('message', listener);
  const open: LiveRequest = { kind: 'open', stream, url, event };
  live.postMessage(open);
  return () => {
    live.removeEventListener('message', listener);
    if (streams === stream) live.postMessage({ kind: 'close' } satisfies LiveRequest);
  };
}

/** The list at `url`: its runs in their slots, their count, and the stream's status. */
export function useLiveList(url: string): { runs: PageRun[] | undefined; status: LiveStatus } {
  const byId = useRef(new Map<string, PageRun>());
  const [list, setList] = useState<{ order: string[] } | undefined>(undefined);
  const [status, setStatus] = useState<LiveStatus>(LIVE);
  useEffect(() => {
    byId.current = new Map();
    setList(undefined);
    return follow(url, 'runs', (message) => {
      if (message.kind === 'status') setStatus(message.status);
      else if (message.kind === 'runs') {
        const known = byId.current;
        for (const run of message.changed) known.set(run.id, run);
        if (known.size > 2 * message.total) {
          // Runs gone from the list (filtered out, deleted) are let go now and then, not on every frame.
          const keep = new Set(message.order);
          for (const id of [...known.keys()]) if (!keep.has(id)) known.delete(id);
        }
        setList({ order: message.order });
        setStatus(LIVE);
      }
    });
  }, [url]);
  if (list === undefined) return { runs: undefined, status };
  const runs: PageRun[] = [];
  for (const id of list.order) {
    const run = byId.current.get(id);
    if (run !== undefined) runs.push(run);
  }
  return { runs, status };
}

/** One run's page at `url`: its newest frame and the stream's status. */
export function useLiveRun(url: string): { frame: RunFrame | undefined; status: LiveStatus } {
  const [frame, setFrame] = useState<RunFrame | undefined>(undefined);
  const [status, setStatus] = useState<LiveStatus>(LIVE);
  useEffect(
    () =>
      follow(url, 'run', (message) => {
        if (message.kind === 'status') setStatus(message.status);
        else if (message.kind === 'run') {
          setFrame(message.frame);
          setStatus(LIVE);
        }
      }),
    [url],
  );
  return { frame, status };
}
