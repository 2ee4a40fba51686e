// Draws a DashboardState into the page. Everything from the run (model text, tool args and
// previews) goes in as text, never as HTML; the one exception is the progress report, whose
// Markdown goes through markdown-it with raw HTML off (`@headway/report/html`).
import type { StepRange } from '@headway/estimator';
import { renderProgressReport } from '@headway/report';
import { narration, type DashboardState, type ToolRow } from './dashboard-state.js';
import { reportHtml } from '@headway/report/html';

/** One run of a chain of continuations, oldest first. */
interface ChainLink {
  runId: string;
  status: string;
}

/** What the page knows about a run besides its events (from `GET /api/runs/:id`). */
export interface RunView {
  runId: string;
  task: string;
  provider: string;
  maxIterations: number;
  steps: StepRange[];
  /** The run this one continues. */
  parentRunId?: string;
  /** This run and the runs it continues, oldest first. */
  chain?: ChainLink[];
}

const STATUS_WORDS: Record<string, string> = {
  running: 'running',
  completed: 'completed',
  limit: 'stopped at limit',
  cancelled: 'cancelled',
  error: 'failed',
};

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { className?: string; text?: string; data?: Record<string, string> } = {},
  ...children: Node[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.className !== undefined) node.className = props.className;
  if (props.text !== undefined) node.textContent = props.text;
  for (const [k, v] of Object.entries(props.data ?? {})) node.dataset[k] = v;
  node.append(...children);
  return node;
}

function byId(id: string): HTMLElement {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`the page has no #${id}`);
  return node;
}

/** `1.2 s`, `850 ms`, `2 min 5 s`. */
/** A range of time left in the unit of its high end: `20–45 s`, `2–5 min`, `1–3 h`. */
function formatRange(lowMs: number, highMs: number): string {
  const [unitMs, unit] = highMs < 60_000 ? [1000, 's'] : highMs < 3_600_000 ? [60_000, 'min'] : [3_600_000, 'h'];
  const lo = Math.floor(Math.max(0, lowMs) / unitMs);
  const hi = Math.max(1, Math.ceil(highMs / unitMs));
  return lo >= hi ? `${hi} ${unit}` : `${lo === 0 ? '<1' : String(lo)}–${hi} ${unit}`;
}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

