// The page: the official AG-UI client runs the agent and renders what it holds. Model text and
// tool results go in as text; the progress report goes through markdown-it with raw HTML off.
import { HttpAgent, type Message } from '@ag-ui/client';
import { progressReportSchema, renderProgressReport } from '@headway/protocol';
import { z } from 'zod';
import { reportHtml } from '@headway/report/html';
import { formatRange, StepList, textView } from './run-view.js';
import './style.css';

function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`#${id} is missing`);
  return found;
}

const bar = element('bar', HTMLProgressElement);
const percent = element('percent', HTMLElement);
const eta = element('eta', HTMLElement);
const message = element('message', HTMLElement);
const status = element('status', HTMLElement);
const title = element('title', HTMLElement);
const chainList = element('chain', HTMLOListElement);
const steps = element('steps', HTMLOListElement);
const tools = element('tools', HTMLUListElement);
const narration = element('narration', HTMLElement);
const answer = element('answer', HTMLElement);
const answerSection = element('answer-section', HTMLElement);
const report = element('report', HTMLElement);
const reportSection = element('report-section', HTMLElement);
const run = element('run', HTMLButtonElement);
const stop = element('stop', HTMLButtonElement);
const continueButton = element('continue', HTMLButtonElement);

/** The `progress` activity, as far as the page reads it (it comes from the network: validated). */
const activitySchema = z.object({
  status: z.enum(['running', 'completed', 'limit', 'stalled', 'cancelled', 'failed']),
  task: z.string().nullable(),
  parentRunId: z.string().nullable().optional(),
  percent: z.number(),
  message: z.string().nullable(),
  etaMs: z.number().nullable(),
  etaLowMs: z.number().nullable().optional(),
  etaHighMs: z.number().nullable().optional(),
  report: progressReportSchema.nullable(),
});
type Activity = z.infer<typeof activitySchema>;

const STATUS_WORDS: Record<Activity['status'], string> = {
  running: 'running',
  completed: 'completed',
  limit: 'stopped at limit',
  stalled: 'stalled',
  cancelled: 'cancelled',
  failed: 'failed',
};

/** The runs of one chain of continuations, oldest first. */
const chain: { runId: string; status: string; parentRunId?: string }[] = [];
let stepList = new StepList();
let activity: Activity | undefined;
let messages: readonly Message[] = [];
let ended = false;

function setStatus(value: string): void {
  status.textContent = value;
  status.dataset.status = value;
}

function pageToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="headway-page-token"]')?.content ?? '';
}

function renderSteps(): void {
  steps.replaceChildren(
    ...stepList.view().map((s) => {
      const li = document.createElement('li');
      li.textContent = s.label;
      li.className = s.finished ? 'done' : 'running';
      li.dataset.step = s.name;
      return li;
    }),
  );
}

function renderChain(): void {
  chainList.hidden = chain.length < 2;
  chainList.replaceChildren(
    ...chain.map((link, i) => {
      const li = document.createElement('li');
      // "continued" only when the run's own events say which run it continues.
      const linked = i > 0 && link.parentRunId === chain[i - 1]?.runId;
      li.textContent = `Run ${i + 1}${linked ? ' · continued' : ''} · ${link.status}`;
      li.dataset.runId = link.runId;
      return li;
    }),
  );
}

