// Growth cases for the server-side adapters (redis, providers): the worst inputs known, at about
// n characters. The runner in ../run.ts times each at n = 10 KB, 100 KB and 1 MB.
import { ManualClock, type ProgressEvent } from '@headway/protocol';
import { createRedisSink } from '@headway/redis';

/** One growth case (the runner's shape, declared here so this file stands alone). */
interface AdversarialCase {
  name: string;
  /** The worst known input of about n bytes. */
  make(n: number): unknown;
  run(input: unknown): unknown;
}

/** A Redis client that acknowledges every write without a server: the sink's own work is what is timed. */
const acknowledging = { sendCommand: () => Promise.resolve([1]) };

export const cases: AdversarialCase[] = [
  {
    // The sink cuts the event to a tenth of its size: the longest strings first, escapes counted.
    name: 'redis: createRedisSink handle — a run.finished summary of escapes, 10× over maxEventBytes',
    make: (n): { event: ProgressEvent; max: number } => ({
      event: {
        type: 'run.finished',
        runId: 'r',
        seq: 2,
        ts: 1,
        durationMs: 1,
        outcome: 'completed',
        summary: '\u0001"x'.repeat(Math.ceil(n / 3)),
      },
      max: Math.max(300, Math.floor(n / 10)),
    }),
    run: (input) => {
      const { event, max } = input as { event: ProgressEvent; max: number };
      const sink = createRedisSink(acknowledging, {
        maxEventBytes: max,
        clock: new ManualClock({ start: 0 }),
        onInternalError: () => undefined,
      });
      return sink.handle(event);
    },
  },
];
