// A run that runs out of time and hands over, and a second agent that continues from it.
//   npm start --prefix examples/limit-handoff [-- --budget-ms 2000 --events-dir out/]
import { createWriteStream, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CLIReporter } from '@headway/reporter-cli';
import { JSONReporter } from '@headway/reporter-json';
import { AgentRuntime, type AgentConfigInput, type ContinueFrom, type RunResult } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { TASK, lookupTool, researchModel } from './research-model.js';

const { values } = parseArgs({
  // pnpm hands its `--` separator on to the script (`pnpm -F … start -- --flag`): it is not an argument.
  args: process.argv.slice(process.argv[2] === '--' ? 3 : 2),
  options: {
    'budget-ms': { type: 'string', default: '2000' },
    'tool-ms': { type: 'string', default: '450' },
    'think-ms': { type: 'string', default: '150' },
    'events-dir': { type: 'string' },
  },
});
/** The headway CLI's exit codes: 0 done, 1 failed, 3 stopped short with a report, 130 cancelled. */
const EXIT = { completed: 0, limit: 3, cancelled: 130, error: 1 } as const;
const budgetMs = Number(values['budget-ms']);
const toolMs = Number(values['tool-ms']);
const thinkMs = Number(values['think-ms']);
// npm and pnpm run the script in this folder; the paths given are from where the command was typed.
const eventsDir = values['events-dir'] === undefined ? undefined : resolve(process.env.INIT_CWD ?? process.cwd(), values['events-dir']);
if (eventsDir !== undefined) mkdirSync(eventsDir, { recursive: true });

async function agent(name: string, config: Partial<AgentConfigInput>, input: string | ContinueFrom): Promise<RunResult> {
  const cli = new CLIReporter();
  const file = eventsDir === undefined ? undefined : createWriteStream(join(eventsDir, `${name}.jsonl`));
  const json = file === undefined ? undefined : new JSONReporter({ stream: file });
  const runtime = new AgentRuntime(
    { provider: 'scripted', agentName: name, maxIterations: 20, ...config },
    {
      provider: new ScriptedProvider(researchModel(thinkMs)),
      tools: [lookupTool(toolMs)],
      sinks: json === undefined ? [cli] : [cli, json],
    },
  );
  const result = typeof input === 'string' ? await runtime.run(input) : await runtime.continueRun(input);
  await json?.close();
  file?.end();
  return result;
}

// 1. A time budget too short for the job: at the soft deadline the run winds down
//    (wind-down.started), gets a few grace iterations to finish what is in hand and write its
//    progress report, and ends as a handoff — not "unable to complete".
const first = await agent('researcher', { timeBudgetMs: budgetMs, timeoutBehavior: 'graceful', graceIterations: 2 }, TASK);
process.stdout.write(
  `\nFirst run: ${first.status}${first.report === undefined ? '' : ` (${first.report.reason}, report by the ${first.report.generatedBy})`}\n`,
);
if (first.report === undefined) {
  process.stdout.write(`${first.text}\n`);
  process.exit(EXIT[first.status]);
}
// The CLI reporter has printed the report (from the report.generated event) above.

// 2. A follow-up agent continues from the report, as a run of its own: what is known comes
//    inline (continuationPrompt), so it only does what is left; its task stays the original one
//    and its run.started names the first run as its parent.
const second = await agent('continuer', {}, { runId: first.runId, report: first.report });
process.stdout.write(`\nSecond run: ${second.status} (continues ${second.parentRunId ?? '-'})\n\n${second.text}\n`);
process.exitCode = EXIT[second.status];
