import type { InternalErrorContext, OnInternalError, ProgressEvent, ProgressSink } from '@headway/protocol';

/** Anything socket.io emits through: a `Server`, a namespace (`io.of('/agents')`) or a room (`io.to(runId)`). */
export interface SocketIoTarget {
  emit(eventName: string, ...args: unknown[]): unknown;
}

/** Options of {@link createSocketIoSink}. */
export interface SocketIoSinkOptions {
  /** The socket.io event name (default `agent.progress`). */
  eventName?: string;
  /** Picks a room per event, e.g. `(event) => event.runId`; needs a target with `to()` (a server or namespace). */
  room?: (event: ProgressEvent) => string;
  /** Told when emitting fails (`where: 'emit'`); the error goes no further. */
  onInternalError?: OnInternalError<SocketIoSinkErrorContext>;
}

/** Where a failure the sink survived happened: `emit`, socket.io threw for `event`. */
export interface SocketIoSinkErrorContext extends InternalErrorContext {
  readonly where: 'emit';
  readonly event: ProgressEvent;
}

/** A target that can narrow to a room. */
interface RoomCapable {
  to(room: string): { emit(eventName: string, ...args: unknown[]): unknown };
}

/**
 * A progress sink that emits every event to a socket.io 4 namespace or room as
 * `agent.progress`, the same event objects the SSE stream carries. It never throws into
 * the run; socket.io buffers per client, so a slow client does not stall it either.
 *
 * @example
 * ```ts
 * const io = new Server(httpServer);
 * hub.add(createSocketIoSink(io.of('/agents').to(hub.runId)));
 * // browser: socket.on('agent.progress', (event) => render(event));
 * ```
 */
export function createSocketIoSink(target: SocketIoTarget, options: SocketIoSinkOptions = {}): ProgressSink {
  const eventName = options.eventName ?? 'agent.progress';
  const { room, onInternalError } = options;
  return (event) => {
    try {
      if (room === undefined) target.emit(eventName, event);
      else (target as unknown as RoomCapable).to(room(event)).emit(eventName, event);
    } catch (error) {
      try {
        onInternalError?.(error, { where: 'emit', runId: event.runId, event });
      } catch {
        // The error callback may not break the run either.
      }
    }
  };
}
