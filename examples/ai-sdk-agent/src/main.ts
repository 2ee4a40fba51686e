// An AI SDK agent (generateText with tools) tracked by headway: a progress bar on stderr, every
// event as JSON lines in a file, and at the iteration limit a progress report the model writes
// in one last tool-less step. The model is the AI SDK's mock, scripted to explore the folder,
// unless OPENAI_API_KEY is set: then a real OpenAI (or OpenAI-compatible, OPENAI_BASE_URL) model
// does the work (OPENAI_MODEL, default gpt-4.1-mini).
import { createWriteStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { withHeadway } from '@headway/ai-sdk';
import { renderProgressReport } from '@headway/report';
import { saveRunReport } from '@headway/runtime';
import { CLIReporter } from '@headway/reporter-cli';
import { JSONReporter } from '@headway/reporter-json';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, tool, type LanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

const { values } = parseArgs({
  // pnpm hands its `--` separator on to the script (`pnpm -F … start -- --flag`): it is not an argument.
  args: process.argv.slice(process.argv[2] === '--' ? 3 : 2),
  options: {
    dir: { type: 'string', default: '.' },
    events: { type: 'string', default: 'ai-sdk-agent.events.jsonl' },
    reports: { type: 'string', default: '.headway/reports' },
    'max-iterations': { type: 'string', default: '5' },
  },
});
// npm and pnpm run the script in this folder; the paths given are from where the command was typed.
const cwd = process.env.INIT_CWD ?? process.cwd();
const root = resolve(cwd, values.dir);
const eventsPath = resolve(cwd, values.events);
const task = `List the files under ${root} and summarise what each one is for.`;

/** Paths under `root` only: the model's arguments are untrusted. */
function inside(path: string): string {
  const full = resolve(root, path);
  if (relative(root, full).startsWith('..')) throw new Error(`${path} is outside ${root}`);
  return full;
}

const tools = {
  listFiles: tool({
    description: 'lists the files of the folder',
    inputSchema: z.object({}),
    execute: async () => (await readdir(root, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name),
  }),
  readFile: tool({
    description: 'reads the first 2000 characters of a file',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => (await readFile(inside(path), 'utf8')).slice(0, 2000),
  }),
};

/** The mock: lists the folder, reads one file a step, and answers the report prompt with what it read. */
const read: string[] = [];
let files: string[] = [];
const usage = (n: number) => ({
  inputTokens: { total: n, noCache: n, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 40, text: 40, reasoning: 0 },
});
const mock = new MockLanguageModelV3({
  doGenerate: async (options) => {
    const last = options.prompt.at(-1);
    const lastText = last?.role === 'user' ? last.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
    if (lastText.startsWith('STOP:')) {
      const text = [
        '## PROGRESS REPORT',
        '### Completed Work',
        ...read.map((f) => `- read ${f}`),
        '### Key Findings',
        `- the folder holds ${String(files.length)} files: ${files.join(', ')}`,
        '### Attempted but Inconclusive',
        'None.',
        '### Not Started / Remaining',
        ...files.filter((f) => !read.includes(f)).map((f) => `- ${f}`),
        '### Suggested Next Steps',
        `- read ${files.find((f) => !read.includes(f)) ?? 'nothing: all files were read'}`,
      ].join('\n');
      return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: undefined }, usage: usage(500), warnings: [] };
    }
    if (files.length === 0) {
      files = (await readdir(root, { withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => e.name)
        .sort();
      return {
        content: [{ type: 'tool-call', toolCallId: 'list', toolName: 'listFiles', input: '{}' }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage: usage(200),
        warnings: [],
      };
    }
    const next = files.find((f) => !read.includes(f));
    if (next === undefined)
      return {
        content: [{ type: 'text', text: `All ${String(files.length)} files read.` }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: usage(300),
        warnings: [],
      };
    read.push(next);
    return {
      content: [{ type: 'tool-call', toolCallId: `read-${next}`, toolName: 'readFile', input: JSON.stringify({ path: next }) }],
      finishReason: { unified: 'tool-calls', raw: undefined },
      usage: usage(300),
      warnings: [],
    };
  },
});

const key = process.env.OPENAI_API_KEY;
const model: LanguageModel =
  key === undefined || key === ''
    ? mock
    : createOpenAI({ apiKey: key, ...(process.env.OPENAI_BASE_URL === undefined ? {} : { baseURL: process.env.OPENAI_BASE_URL }) })(
        process.env.OPENAI_MODEL ?? 'gpt-4.1-mini',
      );

const json = new JSONReporter({ stream: createWriteStream(eventsPath) });
const run = withHeadway({
  task,
  agentName: 'ai-sdk-agent',
  sinks: [new CLIReporter({ stream: process.stderr }), json],
  maxIterations: Number(values['max-iterations']),
  costOf: (u) => u.inputTokens * 2e-6 + u.outputTokens * 8e-6,
});
const end = await run.track(generateText({ model, system: 'You explore folders.', prompt: task, tools, ...run.settings }));
await json.close();
if (end.report !== undefined) {
  console.log(renderProgressReport(end.report));
  // Kept under its run id; `latest.json` moves to it only when it records work.
  const saved = saveRunReport(resolve(cwd, values.reports), { runId: run.runId, report: end.report });
  if (saved !== undefined)
    console.error(`report: ${saved.path}${saved.latest ? '' : ' (latest.json unchanged: this run recorded no work)'}`);
} else console.log(end.result?.text ?? '');
for (const w of end.warnings) console.error(`warning: ${w}`);
console.error(`events: ${eventsPath}`);
// The headway CLI's exit codes: 0 done, 1 failed, 3 stopped short with a report, 130 cancelled.
process.exitCode = { completed: 0, limit: 3, cancelled: 130, error: 1 }[end.outcome];
