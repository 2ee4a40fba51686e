// A LangGraph agent tracked by headway: an agent ⇄ tools graph (the prebuilt ToolNode with a real
// file tool) that keeps a todo list in its state. The CLI progress bar (driven by that plan) goes
// to stderr, every event as JSON lines to a file, and at recursionLimit the report is asked from a
// report model (printed to stdout). Offline: the agent node and the report model are scripted.
// Put your chat model (`new ChatOpenAI(...).bindTools([readFile])`) in the agent node to go online.
import { createWriteStream, mkdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { withHeadway, type ReportModel } from '@headway/langgraph';
import { renderProgressReport } from '@headway/report';
import { saveRunReport } from '@headway/runtime';
import { CLIReporter } from '@headway/reporter-cli';
import { JSONReporter } from '@headway/reporter-json';
import { AIMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { Annotation, END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';

const { values } = parseArgs({
  // pnpm hands its `--` separator on to the script (`pnpm -F … start -- --flag`): it is not an argument.
  args: process.argv.slice(process.argv[2] === '--' ? 3 : 2),
  options: {
    dir: { type: 'string', default: '.' },
    events: { type: 'string', default: 'langgraph-agent.events.jsonl' },
    reports: { type: 'string', default: '.headway/reports' },
    'max-iterations': { type: 'string', default: '6' },
  },
});
// npm and pnpm run the script in this folder; the paths given are from where the command was typed.
const cwd = process.env.INIT_CWD ?? process.cwd();
const root = resolve(cwd, values.dir);
const eventsPath = resolve(cwd, values.events);
mkdirSync(dirname(eventsPath), { recursive: true });
const task = `Summarise what each file under ${root} is for.`;

/** Paths under `root` only: the model's arguments are untrusted. */
function inside(path: string): string {
  const full = resolve(root, path);
  if (relative(root, full).startsWith('..')) throw new Error(`${path} is outside ${root}`);
  return full;
}

const readFileTool = tool(async ({ path }: { path: string }) => (await readFile(inside(path), 'utf8')).slice(0, 2_000), {
  name: 'readFile',
  description: 'Reads a file of the folder',
  schema: z.object({ path: z.string() }),
});

interface Todo {
  text: string;
  status: 'pending' | 'in_progress' | 'completed';
}
const State = Annotation.Root({ ...MessagesAnnotation.spec, todos: Annotation<Todo[]>() });

const files = (await readdir(root, { withFileTypes: true }))
  .filter((e) => e.isFile())
  .map((e) => e.name)
  .sort();
let call = 0;
/** The scripted agent: one file a call, its todo list kept current. */
function agent(): { messages: AIMessage[]; todos: Todo[] } {
  call += 1;
  const next = files[call - 1];
  const todos = files.map((f, i): Todo => ({
    text: `read ${f}`,
    status: i < call - 1 ? 'completed' : i === call - 1 ? 'in_progress' : 'pending',
  }));
  const message =
    next === undefined
      ? new AIMessage(`Read ${files.join(', ')}.`)
      : new AIMessage({ content: '', tool_calls: [{ id: `c${String(call)}`, name: 'readFile', args: { path: next } }] });
  return { messages: [message], todos };
}

const graph = new StateGraph(State)
  .addNode('agent', agent)
  .addNode('tools', new ToolNode([readFileTool]))
  .addEdge(START, 'agent')
  .addConditionalEdges('agent', toolsCondition, ['tools', END])
  .addEdge('tools', 'agent')
  .compile({ name: 'summariser' });

/** The scripted report model: answers the report prompt from the activity it lists. */
const reportModel: ReportModel = {
  invoke(messages) {
    const prompt = messages.map((m) => m[1]).join('\n');
    const read = files.filter((f) => prompt.includes(`"path":"${f}"`));
    const left = files.filter((f) => !read.includes(f));
    const text = [
      '## PROGRESS REPORT',
      '### Task',
      task,
      '### Completed Work',
      `- read ${read.join(', ')}`,
      '### Key Findings',
      ...read.map((f) => `- ${f} is one of the files to summarise`),
      '### Attempted but Inconclusive',
      'None.',
      '### Not Started / Remaining',
      ...left.map((f) => `- read ${f}`),
      '### Suggested Next Steps',
      ...(left.length > 0 ? [`- read ${left[0] ?? ''} next`] : ['- write the summary']),
    ].join('\n');
    return Promise.resolve({ content: text });
  },
};

const tracked = withHeadway({
  task,
  sinks: [new CLIReporter({ stream: process.stderr }), new JSONReporter({ stream: createWriteStream(eventsPath) })],
  maxIterations: Number(values['max-iterations']),
  planKey: 'todos',
  reportModel,
});
const end = await tracked.run(graph, { messages: [['user', task]] });
if (end.report !== undefined) {
  console.log(renderProgressReport(end.report));
  // Kept under its run id; `latest.json` moves to it only when it records work.
  const saved = saveRunReport(resolve(cwd, values.reports), { runId: tracked.runId, report: end.report });
  if (saved !== undefined)
    console.error(`report: ${saved.path}${saved.latest ? '' : ' (latest.json unchanged: this run recorded no work)'}`);
} else console.log('finished');
for (const w of end.warnings) console.error(`warning: ${w.message}`);
// The headway CLI's exit codes: 0 done, 1 failed, 3 stopped short with a report, 130 cancelled.
process.exitCode = { completed: 0, limit: 3, cancelled: 130, error: 1 }[end.outcome];
