// The page: the official AG-UI client runs the agent and renders what it holds.
import { HttpAgent, type Message } from '@ag-ui/client';

function element(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`#${id} is missing`);
  return found;
}

const bar = element('bar') as HTMLProgressElement;
const percent = element('percent');
const message = element('message');
const status = element('status');
const steps = element('steps');
const tools = element('tools');
const answer = element('answer');
const stop = element('stop') as HTMLButtonElement;

function setStatus(value: string): void {
  status.textContent = value;
  status.dataset.status = value;
}

function render(messages: readonly Message[]): void {
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === 'tool' && typeof m.content === 'string') results.set(m.toolCallId, m.content);
  tools.replaceChildren();
  const texts: string[] = [];
  for (const m of messages) {
    if (m.role === 'activity' && m.activityType === 'progress') {
      const content = m.content as { percent: number; message: string | null };
      bar.value = content.percent;
      percent.textContent = String(Math.round(content.percent));
      message.textContent = content.message ?? '';
    }
    if (m.role !== 'assistant') continue;
    if (typeof m.content === 'string' && m.content !== '') texts.push(m.content);
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
  answer.textContent = texts.join('');
}

element('form').addEventListener('submit', (submitted) => {
  submitted.preventDefault();
  const question = (element('question') as HTMLInputElement).value;
  const agent = new HttpAgent({ url: '/agent', initialMessages: [{ id: crypto.randomUUID(), role: 'user', content: question }] });
  steps.replaceChildren();
  setStatus('running');
  stop.disabled = false;
  stop.onclick = () => {
    agent.abortRun();
  };
  agent
    .runAgent(
      {},
      {
        onStepStartedEvent: ({ event }) => {
          const li = document.createElement('li');
          li.textContent = event.stepName;
          steps.append(li);
        },
        onMessagesChanged: ({ messages }) => {
          render(messages);
        },
        onRunFinishedEvent: (params) => {
          setStatus(params.outcome);
        },
        onRunErrorEvent: ({ event }) => {
          setStatus('error');
          message.textContent = event.message;
        },
      },
    )
    .catch((error: unknown) => {
      setStatus('error');
      message.textContent = String(error);
    })
    .finally(() => {
      stop.disabled = true;
    });
});
