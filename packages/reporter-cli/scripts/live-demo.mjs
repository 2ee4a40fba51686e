// A run of a small pretend agent drawn by CLIReporter, for a person to watch and for the
// real-terminal test (tmux) to look at. Run it with `pnpm -F @headway/reporter-cli demo`.
//   --mode auto|plain|live   reporter mode (default auto)
//   --scenario ok|limit      finish normally, or stop at a limit with a progress report
//   --step                   wait for a key press at each pause instead of sleeping, on a clock
//                            that moves only with the key presses (`t` moves it one frame)
import { createProgressHub, ManualClock, systemClock } from '@headway/protocol';
import { CLIReporter } from '../src/index.ts';
import { SPINNER_INTERVAL_MS } from '../src/live-frame.ts';

const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const step = process.argv.includes('--step');
const scenario = arg('--scenario') ?? 'ok';
// Stepped, the demo's time moves only when the driver says so, so every frame drawn at a pause
// is the same however slow the machine: a real clock would count the ETA down, and the running
// tool's time up, while a loaded machine took its snapshot.
const clock = step ? new ManualClock({ start: 1_000_000 }) : systemClock;
const reporter = new CLIReporter({ mode: arg('--mode') ?? 'auto', clock });
const hub = createProgressHub({ runId: 'demo' });
hub.add(reporter);

// Each key pressed releases one pause, even when presses arrive before the pause or together;
// `t` instead moves the clock one frame, which fires the reporter's own animation timer.
let presses = 0;
let waiting;
const release = () => {
  if (waiting === undefined || presses === 0) return;
  presses -= 1;
  const resolve = waiting;
  waiting = undefined;
  resolve();
};
if (step) {
  if (process.stdin.isTTY) process.stdin.setRawMode(true); // no echo of the key presses
  process.stdin.on('data', (bytes) => {
    for (const byte of bytes) {
      if (byte === 0x74 /* t */) clock.advanceSync(SPINNER_INTERVAL_MS);
      else presses += 1;
    }
    release();
  });
}
const pause = (ms) =>
  new Promise((resolve) => {
    if (!step) {
      setTimeout(resolve, ms);
      return;
    }
    const end = clock.now() + ms;
    // One frame first: a real run draws the events before the pause within a frame, and the
    // reporter skips redraws closer together than that.
    clock.advanceSync(SPINNER_INTERVAL_MS);
    waiting = () => {
      clock.advanceSync(Math.max(0, end - clock.now()));
      resolve();
    };
    release();
  });

const started = clock.now();
hub.emit({ type: 'run.started', agentName: 'demo', task: 'Summarize the README file' });
reporter.log('host: loaded 3 files');
hub.emit({ type: 'iteration', index: 0, max: 10 });
hub.emit({ type: 'progress', percent: 10, message: 'Reading files' });
hub.emit({ type: 'tool.executing', toolName: 'file_read', toolCallId: 'c1', args: { path: 'README.md' } });
await pause(1500);
hub.emit({
  type: 'tool.completed',
  toolName: 'file_read',
  toolCallId: 'c1',
  durationMs: 1234,
  ok: true,
  preview: '# headway makes long-running agent loops legible',
});
reporter.log('host: cache warm');
hub.emit({ type: 'iteration', index: 1, max: 10 });
hub.emit({ type: 'progress', percent: 45, message: 'Analyzing input', etaMs: 20_000 });
hub.emit({ type: 'tool.executing', toolName: 'web_search', toolCallId: 'c2' });
hub.emit({ type: 'limit.approaching', limit: 'iterations', used: 8, max: 10 });
await pause(1500);
hub.emit({ type: 'tool.completed', toolName: 'web_search', toolCallId: 'c2', durationMs: 900, ok: false, preview: 'rate limited' });
if (scenario === 'limit') {
  hub.emit({ type: 'wind-down.started', reason: 'time budget used', graceIterations: 2 });
  hub.emit({ type: 'limit.reached', limit: 'iterations', used: 10, max: 10 });
  hub.emit({
    type: 'report.generated',
    report: {
      task: 'Summarize the README file',
      reason: 'max-iterations',
      completedWork: ['Read README.md'],
      keyFindings: ['The project is a monorepo of small packages'],
      attemptedInconclusive: ['web_search: rate limited'],
      remaining: ['Write the summary'],
      suggestedNextSteps: ['Summarize from README.md alone'],
      stats: { iterations: 10, toolCalls: 2, elapsedMs: clock.now() - started },
      generatedBy: 'fallback',
    },
  });
  hub.emit({ type: 'run.finished', durationMs: clock.now() - started, outcome: 'limit', summary: 'stopped after 10 iteration(s)' });
} else {
  hub.emit({ type: 'progress', percent: 90, message: 'Writing summary' });
  hub.emit({ type: 'run.finished', durationMs: clock.now() - started, outcome: 'completed', summary: 'finished after 2 iteration(s)' });
}
process.stderr.write('host: bye\n');
if (step && process.stdin.isTTY) process.stdin.setRawMode(false);
process.stdin.destroy();
