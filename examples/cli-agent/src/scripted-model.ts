// The "model" of the demo: a deterministic policy that decides each next step from the
// real tool results in the conversation, so the demo needs no API key and behaves the same
// every time — while still reading real files.
import type { ChatMessage, CompletionRequest } from '@headway/runtime';
import type { ScriptedStep } from '@headway/runtime/testing';

interface PlannedCall {
  /** How a done step is named in progress reports, so a follow-up run can skip it. */
  label: string;
  /** How a step still to do is named. */
  todo: string;
  name: string;
  args: Record<string, unknown>;
  percent: number;
}

const PLAN: readonly PlannedCall[] = [
  { label: 'Listed the project root (list_dir .)', todo: 'List the project root', name: 'list_dir', args: { path: '.' }, percent: 15 },
  { label: 'Read README.md (read_file README.md)', todo: 'Read README.md', name: 'read_file', args: { path: 'README.md' }, percent: 35 },
  {
    label: 'Listed the packages folder (list_dir packages)',
    todo: 'List the packages folder',
    name: 'list_dir',
    args: { path: 'packages' },
    percent: 60,
  },
  {
    label: 'Collected package names and descriptions (grep in packages/*/package.json)',
    todo: 'Collect package names and descriptions from packages/*/package.json',
    name: 'grep',
    args: { pattern: '"(name|description)"', glob: 'packages/*/package.json' },
    percent: 80,
  },
];

const README_MARK = 'README summary: ';
const PACKAGES_MARK = 'Packages found: ';

function sameCall(a: { name: string; args: unknown }, b: PlannedCall): boolean {
  return a.name === b.name && JSON.stringify(a.args) === JSON.stringify(b.args);
}

/** Results of the planned calls made so far in this conversation, by plan index. */
function results(conversation: readonly ChatMessage[]): Map<number, string> {
  const byId = new Map<string, number>();
  const out = new Map<number, string>();
  for (const message of conversation) {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) {
        const index = PLAN.findIndex((p) => sameCall(call, p));
        if (index !== -1) byId.set(call.id, index);
      }
    } else if (message.role === 'tool') {
      const index = byId.get(message.toolCallId);
      if (index !== undefined) out.set(index, message.content);
    }
  }
  return out;
}

/** The first paragraph of a Markdown document after its title, on one line. */
function introduction(markdown: string): string {
  const paragraphs = markdown.split(/\n\s*\n/).map((p) => p.trim());
  const body = paragraphs.find((p) => p !== '' && !p.startsWith('#'));
  return (body ?? '').replace(/\*\*/g, '').replace(/`/g, '').replace(/\s+/g, ' ');
}

/** `@headway/x — description` for each package, from the grep output over package.json files. */
function packageLines(grepOutput: string): string[] {
  const names = new Map<string, string>();
  const descriptions = new Map<string, string>();
  for (const line of grepOutput.split('\n')) {
    const m = /^packages\/([^/]+)\/package\.json:\d+: "(name|description)": "(.*)",?$/.exec(line);
    if (m === null) continue;
    const [, dir = '', key, value = ''] = m;
    (key === 'name' ? names : descriptions).set(dir, value);
  }
  return [...names.entries()].map(([dir, name]) => {
    const description = descriptions.get(dir);
    return description === undefined ? name : `${name} — ${description}`;
  });
}

function userText(conversation: readonly ChatMessage[]): string {
  return conversation
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
}

/** What a follow-up run already knows from the report it was handed. */
function carriedOver(conversation: readonly ChatMessage[]): { done: Set<number>; readme?: string; packages?: string } {
  const text = userText(conversation);
  const done = new Set<number>();
  PLAN.forEach((p, i) => {
    if (text.includes(p.label)) done.add(i);
  });
  const readme = new RegExp(`${README_MARK}(.+)`).exec(text)?.[1]?.trim();
  const packages = new RegExp(`${PACKAGES_MARK}(.+)`).exec(text)?.[1]?.trim();
  return { done, ...(readme === undefined ? {} : { readme }), ...(packages === undefined ? {} : { packages }) };
}

function progress(percent: number, message: string): string {
  return `\`\`\`json\n${JSON.stringify({ _progress: { percent, message } })}\n\`\`\``;
}

function report(known: { readme?: string; packages?: string[] }, done: PlannedCall[], remaining: PlannedCall[]): string {
  const findings: string[] = [];
  if (known.readme !== undefined) findings.push(`${README_MARK}${known.readme}`);
  if (known.packages !== undefined) findings.push(`${PACKAGES_MARK}${known.packages.join('; ')}`);
  const bullets = (items: string[]): string => items.map((i) => `- ${i}`).join('\n');
  return [
    '## PROGRESS REPORT',
    '### Task',
    'Summarize the README file and list the packages',
    '### Completed Work',
    bullets(done.map((p) => p.label)),
    '### Key Findings',
    bullets(findings),
    '### Attempted but Inconclusive',
    '',
    '### Not Started / Remaining',
    bullets(remaining.map((p) => p.todo)),
    '### Suggested Next Steps',
    bullets(
      remaining
        .map((p) => `${p.todo}: ${p.name} ${JSON.stringify(p.args)}`)
        .concat('Write the final answer: the README summary and the package list'),
    ),
  ].join('\n');
}

/**
 * For tests only: `HEADWAY_DEMO_HOLD_AFTER_TOOLS=N` makes the model think "forever" (an hour) at
 * every step once the run has N tool results, so a test can act on a run held at a known point
 * (send Ctrl-C while it runs, say) however slow the machine is. The thinking stops at once when
 * the run is cancelled. Unset (as for anyone running the demo), the model never holds.
 */
const HOLD_ENV = 'HEADWAY_DEMO_HOLD_AFTER_TOOLS';
const HOLD_MS = 60 * 60_000;

/** The number of tool results after which the model holds, from {@link HOLD_ENV}. */
function holdAfterTools(): number | undefined {
  const value = process.env[HOLD_ENV];
  if (value === undefined || value === '') return undefined;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0) throw new Error(`${HOLD_ENV}: expected a whole number ≥ 0, got ${JSON.stringify(value)}`);
  return count;
}

