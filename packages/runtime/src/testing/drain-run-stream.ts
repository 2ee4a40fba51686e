import type { ProgressEvent } from '@headway/protocol';
import type { RunResult } from '../loop/finish-run.js';

/** What {@link drainRunStream} read: every event in order, and the run's result. */
export interface DrainedRun {
  events: ProgressEvent[];
  result: RunResult;
}

/**
 * Reads `runtime.runStream(…)` to the end, as a UI would: every event it yields, in order,
 * then the result it returns (which `for await` would drop).
 *
 * @example
 * ```ts
 * const { events, result } = await drainRunStream(runtime.runStream('Summarize the README file'));
 * expect(result.status).toBe('completed');
 * ```
 */
export async function drainRunStream(stream: AsyncGenerator<ProgressEvent, RunResult, undefined>): Promise<DrainedRun> {
  const events: ProgressEvent[] = [];
  let next = await stream.next();
  while (next.done !== true) {
    events.push(next.value);
    next = await stream.next();
  }
  return { events, result: next.value };
}