function argsText(args: unknown): string {
  if (args === undefined) return '';
  const text = JSON.stringify(args);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function toolRow(row: ToolRow): HTMLElement {
  return el(
    'li',
    { className: `tool ${row.ok === false ? 'failed' : 'ok'}`, data: { callId: row.callId } },
    el('span', { className: 'mark', text: row.ok === false ? '✗' : '✓' }),
    el('span', { className: 'name', text: row.name }),
    el('span', { className: 'args', text: argsText(row.args) }),
    el('span', { className: 'duration', text: formatDuration(row.durationMs ?? 0) }),
    el('div', { className: 'preview', text: row.preview ?? '' }),
  );
}

/** Which step the bar is in: steps whose slice ends at or below the percent are done. */
function stepClass(step: StepRange, percent: number, finished: boolean): string {
  if (finished || percent >= step.end) return 'done';
  if (percent >= step.start) return 'active';
  return 'pending';
}

/** Redraws the run panel from `state`. */
export function renderRun(view: RunView, state: DashboardState): void {
  const root = byId('run');
  root.hidden = false;
  root.dataset.runId = state.runId;
  root.dataset.lastSeq = String(state.lastSeq);
  root.dataset.eventCount = String(state.eventCount);
  root.dataset.status = state.outcome?.kind ?? 'running';

  byId('task').textContent = state.task ?? view.task;
  const status = byId('status');
  status.textContent = STATUS_WORDS[state.outcome?.kind ?? 'running'] ?? 'running';
  status.className = `badge ${state.outcome?.kind ?? 'running'}`;
  byId('iteration').textContent =
    state.iteration === undefined
      ? ''
      : `iteration ${Math.min(state.iteration.index + 1, state.iteration.max)}/${state.iteration.max} · ${view.provider}`;

  const percent = Math.round(state.percent * 10) / 10;
  const bar = byId('bar');
  bar.setAttribute('aria-valuenow', String(percent));
  byId('bar-fill').style.width = `${percent}%`;
  byId('percent').textContent = `${Math.floor(percent)}%`;
  byId('eta').textContent =
    state.outcome !== undefined
      ? state.outcome.durationMs === undefined
        ? ''
        : `took ${formatDuration(state.outcome.durationMs)}`
      : state.etaLowMs !== undefined && state.etaHighMs !== undefined
        ? `ETA ${formatRange(state.etaLowMs, state.etaHighMs)}`
        : state.etaMs === undefined
          ? 'ETA —'
          : `ETA ${formatDuration(state.etaMs)}`;
  byId('message').textContent = state.message ?? '';

  const steps = byId('steps');
  steps.replaceChildren(
    ...view.steps.map((s) =>
      el(
        'li',
        { className: stepClass(s, state.percent, state.outcome?.kind === 'completed') },
        el('span', { className: 'name', text: s.name }),
        el('span', { className: 'weight', text: `weight ${s.weight} · ${Math.round(s.start)}–${Math.round(s.end)}%` }),
      ),
    ),
  );
  byId('steps-panel').hidden = view.steps.length === 0;

  const plan = state.plan ?? [];
  const planClass = { completed: 'done', in_progress: 'active', pending: 'pending' } as const;
  byId('plan').replaceChildren(
    ...plan.map((item) => el('li', { className: planClass[item.status], text: item.text, data: { status: item.status } })),
  );
  byId('plan-count').textContent = `${plan.filter((i) => i.status === 'completed').length}/${plan.length}`;
  byId('plan-panel').hidden = plan.length === 0;

  byId('warnings').replaceChildren(
    ...state.warnings.map((w) =>
      el('li', { className: `warning ${w.kind.replace('.', '-')}`, text: w.text, data: { seq: String(w.seq) } }),
    ),
  );
  byId('running').replaceChildren(
    ...state.running.map((r) =>
      el(
        'li',
        { className: 'tool running', data: { callId: r.callId } },
        el('span', { className: 'spinner' }),
        el('span', { className: 'name', text: r.name }),
        el('span', { className: 'args', text: argsText(r.args) }),
      ),
    ),
  );
  byId('tools').replaceChildren(...state.finished.map(toolRow));
  byId('tool-count').textContent = String(state.finished.length);
  byId('notices').replaceChildren(...state.notices.map((n) => el('li', { text: n })));

  renderChain(view, state);

  const texts = byId('text');
  const blocks = narration(state);
  texts.replaceChildren(
    ...blocks.map((b, i) =>
      el(
        'div',
        { className: `text-block${i === blocks.length - 1 && state.outcome === undefined ? ' streaming' : ''}`, data: { step: b.step } },
        el('span', { className: 'step', text: b.step }),
        el('p', { text: b.text.trim() }),
      ),
    ),
  );
  texts.scrollTop = texts.scrollHeight;

  const result = byId('result');
  result.hidden = state.outcome === undefined;
  if (state.outcome !== undefined) {
    const title = byId('result-title');
    const body = byId('result-body');
    if (state.outcome.kind === 'completed') {
      title.textContent = 'Answer';
      body.textContent = state.outcome.text;
      body.className = 'answer';
    } else {
      title.textContent = state.outcome.kind === 'limit' ? 'PROGRESS REPORT' : `Run ${state.outcome.kind}: ${state.outcome.text}`;
      if (state.report === undefined) body.textContent = state.outcome.text;
      // Raw HTML in the report is escaped by markdown-it (html: false): see @headway/report/html.
      else body.innerHTML = reportHtml(renderProgressReport(state.report));
      body.className = 'report';
    }
  }
  // A run that stopped short with a report can be continued from it, once.
  byId('continue-panel').hidden = state.outcome === undefined || state.outcome.kind === 'completed' || state.report === undefined;
}

/** `Run 1 · stopped at limit → Run 2 · continued · completed`, when the run continues another. */
function renderChain(view: RunView, state: DashboardState): void {
  const chain = view.chain ?? [];
  const links = chain.map((link, i) => {
    const current = link.runId === state.runId;
    const word = STATUS_WORDS[current ? (state.outcome?.kind ?? 'running') : link.status] ?? link.status;
    const label = `Run ${i + 1}${i > 0 ? ' · continued' : ''} · ${word}`;
    const item = el('li', { data: { runId: link.runId, status: current ? (state.outcome?.kind ?? 'running') : link.status } });
    if (current) item.append(el('strong', { text: label }));
    else {
      const a = el('a', { text: label });
      a.href = `#run=${encodeURIComponent(link.runId)}`;
      item.append(a);
    }
    return item;
  });
  byId('chain').replaceChildren(...links);
  byId('chain').hidden = chain.length < 2;
}

/** Shows a problem above the run panel (empty text hides it). */
export function showError(text: string): void {
  const node = byId('error');
  node.textContent = text;
  node.hidden = text === '';
}
