import type { ProgressEvent } from '@headway/protocol';
import type { RunResult } from './finish-run.js';

/**
 * Turns a run into an async generator of its events: `start` begins the run with a sink that
 * queues each event and a signal that cancels it; the generator yields events as they come
 * and returns the run's result. Stopping iteration early cancels the run and waits for its end.
 */
export async function* streamRun(
  start: (sink: (event: ProgressEvent) => void, signal: AbortSignal) => Promise<RunResult>,
  outer: AbortSignal | undefined,
): AsyncGenerator<ProgressEvent, RunResult, undefined> {
  const queue: ProgressEvent[] = [];
  let head = 0;
  let wake: (() => void) | undefined;
  const controller = new AbortController();
  const forward = (): void => {
    controller.abort(outer?.reason);
  };
  if (outer?.aborted === true) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  // An object, not a `let`: flow analysis cannot see the callback set it.
  const state = { done: false };
  const running = start((event) => {
    queue.push(event);
    wake?.();
  }, controller.signal).finally(() => {
    state.done = true;
    wake?.();
  });
  try {
    for (;;) {
      while (head < queue.length) {
        const event = queue[head];
        head += 1;
        if (event !== undefined) yield event;
      }
      queue.length = 0;
      head = 0;
      if (state.done) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
    return await running;
  } finally {
    outer?.removeEventListener('abort', forward);
    if (!state.done) {
      // Only its message leaves: the run ends `run.cancelled` with it as the reason.
      controller.abort(new Error('runStream: the consumer stopped reading'));
      await running;
    }
  }
}
