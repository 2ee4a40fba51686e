// Live data: one EventSource per view. It reconnects by itself (after a drop or a server restart)
// and sends Last-Event-ID, so the server sends only what changed since.
import { useEffect, useState } from 'preact/hooks';
import type { Read } from './frames.js';

/** What the status line says: nothing while frames arrive, else why not. */
export interface LiveStatus {
  text: string;
  kind: 'live' | 'offline' | 'error';
}

/**
 * The newest frame of `event` on the stream at `url` (read by `read`), and the stream's status.
 * A frame that does not read is not drawn: the status says what is wrong with it.
 */
export function useLive<T>(url: string, event: string, read: (data: string) => Read<T>): { value: T | undefined; status: LiveStatus } {
  const [value, setValue] = useState<T | undefined>(undefined);
  const [status, setStatus] = useState<LiveStatus>({ text: '', kind: 'live' });
  useEffect(() => {
    const source = new EventSource(url);
    source.addEventListener(event, (message: MessageEvent<string>) => {
      const frame = read(message.data);
      if (frame.ok) {
        setValue(frame.value);
        setStatus({ text: '', kind: 'live' });
      } else setStatus({ text: `The server sent a frame this page cannot read: ${frame.problem}`, kind: 'error' });
    });
    source.addEventListener('error', (message: Event) => {
      // An `error` frame from the server (a run that is gone) ends the stream; a dropped connection does not.
      if (message instanceof MessageEvent && typeof message.data === 'string') {
        setStatus({ text: serverError(message.data), kind: 'error' });
        source.close();
      } else setStatus({ text: 'reconnecting…', kind: 'offline' });
    });
    return () => {
      source.close();
    };
  }, [url, event, read]);
  return { value, status };
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
