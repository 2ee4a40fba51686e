// A worker process for the distributed tests: runs one paced "agent run" into Redis.
// argv[2]: JSON { url, runId, events, paceMs, leaseMs, resumeFrom?, label?, pauseAt? }. Prints JSON lines;
// waits for "go" on stdin, and with `pauseAt` says `paused` once that seq is written and waits for another line. With `resumeFrom` it resumes the run as a checkpoint that says so would: its hub
// continues after that seq, and it emits no run.started.
import { createInterface } from 'node:readline';
import { createProgressHub } from '@headway/protocol';
import { connectRedis } from '../connect-redis.js';
import { createRedisSink } from '../redis-sink.js';

interface Args {
  url: string;
  runId: string;
  events: number;
  paceMs: number;
  leaseMs: number;
  /** The `seq` the resumed run's checkpoint recorded last. */
  resumeFrom?: number;
  /** Starts each progress message (default `step`). */
  label?: string;
  /** Once the hub has emitted this seq and the sink has written it, say `paused` and wait for a line on stdin. */
  pauseAt?: number;
}
const args = JSON.parse(process.argv[2] ?? '{}') as Args;
const say = (message: object): void => {
  process.stdout.write(`${JSON.stringify(message)}\n`);
};
const lines = createInterface({ input: process.stdin });
const nextLine = (): Promise<void> =>
  new Promise<void>((resolve) =>
    lines.once('line', () => {
      resolve();
    }),
  );
const go = nextLine();

const client = await connectRedis(args.url, { maxReconnectDelayMs: 200 });
const sink = createRedisSink(client, { leaseMs: args.leaseMs, workerId: `worker-${process.pid}`, maxRetryDelayMs: 200 });
const label = args.label ?? 'step';
const hub = createProgressHub({ runId: args.runId, ...(args.resumeFrom === undefined ? {} : { lastSeq: args.resumeFrom }) });
hub.add(sink, { name: 'redis' });
if (args.resumeFrom === undefined) hub.emit({ type: 'run.started', agentName: 'distributed-test' });
else hub.emit({ type: 'progress', percent: 50, message: `${label} 1` });
await sink.flush();
say({ ready: true, emitted: hub.lastSeq, stats: sink.stats() });
await go;
for (let i = 2; i < args.events; i++) {
  hub.emit({ type: 'progress', percent: Math.floor((i / args.events) * 99), message: `${label} ${i}` });
  if (i % 5 === 0) {
    await new Promise((resolve) => setTimeout(resolve, args.paceMs));
    say({ emitted: hub.lastSeq, stats: sink.stats() });
  }
  if (args.pauseAt !== undefined && hub.lastSeq === args.pauseAt) {
    const resume = nextLine();
    await sink.flush();
    say({ paused: true, emitted: hub.lastSeq, stats: sink.stats() });
    await resume;
  }
}
hub.emit({ type: 'run.finished', durationMs: 1, outcome: 'completed' });
await sink.flush();
say({ done: true, emitted: hub.lastSeq, stats: sink.stats() });
await sink.close();
lines.close();
client.destroy();
