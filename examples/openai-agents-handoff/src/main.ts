// An OpenAI Agents SDK run tracked by headway: a triage agent hands off to a reader agent that
// reads files with a real tool; the CLI progress bar goes to stderr, every event as JSON lines to
// a file, and at the iteration limit the reader writes its progress report (printed to stdout).
// The model is scripted (no API key needed) unless OPENAI_API_KEY is set: then the SDK's default
// OpenAI model (OPENAI_MODEL, default gpt-4.1-mini) does the work.
import { createWriteStream, mkdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { withHeadway } from '@headway/openai-agents';
import { renderProgressReport } from '@headway/report';
import { saveRunReport } from '@headway/runtime';
import { CLIReporter } from '@headway/reporter-cli';
import { JSONReporter } from '@headway/reporter-json';
import { Agent, Usage, setTracingDisabled, tool, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';
import { z } from 'zod';

const { values } = parseArgs({
  // pnpm hands its `--` separator on to the script (`pnpm -F … start -- --flag`): it is not an argument.
  args: process.argv.slice(process.argv[2] === '--' ? 3 : 2),
  options: {
    dir: { type: 'string', default: '.' },
    events: { type: 'string', default: 'openai-agents-handoff.events.jsonl' },
    reports: { type: 'string', default: '.headway/reports' },
    'max-iterations': { type: 'string', default: '5' },
  },
});
// npm and pnpm run the script in this folder; the paths given are from where the command was typed.
const cwd = process.env.INIT_CWD ?? process.cwd();
const root = resolve(cwd, values.dir);
const eventsPath = resolve(cwd, values.events);
mkdirSync(dirname(eventsPath), { recursive: true });
const task = `Summarise what each file under ${root} is for.`;
const offline = (process.env.OPENAI_API_KEY ?? '') === '';
if (offline) setTracingDisabled(true);

/** Paths under `root` only: the model's arguments are untrusted. */
function inside(path: string): string {
  const full = resolve(root, path);
  if (relative(root, full).startsWith('..')) throw new Error(`${path} is outside ${root}`);
  return full;
}

const listFiles = tool({
  name: 'listFiles',
  description: 'Lists the files in the folder',
  parameters: z.object({}),
  execute: async () =>
    (await readdir(root, { withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort()
      .join('\n'),
});
const readFileTool = tool({
  name: 'readFile',
  description: 'Reads a file of the folder',
  parameters: z.object({ path: z.string() }),
  execute: async ({ path }) => (await readFile(inside(path), 'utf8')).slice(0, 2_000),
});

const textOf = (request: ModelRequest): string => (typeof request.input === 'string' ? request.input : JSON.stringify(request.input));
const usage = (): Usage => new Usage({ requests: 1, inputTokens: 400, outputTokens: 60, totalTokens: 460 });
const say = (text: string): ModelResponse => ({
  usage: usage(),
  output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] }],
});
const callTool = (name: string, args: unknown, id: string): ModelResponse => ({
  usage: usage(),
  output: [{ type: 'function_call', callId: id, name, arguments: JSON.stringify(args), status: 'completed' }],
});

/** The triage agent's script: hand the task to the reader. */
const triageModel: Model = {
  getResponse: () => Promise.resolve(callTool('transfer_to_reader', {}, 'handoff')),
  getStreamedResponse: () => {
    throw new Error('not streamed');
  },
};

/** The reader's script: list the folder, read one file a call, answer the report prompt with what it read. */
function readerModel(): Model {
  let call = 0;
  const read: string[] = [];
  return {
    async getResponse(request) {
      call += 1;
      const text = textOf(request);
      const files = (await readdir(root, { withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => e.name)
        .sort();
      if (text.includes('STOP:')) {
        const left = files.filter((f) => !read.includes(f));
        return say(
          [
            '## PROGRESS REPORT',
            '### Task',
            task,
            '### Completed Work',
            `- listed the folder and read ${read.join(', ')}`,
            '### Key Findings',
            ...read.map((f) => `- ${f} is one of the files to summarise`),
            '### Attempted but Inconclusive',
            'None.',
            '### Not Started / Remaining',
            ...left.map((f) => `- read ${f}`),
            '### Suggested Next Steps',
            ...(left.length > 0 ? [`- read ${left[0] ?? ''} next`] : ['- write the summary']),
          ].join('\n'),
        );
      }
      if (call === 1) return callTool('listFiles', {}, `c${String(call)}`);
      const next = files.find((f) => !read.includes(f));
      if (next === undefined) return say(`Read ${read.join(', ')}.`);
      read.push(next);
      return callTool('readFile', { path: next }, `c${String(call)}`);
    },
    getStreamedResponse: () => {
      throw new Error('not streamed');
    },
  };
}

const onlineModel = process.env.OPENAI_MODEL ?? 'gpt-4.1-mini';
const reader = new Agent({
  name: 'reader',
  instructions: 'Read the files one by one and summarise what each is for.',
  tools: [listFiles, readFileTool],
  model: offline ? readerModel() : onlineModel,
});
const triage = new Agent({
  name: 'triage',
  instructions: 'Hand file questions to the reader.',
  handoffs: [reader],
  model: offline ? triageModel : onlineModel,
});

const tracked = withHeadway({
  task,
  sinks: [new CLIReporter({ stream: process.stderr }), new JSONReporter({ stream: createWriteStream(eventsPath) })],
  maxIterations: Number(values['max-iterations']),
  costOf: (u) => (u.inputTokens * 0.4 + u.outputTokens * 1.6) / 1e6,
});
const end = await tracked.run(triage, task);
if (end.report !== undefined) {
  console.log(renderProgressReport(end.report));
  // Kept under its run id; `latest.json` moves to it only when it records work.
  const saved = saveRunReport(resolve(cwd, values.reports), { runId: tracked.runId, report: end.report });
  if (saved !== undefined)
    console.error(`report: ${saved.path}${saved.latest ? '' : ' (latest.json unchanged: this run recorded no work)'}`);
} else console.log(end.result?.finalOutput ?? '');
for (const w of end.warnings) console.error(`warning: ${w.message}`);
// The headway CLI's exit codes: 0 done, 1 failed, 3 stopped short with a report, 130 cancelled.
process.exitCode = { completed: 0, limit: 3, cancelled: 130, error: 1 }[end.outcome];
