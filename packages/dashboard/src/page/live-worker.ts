// The page's live data, read off the main thread: this worker holds the view's EventSource,
// parses each snapshot, validates only the runs whose JSON changed since the last one, keeps the
// list's slots, and posts the window only what changed. A snapshot of 1,000 runs with 50 live
// costs the window 50 rows' work, however long the parse takes here.
import { readRunFrame } from './frames.js';
import type { LiveMessage, LiveRequest } from './live-messages.js';
import { createRunsReader } from './runs-reader.js';

let source: EventSource | undefined;

function post(message: LiveMessage): void {
  self.postMessage(message);
}

/** The message of an error frame (`{ error: { message } }`), or what the frame is when it has none. */
function serverError(data: string): string {
  try {
    const body = JSON.parse(data) as { error?: { message?: unknown } } | null;
    const message = body?.error?.message;
    return typeof message === 'string' ? message : 'the server ended the stream';
  } catch {
    return 'the server ended the stream';
  }
}

self.addEventListener('message', (message: MessageEvent<LiveRequest>) => {
  const request = message.data;
  source?.close();
  source = undefined;
  if (request.kind === 'close') return;
  const { stream, url, event } = request;
  const opened = new EventSource(url);
  source = opened;
  const readRuns = createRunsReader(stream, post);
  opened.addEventListener(event, (frame: MessageEvent<string>) => {
    if (event === 'runs') {
      readRuns(frame.data);
      return;
    }
    const read = readRunFrame(frame.data);
    if (read.ok) post({ kind: 'run', stream, frame: read.value });
    else
      post({ kind: 'status', stream, status: { text: `The server sent a frame this page cannot read: ${read.problem}`, kind: 'error' } });
  });
  opened.addEventListener('error', (frame: Event) => {
    // An `error` frame from the server (a run that is gone) ends the stream; a dropped connection does not.
    if (frame instanceof MessageEvent && typeof frame.data === 'string') {
      post({ kind: 'status', stream, status: { text: serverError(frame.data), kind: 'error' } });
      opened.close();
    } else post({ kind: 'status', stream, status: { text: 'reconnecting…', kind: 'offline' } });
  });
  opened.addEventListener('open', () => {
    post({ kind: 'status', stream, status: { text: '', kind: 'live' } });
  });
});
