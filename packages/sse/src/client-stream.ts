import type { Clock } from '@headway/protocol';
import { repeatOn } from '@headway/protocol/internal';
import type { ReplayCursor } from './replay-log.js';
import { SSE_HEARTBEAT, formatRetryFrame } from './sse-frame.js';
import { encodeUtf8 } from './utf8.js';

/** Why a client's stream ended. */
export type DisconnectReason =
  /** The run's terminal event was sent; the server closed the stream. */
  | 'done'
  /** The client went away. */
  | 'client-closed'
  /** The client's unsent data passed `maxBufferedBytes`; it was cut off and may resume. */
  | 'slow'
  /** Events the client had not received were evicted from the replay log (or the run was forgotten). */
  | 'lost';

/** One connection's byte sink, adapted from `node:http` or a web `ReadableStream`. */
export interface StreamTransport {
  write(chunk: Uint8Array): void;
  /** Bytes accepted by `write` but not yet handed to the network. */
  bufferedBytes(): number;
  end(): void;
  /** Closes the connection at once (the unsent data is dropped). */
  destroy(): void;
}

export interface ClientStreamOptions {
  maxBufferedBytes: number;
  heartbeatMs: number;
  retryMs: number;
  /** Timers of the heartbeat. */
  clock: Clock;
  onEnd: (reason: DisconnectReason) => void;
}

export interface ClientStream {
  /** Sends what the cursor has, as far as the transport takes it; called on new events and on drain. */
  readonly pump: () => void;
  /** The client went away. */
  readonly close: () => void;
}

const HEARTBEAT_BYTES = encodeUtf8(SSE_HEARTBEAT);

/**
 * Moves a replay cursor's frames to one client. Frames are pulled from the shared log only
 * while the transport's buffer is below a high-water mark, so a slow client costs at most
 * that buffer. Its unsent data is what a push server would have queued for it: the frames
 * of events emitted since it connected that it has not been sent, plus the transport's
 * buffer; when that passes `maxBufferedBytes` it is disconnected and can resume by
 * `Last-Event-ID`. The backlog it connected to is not counted, so a resume with a long
 * backlog is paced by backpressure instead of being cut off again.
 */
export function startClientStream(cursor: ReplayCursor, transport: StreamTransport, options: ClientStreamOptions): ClientStream {
  const { maxBufferedBytes, clock } = options;
  const highWater = Math.min(64 * 1024, maxBufferedBytes);
  let finished = false;
  let stopHeartbeat: (() => void) | undefined;
  const liveFrom = cursor.endOffset;

  function finish(reason: DisconnectReason): void {
    if (finished) return;
    finished = true;
    cursor.close();
    stopHeartbeat?.();
    if (reason === 'done') transport.end();
    else if (reason !== 'client-closed') transport.destroy();
    options.onEnd(reason);
  }

  function pump(): void {
    if (finished) return;
    if (cursor.lost) {
      finish('lost');
      return;
    }
    let buffered = transport.bufferedBytes();
    while (buffered < highWater) {
      // A fixed budget (not what is left of it) keeps clients in step taking the same
      // range, so the log joins it once for all of them.
      const chunk = cursor.take(highWater);
      if (chunk === undefined) break;
      transport.write(chunk);
      if (cursor.done) {
        finish('done');
        return;
      }
      buffered = transport.bufferedBytes();
    }
    const unsentLive = cursor.endOffset - Math.max(liveFrom, cursor.offset);
    if (unsentLive + buffered > maxBufferedBytes) finish('slow');
  }

  transport.write(encodeUtf8(formatRetryFrame(options.retryMs)));
  if (options.heartbeatMs > 0) {
    stopHeartbeat = repeatOn(clock, options.heartbeatMs, () => {
      if (finished) return;
      // Only an idle connection needs the comment; a busy or stuck one gets checked instead.
      if (transport.bufferedBytes() === 0 && cursor.pendingBytes === 0) transport.write(HEARTBEAT_BYTES);
      else pump();
    });
  }
  pump();
  return {
    pump,
    close() {
      finish('client-closed');
    },
  };
}