/**
 * The demo's scripted model: `(conversation, request) => step`. Each step waits `delayMs`
 * so a person can watch the progress bar move.
 */
export function demoModel(delayMs: number): (conversation: readonly ChatMessage[], request: CompletionRequest) => ScriptedStep {
  const holdAfter = holdAfterTools();
  const model = nextStep(delayMs);
  return (conversation, request) => {
    const step = model(conversation, request);
    const held = holdAfter !== undefined && conversation.filter((m) => m.role === 'tool').length >= holdAfter;
    return held ? { ...step, delayMs: HOLD_MS } : step;
  };
}

/** The next step from the conversation so far, each after `delayMs`. */
function nextStep(delayMs: number): (conversation: readonly ChatMessage[], request: CompletionRequest) => ScriptedStep {
  return (conversation, request) => {
    const made = results(conversation);
    const carried = carriedOver(conversation);
    const isDone = (i: number): boolean => made.has(i) || carried.done.has(i);
    const readmeText = made.get(1);
    const readme = readmeText === undefined ? carried.readme : introduction(readmeText);
    const grepText = made.get(3);
    const packages = grepText === undefined ? carried.packages?.split('; ') : packageLines(grepText);

    const asksForReport = request.tools.length === 0 && userText(conversation.slice(-1)).includes('PROGRESS REPORT');
    if (asksForReport) {
      const done = PLAN.filter((_, i) => isDone(i));
      const remaining = PLAN.filter((_, i) => !isDone(i));
      return {
        content: report({ ...(readme === undefined ? {} : { readme }), ...(packages === undefined ? {} : { packages }) }, done, remaining),
        delayMs,
      };
    }

    const next = PLAN.findIndex((_, i) => !isDone(i));
    const step = PLAN[next];
    if (step !== undefined && request.tools.some((t) => t.name === step.name)) {
      return {
        content: `Next: ${step.label.replace(/ \(.*\)$/, '').toLowerCase()}.\n${progress(step.percent, step.label.replace(/ \(.*\)$/, ''))}`,
        toolCalls: [{ name: step.name, args: step.args }],
        delayMs,
      };
    }
    const lines = [
      `**What README.md says:** ${readme ?? '(the README could not be read)'}`,
      '',
      `**Packages (${packages?.length ?? 0}):**`,
      ...(packages ?? []).map((p) => `- ${p}`),
    ];
    return { content: lines.join('\n'), delayMs };
  };
}
