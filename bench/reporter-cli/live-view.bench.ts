// The live view against plain lines on one workload, side by side in one process: 40,000 tool
// calls that never finish, then 40,000 that start and finish, as events. Each finish used to
// search the running calls linearly (8 s live against 0.9 s plain); indexed, the live view
// costs about what plain lines cost. Timed in CPU time, sides alternating over rounds.
// Run: pnpm -F @headway/bench bench:reporter-cli
import type { Clock, ProgressEvent } from '@headway/protocol';
import { CLIReporter } from '@headway/reporter-cli';
import { median } from '../lib/compare.js';

const N = 40_000;
const ROUNDS = 5;

/** A terminal that takes everything and keeps nothing. */
const terminal = (isTTY: boolean) => ({ isTTY, columns: 120, rows: 40, write: () => true });

/** Time that moves 1 ms at each read, and timers that never fire. */
function steppingClock(): Clock {
  let now = 0;
  return { now: () => (now += 1), setTimeout: () => undefined, clearTimeout: () => undefined };
}

function workload(): ProgressEvent[] {
  const events: ProgressEvent[] = [];
  let seq = 0;
  const envelope = () => ({ runId: 'r', seq: ++seq, ts: seq });
  events.push({ type: 'run.started', agentName: 'bench', ...envelope() });
  for (let i = 0; i < N; i++) events.push({ type: 'tool.executing', toolName: 'stuck', toolCallId: `s${i}`, ...envelope() });
  for (let i = 0; i < N; i++) {
    events.push({ type: 'tool.executing', toolName: 'quick', toolCallId: `q${i}`, ...envelope() });
    events.push({ type: 'tool.completed', toolName: 'quick', toolCallId: `q${i}`, durationMs: 1, ok: true, ...envelope() });
  }
  return events;
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function run(mode: 'live' | 'plain', events: ProgressEvent[]): number {
  const reporter = new CLIReporter({ stream: terminal(mode === 'live'), mode, env: {}, clock: steppingClock() });
  const start = cpuMs();
  for (const event of events) reporter.handle(event);
  const took = cpuMs() - start;
  reporter.stop();
  return took;
}

const events = workload();
const times: Record<'live' | 'plain', number[]> = { live: [], plain: [] };
for (let round = 0; round < ROUNDS; round++) {
  const order: ('live' | 'plain')[] = round % 2 === 0 ? ['plain', 'live'] : ['live', 'plain'];
  for (const mode of order) times[mode].push(run(mode, events));
}
const ratios = times.live.map((t, i) => t / times.plain[i]!);
console.log(
  `\nCLIReporter: ${N.toLocaleString('en-US')} stuck + ${N.toLocaleString('en-US')} finished tool calls (CPU time, median of ${ROUNDS} rounds)`,
);
console.log('| variant | ms | × plain |');
console.log('|---|---:|---:|');
console.log(`| plain | ${median(times.plain).toFixed(0)} | 1.00 |`);
console.log(`| live | ${median(times.live).toFixed(0)} | ${median(ratios).toFixed(2)} |`);
