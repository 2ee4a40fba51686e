// What one more step (or iteration) of an agent run costs in countable work, for each variant of a
// step-overhead bench: events handed to sinks, write() calls and bytes on the streams, estimator
// calls, timers and promises created. Counts do not move with the machine's load the way times
// do, so a change to a hot path can be judged by them first; and two benches (bench:ai-sdk's steps,
// bench:runtime's iterations) can be compared line by line.
import { createHook } from 'node:async_hooks';
import { Writable } from 'node:stream';
import { ProgressTracker } from '@headway/estimator';

/** Countable work of one run. */
interface Counts {
  events: number;
  writes: number;
  bytes: number;
  estimatorCalls: number;
  immediates: number;
  timeouts: number;
  ticks: number;
  promises: number;
}

const ZERO: Counts = { events: 0, writes: 0, bytes: 0, estimatorCalls: 0, immediates: 0, timeouts: 0, ticks: 0, promises: 0 };

/** The tracker's methods a loop calls as it goes (the estimator's entry points). */
const TRACKER_METHODS = [
  'iterationStarted',
  'toolsStarted',
  'toolCallFinished',
  'iterationFinished',
  'reportModelProgress',
  'stepStarted',
  'stepFinished',
  'setMessage',
  'tick',
  'setStalled',
  'complete',
  'planUpdated',
] as const;

/** One variant to count: `run(steps)` makes a run of `steps` steps; `events` reads how many events the last run emitted. */
export interface CountedVariant {
  name: string;
  run: (steps: number) => () => Promise<void>;
  /** Events the run emitted (from a counting sink of the variant's own), or undefined when it has no hub. */
  events?: () => number;
}

/** Runs `fn` once with every counter on and returns what it did. */
async function countOnce(fn: () => Promise<void>, events: (() => number) | undefined): Promise<Counts> {
  const c: Counts = { ...ZERO };
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') c.promises += 1;
      else if (type === 'Immediate') c.immediates += 1;
      else if (type === 'Timeout') c.timeouts += 1;
      else if (type === 'TickObject') c.ticks += 1;
    },
  });
  // Counted for the length of one run, then put back exactly as it was (called with its own `this`).
  const writable = Writable.prototype as unknown as { write: (...args: unknown[]) => boolean };
  const write = writable.write;
  const proto = ProgressTracker.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const originals = TRACKER_METHODS.map((name) => [name, proto[name]!] as const);
  writable.write = function (this: Writable, chunk: unknown, ...rest: unknown[]): boolean {
    c.writes += 1;
    c.bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk instanceof Uint8Array ? chunk.byteLength : 0;
    return write.call(this, chunk, ...rest);
  };
  for (const [name, original] of originals)
    proto[name] = function (this: unknown, ...args: unknown[]): unknown {
      c.estimatorCalls += 1;
      return original.apply(this, args);
    };
  const before = events?.() ?? 0;
  hook.enable();
  try {
    await fn();
  } finally {
    hook.disable();
    writable.write = write;
    for (const [name, original] of originals) proto[name] = original;
  }
  c.events = (events?.() ?? 0) - before;
  return c;
}

/**
 * Prints, per variant, the work one more step adds: (counts of a `long`-step run − counts of a
 * `short`-step run) / (long − short), each run counted alone after a warm-up.
 */
export async function stepCounts(
  title: string,
  variants: CountedVariant[],
  options: { short?: number; long?: number } = {},
): Promise<void> {
  const short = options.short ?? 2;
  const long = options.long ?? 12;
  console.log(`\n${title} ((${String(long)}-step run − ${String(short)}-step run) / ${String(long - short)}, each counted alone)`);
  console.log('| variant | events | write() calls | bytes written | estimator calls | setImmediate | setTimeout | nextTick | promises |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const v of variants) {
    const [fewRun, manyRun] = [v.run(short), v.run(long)];
    for (let i = 0; i < 3; i++) {
      await fewRun();
      await manyRun();
    }
    const few = await countOnce(fewRun, v.events);
    const many = await countOnce(manyRun, v.events);
    const per = (key: keyof Counts): string => ((many[key] - few[key]) / (long - short)).toFixed(1);
    console.log(
      `| ${v.name} | ${v.events === undefined ? '–' : per('events')} | ${per('writes')} | ${per('bytes')} | ${per('estimatorCalls')} | ${per('immediates')} | ${per('timeouts')} | ${per('ticks')} | ${per('promises')} |`,
    );
  }
}