function render(): void {
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === 'tool' && typeof m.content === 'string') results.set(m.toolCallId, m.content);
  tools.replaceChildren();
  for (const m of messages) {
    if (m.role === 'activity' && m.activityType === 'progress') {
      const parsed = activitySchema.safeParse(m.content);
      if (parsed.success) activity = parsed.data;
    }
    if (m.role !== 'assistant') continue;
    for (const call of m.toolCalls ?? []) {
      const li = document.createElement('li');
      const result = results.get(call.id);
      li.className = result === undefined ? 'running' : 'done';
      li.textContent =
        result === undefined
          ? `${call.function.name} ${call.function.arguments}`
          : `${call.function.name} ${call.function.arguments} → ${result}`;
      tools.append(li);
    }
  }
  if (activity !== undefined) {
    bar.value = activity.percent;
    percent.textContent = String(Math.round(activity.percent));
    message.textContent = activity.message ?? '';
    title.textContent = activity.task ?? '';
    const { etaLowMs, etaHighMs } = activity;
    eta.textContent =
      activity.status !== 'running'
        ? ''
        : etaLowMs != null && etaHighMs != null
          ? `ETA ${formatRange(etaLowMs, etaHighMs)}`
          : activity.etaMs === null
            ? 'ETA —'
            : `ETA ${formatRange(activity.etaMs, activity.etaMs)}`;
    stepList.message(activity.message);
    const link = chain.at(-1);
    if (link !== undefined) {
      link.status = STATUS_WORDS[activity.status];
      if (activity.parentRunId != null) link.parentRunId = activity.parentRunId;
    }
  }
  renderSteps();
  renderChain();
  const text = textView(messages, ended);
  narration.replaceChildren(
    ...text.narration.map((t) => {
      const p = document.createElement('p');
      p.textContent = t;
      return p;
    }),
  );
  const stoppedShort = activity?.report != null && activity.status !== 'completed';
  answerSection.hidden = text.answer === undefined || stoppedShort;
  answer.textContent = text.answer ?? '';
  reportSection.hidden = !(ended && stoppedShort);
  // The report is hostile text: markdown-it escapes its raw HTML and refuses code links.
  if (ended && stoppedShort && activity?.report != null) report.innerHTML = reportHtml(renderProgressReport(activity.report));
}

/** Runs the agent; with `continueFrom`, the follow-up of that run from its report. */
function start(question: string, maxIterations: number, continueFrom?: string): void {
  const runId = crypto.randomUUID();
  if (continueFrom === undefined) chain.length = 0;
  chain.push({ runId, status: 'running' });
  const agent = new HttpAgent({
    url: '/agent',
    headers: { 'x-headway-page-token': pageToken() },
    initialMessages: [{ id: crypto.randomUUID(), role: 'user', content: question }],
  });
  stepList = new StepList();
  activity = undefined;
  messages = [];
  ended = false;
  render();
  setStatus('running');
  run.disabled = true;
  continueButton.disabled = true;
  stop.disabled = false;
  stop.onclick = () => {
    agent.abortRun();
  };
  agent
    .runAgent(
      { runId, forwardedProps: { maxIterations, ...(continueFrom === undefined ? {} : { continueFrom }) } },
      {
        onStepStartedEvent: ({ event }) => {
          stepList.started(event.stepName);
          renderSteps();
        },
        onStepFinishedEvent: ({ event }) => {
          stepList.finished(event.stepName);
          renderSteps();
        },
        onMessagesChanged: ({ messages: now }) => {
          messages = now;
          render();
        },
        onRunErrorEvent: ({ event }) => {
          setStatus('error');
          message.textContent = event.message;
        },
      },
    )
    .then(
      () => {
        ended = true;
        render();
        setStatus(activity === undefined ? 'completed' : STATUS_WORDS[activity.status]);
      },
      (error: unknown) => {
        ended = true;
        setStatus('error');
        message.textContent = String(error);
      },
    )
    .finally(() => {
      stop.disabled = true;
      run.disabled = false;
      continueButton.disabled = false;
    });
}

function maxIterations(): number {
  return Number(element('max-iterations', HTMLInputElement).value) || 6;
}

element('form', HTMLFormElement).addEventListener('submit', (submitted) => {
  submitted.preventDefault();
  start(element('question', HTMLInputElement).value, maxIterations());
});

continueButton.addEventListener('click', () => {
  const from = chain.at(-1);
  // The server builds the follow-up's prompt from the report it kept; the question is not used.
  if (from !== undefined) start(activity?.task ?? '', 6, from.runId);
});
