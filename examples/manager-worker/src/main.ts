// A manager agent that runs WORKFLOW.md: each step's workers are agent runs of their own,
// and their progress lands in the step's slice of one overall bar that only moves forward.
//   npm start --prefix examples/manager-worker [-- --events events.jsonl --step-delay 300]
import { createWriteStream, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ProgressTracker, parseWorkflow } from '@headway/estimator';
import { createProgressHub, type ProgressEvent } from '@headway/protocol';
import { CLIReporter } from '@headway/reporter-cli';
import { JSONReporter } from '@headway/reporter-json';
import { runWorker } from './workers.js';

const { values } = parseArgs({
  // pnpm hands its `--` separator on to the script (`pnpm -F … start -- --flag`): it is not an argument.
  args: process.argv.slice(process.argv[2] === '--' ? 3 : 2),
  options: {
    workflow: { type: 'string', default: resolve(import.meta.dirname, '..', 'WORKFLOW.md') },
    events: { type: 'string' },
    'step-delay': { type: 'string', default: '300' },
  },
});
// npm and pnpm run the script in this folder; the paths given are from where the command was typed.
const cwd = process.env.INIT_CWD ?? process.cwd();
const workflowPath = resolve(cwd, values.workflow);
const stepDelayMs = Number(values['step-delay']);

let steps;
try {
  steps = parseWorkflow(readFileSync(workflowPath, 'utf8'));
} catch (error) {
  process.stderr.write(`manager-worker: ${workflowPath}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
const startedAt = Date.now();
const hub = createProgressHub({ runId: `manager-${startedAt.toString(36)}` });
const cli = new CLIReporter();
hub.add(cli);
const eventsFile = values.events === undefined ? undefined : createWriteStream(resolve(cwd, values.events));
const json = eventsFile === undefined ? undefined : new JSONReporter({ stream: eventsFile });
if (json !== undefined) hub.add(json);

// The manager's tracker owns the overall percent: each workflow step gets its weighted slice of 10–90.
const manager = new ProgressTracker({
  maxIterations: steps.length,
  steps: steps.map((s) => ({ name: s.title, weight: s.weight })),
  emit: (body) => hub.emit(body),
});

hub.emit({ type: 'run.started', agentName: 'manager', task: 'Write the release note for headway 0.1' });
const outputs: string[] = [];
for (const step of steps) {
  const stepStart = Date.now();
  hub.emit({ type: 'step.started', step: step.title, description: step.calls.map((c) => c.call).join(' + ') });
  const results = await Promise.all(
    step.calls.map(async (call) => {
      // Each worker's own 0–100 lands in this step's slice; parallel members count as their mean.
      const slice = manager.child(step.title);
      const forward = (event: ProgressEvent): void => {
        if (event.type === 'progress')
          slice.reportModelProgress(
            event.message === undefined
              ? { percent: event.percent }
              : { percent: event.percent, message: `${call.call}: ${event.message}` },
          );
        // Tool activity is shown under the manager's run, named after the worker that did it.
        const toolName = 'toolName' in event ? `${call.call} › ${event.toolName}` : '';
        if (event.type === 'tool.executing') hub.emit({ type: 'tool.executing', toolName });
        if (event.type === 'tool.completed') {
          hub.emit({
            type: 'tool.completed',
            toolName,
            durationMs: event.durationMs,
            ok: event.ok,
            ...(event.preview === undefined ? {} : { preview: event.preview }),
          });
        }
      };
      const text = await runWorker(call.call, { stepDelayMs, sinks: [forward] });
      slice.complete();
      return text;
    }),
  );
  outputs.push(...results);
  manager.stepFinished(step.title);
  hub.emit({ type: 'step.finished', step: step.title, durationMs: Date.now() - stepStart });
}
manager.complete();
hub.emit({
  type: 'run.finished',
  durationMs: Date.now() - startedAt,
  outcome: 'completed',
  summary: `ran ${steps.length} workflow step(s)`,
});
await hub.flush({ timeoutMs: 2000 });
await json?.close();
eventsFile?.end();
process.stdout.write(`\n${outputs.at(-2) ?? ''}\n\n${outputs.at(-1) ?? ''}\n`);
