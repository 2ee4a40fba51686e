// A run of a small pretend agent drawn by CLIReporter, for a person to watch and for the
// real-terminal test (tmux) to look at. Run it with `pnpm -F @headway/reporter-cli demo`.
//   --mode auto|plain|live   reporter mode (default auto)
//   --scenario ok|limit      finish normally, or stop at a limit with a progress report
//   --step                   wait for a key press at each pause instead of sleeping
import { createProgressHub } from '@headway/protocol';
import { CLIReporter } from '../src/index.ts';

const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const step = process.argv.includes('--step');
const scenario = arg('--scenario') ?? 'ok';
const reporter = new CLIReporter({ mode: arg('--mode') ?? 'auto' });
const hub = createProgressHub({ runId: 'demo' });
hub.add(reporter);

// Each key pressed releases one pause, even when presses arrive before the pause or together.
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
    presses += bytes.length;
    release();
  });
}
const pause = (ms) =>
  new Promise((resolve) => {
    if (!step) {
      setTimeout(resolve, ms);
      return;
    }
    waiting = resolve;
    release();
  });

const started = Date.now();
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
      stats: { iterations: 10, toolCalls: 2, elapsedMs: Date.now() - started },
      generatedBy: 'fallback',
    },
  });
  hub.emit({ type: 'run.finished', durationMs: Date.now() - started, outcome: 'limit', summary: 'stopped after 10 iteration(s)' });
} else {
  hub.emit({ type: 'progress', percent: 90, message: 'Writing summary' });
  hub.emit({ type: 'run.finished', durationMs: Date.now() - started, outcome: 'completed', summary: 'finished after 2 iteration(s)' });
}
process.stderr.write('host: bye\n');
if (step && process.stdin.isTTY) process.stdin.setRawMode(false);
process.stdin.destroy();
